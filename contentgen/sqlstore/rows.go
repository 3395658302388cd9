package sqlstore

// rowSet is the rows of one bulk insert (see dialect.insertRows): the
// table, how many rows, and the columns, each declared with the function
// that gives its value in row i. A column and its value are declared
// together, so that adding, removing or reordering columns cannot pair a
// column with another's value:
//
//	r := newRows(db.t.posts, len(posts)).
//		bigint("id", func(i int) int64 { return ids[i] }).
//		text("title", func(i int) string { return posts[i].Title })
type rowSet struct {
	table string
	n     int
	cols  []rowCol
}

// rowCol is a column of a rowSet: its name, its type and the function giving
// its value, the one of its type.
type rowCol struct {
	name     string
	typ      colType
	bigintOf func(i int) int64
	textOf   func(i int) string
	// nullTextOf gives a text, or ok false for NULL.
	nullTextOf func(i int) (s string, ok bool)
}

// colType is the type of a column of a rowSet.
type colType uint8

const (
	colBigint colType = iota
	colText
	colNullText
)

// newRows starts the rowSet of n rows of an insert into table.
func newRows(table string, n int) *rowSet {
	return &rowSet{table: table, n: n, cols: make([]rowCol, 0, 12)}
}

// bigint adds a BIGINT column whose value in row i is v(i).
func (r *rowSet) bigint(name string, v func(i int) int64) *rowSet {
	r.cols = append(r.cols, rowCol{name: name, typ: colBigint, bigintOf: v})
	return r
}

// text adds a text column whose value in row i is v(i).
func (r *rowSet) text(name string, v func(i int) string) *rowSet {
	r.cols = append(r.cols, rowCol{name: name, typ: colText, textOf: v})
	return r
}

// nullText adds a text column whose value in row i is v(i), or NULL
// where v reports false.
func (r *rowSet) nullText(name string, v func(i int) (string, bool)) *rowSet {
	r.cols = append(r.cols, rowCol{name: name, typ: colNullText, nullTextOf: v})
	return r
}

// names returns the names of the columns, in order.
func (r *rowSet) names() []string {
	out := make([]string, len(r.cols))
	for c, col := range r.cols {
		out[c] = col.name
	}
	return out
}

// value returns the value of row i in column c as a statement argument:
// an int64, a string, or nil for NULL.
func (r *rowSet) value(i, c int) any {
	col := &r.cols[c]
	switch col.typ {
	case colBigint:
		return col.bigintOf(i)
	case colText:
		return col.textOf(i)
	default:
		if s, ok := col.nullTextOf(i); ok {
			return s
		}
		return nil
	}
}

// appendRow appends the values of row i, column by column, to args.
func (r *rowSet) appendRow(args []any, i int) []any {
	for c := range r.cols {
		args = append(args, r.value(i, c))
	}
	return args
}

// pgType is the PostgreSQL type of column c: "bigint" or "text".
func (r *rowSet) pgType(c int) string {
	if r.cols[c].typ == colBigint {
		return "bigint"
	}
	return "text"
}
