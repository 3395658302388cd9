package fill

import (
	"context"
	"fmt"
	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/fields"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/contentgen/contentgen/internal/jsonclone"
	"github.com/contentgen/contentgen/locales/markup"
)

// Options tune a Filler. The zero value is ready to use.
type Options struct {
	// Now anchors generated dates and years; zero means
	// 2025-01-01 00:00:00 UTC, so output never depends on the wall clock.
	Now time.Time
	// StorageFormat makes values take the form Advanced Custom Fields
	// stores in post meta instead of the field's return format: dates as
	// Ymd, date-times as "Y-m-d H:i:s", times as "H:i:s", choices as
	// values, media and objects as ids, true_false as 1 or 0. Use it when
	// writing to a real ACF database.
	StorageFormat bool
	// ContentFormat is the format of wysiwyg values (post_content among
	// them): markup.HTML (also when empty), markup.Blocks or
	// markup.Markdown. Values written with include_html false stay plain
	// text in every format.
	ContentFormat markup.Format
}

// Filler makes up custom field values for one generation run. Selection
// of mode choose with selection_mode "rotate" walks each field's values in
// order across every call of the run, so a batch uses all values before
// any repeats. The same random source, text source and calls give the same
// values. A Filler is not safe for concurrent use.
type Filler struct {
	r    *rand.Rand
	text TextSource
	opts Options
	rot  map[string]int
	buf  []byte
	// depth is the nesting of repeaters and groups being filled.
	depth int
}

// Nesting limits of repeaters and groups: rows of nested repeaters are
// capped at maxNestedRows, and below maxDepth layouts stay empty, so that
// deeply nested definitions cannot blow up.
const (
	maxNestedRows = 5
	maxDepth      = 4
)

// New returns a Filler drawing from r and text. A nil text uses a
// LoremText over r; nil opts means the zero Options.
func New(r *rand.Rand, text TextSource, opts *Options) *Filler {
	f := &Filler{r: r, text: text, rot: map[string]int{}}
	if opts != nil {
		f.opts = *opts
	}
	if f.opts.Now.IsZero() {
		f.opts.Now = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	if f.text == nil {
		f.text = NewLoremText(r)
	}
	return f
}

// Value returns the value of field under setting and whether to set it at
// all. A nil setting, or mode create, makes a value fitting the field type
// and its settings (and its DetectedType, for text-like fields). Mode none
// leaves the field unset (ok false) unless it is required, in which case it
// is created anyway. Mode choose picks from setting.Choose.Values, randomly
// or in rotation; lists are wrapped for fields holding several values.
// Relational fields give a Ref unless Options.Lookup is set.
func (g *Filler) Value(field *fields.Field, setting *templates.FieldSetting) (v any, ok bool) {
	mode := templates.ModeCreate
	if setting != nil && setting.Mode != "" {
		mode = setting.Mode
	}
	var opts *templates.CreateOptions
	switch mode {
	case templates.ModeNone:
		if !field.Required {
			return nil, false
		}
	case templates.ModeChoose:
		if setting.Choose != nil && len(setting.Choose.Values) > 0 {
			v = g.choose(field, setting.Choose)
			if !isEmpty(v) || !field.Required {
				return v, true
			}
		}
	default:
		if setting != nil {
			opts = setting.Create
		}
	}
	v = g.create(field, opts)
	return v, true
}

// Fill returns the values of fields under settings (keyed by field name,
// as in FieldConfig.CustomFields; a missing setting means create), leaving
// out the fields Value says not to set. Fields are visited in order.
func (g *Filler) Fill(defs []fields.Field, settings map[string]templates.FieldSetting) map[string]any {
	out := make(map[string]any, len(defs))
	for i := range defs {
		f := &defs[i]
		var s *templates.FieldSetting
		if st, ok := settings[f.Name]; ok {
			s = &st
		}
		if v, ok := g.Value(f, s); ok {
			out[f.Name] = v
		}
	}
	return out
}

// Resolve replaces the Refs inside v with ids from lk (see Lookup),
// walking repeater rows and groups, and returns the result. A single
// value whose pool is empty becomes nil; a list gets as many ids as
// exist, up to Ref.Count. Media fields with return format "url" or "array"
// get URLs when lk implements URLLookup and StorageFormat is off. The
// first error of lk is returned, with v partly resolved.
func (g *Filler) Resolve(ctx context.Context, v any, lk Lookup) (any, error) {
	var err error
	switch x := v.(type) {
	case Ref:
		return resolveRef(ctx, g.r, x, lk, g.opts.StorageFormat)
	case []any:
		for i := range x {
			if x[i], err = g.Resolve(ctx, x[i], lk); err != nil {
				return v, err
			}
		}
	case []map[string]any:
		for i := range x {
			if _, err = g.Resolve(ctx, x[i], lk); err != nil {
				return v, err
			}
		}
	case map[string]any:
		for _, k := range sortedKeys(x) {
			if x[k], err = g.Resolve(ctx, x[k], lk); err != nil {
				return v, err
			}
		}
	}
	return v, nil
}

func isEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	}
	return false
}

func (g *Filler) choose(f *fields.Field, c *templates.ChooseOptions) any {
	var v any
	if c.SelectionMode == templates.SelectionRotate {
		key := f.Key + "\x00" + f.Name
		i := g.rot[key]
		g.rot[key] = i + 1
		v = c.Values[i%len(c.Values)]
	} else {
		v = c.Values[g.r.IntN(len(c.Values))]
	}
	v = jsonclone.Value(v)
	if holdsList(f) {
		if _, isList := v.([]any); !isList {
			v = []any{v}
		}
	}
	return v
}

// holdsList reports whether values of f are lists.
func holdsList(f *fields.Field) bool {
	switch f.Type {
	case fields.TypeCheckbox, fields.TypeRelationship, fields.TypeGallery:
		return true
	case fields.TypeSelect, fields.TypePostObject, fields.TypeUser, fields.TypeTaxonomy:
		return f.Multiple
	}
	return false
}

func (g *Filler) create(f *fields.Field, o *templates.CreateOptions) any {
	switch f.Type {
	case fields.TypeText:
		return g.text1(f, o)
	case fields.TypeTextarea:
		return g.textarea(f, o)
	case fields.TypeWYSIWYG:
		return g.wysiwyg(o)
	case fields.TypeNumber, fields.TypeRange:
		return g.number(f, o)
	case fields.TypeEmail:
		return g.email(f.MaxLength)
	case fields.TypeURL:
		return g.url(f.MaxLength)
	case fields.TypePassword:
		return g.password(f.MaxLength)
	case fields.TypeSelect, fields.TypeRadio, fields.TypeCheckbox:
		return g.choice(f)
	case fields.TypeTrueFalse:
		on := f.Required || g.r.IntN(2) == 0
		if g.opts.StorageFormat {
			if on {
				return 1
			}
			return 0
		}
		return on
	case fields.TypeDatePicker, fields.TypeDateTimePicker, fields.TypeTimePicker:
		return g.dateValue(f)
	case fields.TypeColorPicker:
		return g.color(f.EnableOpacity)
	case fields.TypeRelationship, fields.TypePostObject, fields.TypeTaxonomy, fields.TypeUser, fields.TypeImage, fields.TypeFile, fields.TypeGallery:
		return g.ref(f)
	case fields.TypeRepeater:
		if g.depth >= maxDepth {
			return []map[string]any{}
		}
		lo, hi := countRange(f, 1, 3)
		if g.depth > 0 {
			lo, hi = min(lo, maxNestedRows), min(hi, maxNestedRows)
		}
		rows := make([]map[string]any, between(g.r, lo, hi))
		for i := range rows {
			rows[i] = g.group(f.SubFields)
		}
		return rows
	case fields.TypeGroup:
		return g.group(f.SubFields)
	case fields.TypeLink:
		u := g.url(0)
		if f.ReturnFormat == "url" {
			return u
		}
		target := ""
		if g.r.IntN(3) == 0 {
			target = "_blank"
		}
		return map[string]any{"title": titleCase(g.text.Words(between(g.r, 2, 4))), "url": u, "target": target}
	case fields.TypeGoogleMap:
		city := g.city()
		return map[string]any{
			"address": g.address() + ", " + city, "city": city, "country": pick(g.r, countries),
			"lat": roundTo(-55+g.r.Float64()*125, 6), "lng": roundTo(-180+g.r.Float64()*360, 6), "zoom": 14,
		}
	}
	if f.DetectedType != "" {
		if v, ok := g.semanticText(f.DetectedType, f); ok {
			return g.limit(v, f.MaxLength)
		}
	}
	return g.limit(g.text.Words(between(g.r, 2, 5)), f.MaxLength)
}

func (g *Filler) group(defs []fields.Field) map[string]any {
	if g.depth >= maxDepth {
		return map[string]any{}
	}
	g.depth++
	defer func() { g.depth-- }()
	m := make(map[string]any, len(defs))
	for i := range defs {
		m[defs[i].Name] = g.create(&defs[i], nil)
	}
	return m
}

// MaxItems caps the number of items (repeater rows, related objects,
// gallery images) generated for one field, whatever its settings allow.
const MaxItems = 50

// countRange returns the item count bounds of f from Min and Max, with
// defaults lo and hi, between 1 and MaxItems.
func countRange(f *fields.Field, lo, hi int) (int, int) {
	if f.Min != nil && *f.Min > 0 {
		lo = int(math.Ceil(math.Min(*f.Min, MaxItems)))
		hi = max(hi, lo)
	}
	if f.Max != nil && *f.Max >= 1 {
		hi = int(math.Min(*f.Max, MaxItems))
		lo = min(lo, hi)
	}
	return min(max(lo, 1), MaxItems), min(max(hi, 1), MaxItems)
}

// text1 fills a single-line text field.
func (g *Filler) text1(f *fields.Field, o *templates.CreateOptions) string {
	if (o == nil || o.Method == "") && f.DetectedType != "" {
		if v, ok := g.semanticText(f.DetectedType, f); ok {
			return g.limit(v, f.MaxLength)
		}
	}
	return g.limit(g.byMethod(o, templates.MethodWords, 2, 6), f.MaxLength)
}

func (g *Filler) textarea(f *fields.Field, o *templates.CreateOptions) string {
	if (o == nil || o.Method == "") && f.DetectedType != "" && f.DetectedType != fields.SemDescription {
		if v, ok := g.semanticText(f.DetectedType, f); ok {
			return g.limit(v, f.MaxLength)
		}
	}
	if f.MaxLength > 0 && f.MaxLength < 1000 && (o == nil || o.Method == "") {
		// Short text areas: write sentences up to the cap instead of
		// paragraphs that would be cut anyway.
		var b strings.Builder
		for b.Len() < f.MaxLength {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(g.text.Sentence(6, 14))
		}
		return g.limit(b.String(), f.MaxLength)
	}
	return g.limit(g.byMethod(o, templates.MethodParagraphs, 1, 2), f.MaxLength)
}

// byMethod writes text by the create method (def when unset); paragraphs
// are separated by blank lines.
func (g *Filler) byMethod(o *templates.CreateOptions, def string, lo, hi int) string {
	method := def
	if o != nil && o.Method != "" {
		method = o.Method
	}
	switch method {
	case templates.MethodSentence:
		return g.text.Sentence(6, 14)
	case templates.MethodParagraphs:
		plo, phi := lo, hi
		if o != nil && (o.ParagraphCountMin > 0 || o.ParagraphCountMax > 0) {
			plo, phi = minMax(o.ParagraphCountMin, o.ParagraphCountMax)
		}
		n := between(g.r, plo, phi)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = g.text.Paragraph(3, 6)
		}
		return strings.Join(parts, "\n\n")
	default:
		wlo, whi := lo, hi
		if o != nil && (o.WordCountMin > 0 || o.WordCountMax > 0) {
			wlo, whi = minMax(o.WordCountMin, o.WordCountMax)
		}
		return capitalize(g.text.Words(between(g.r, wlo, whi)))
	}
}

// minMax completes a min/max pair where one side may be 0 (unset).
func minMax(lo, hi int) (int, int) {
	if lo <= 0 {
		lo = 1
	}
	if hi < lo {
		hi = lo
	}
	return lo, hi
}

// wysiwyg writes the value of a wysiwyg field (and of post_content) in
// Options.ContentFormat; include_html false gives plain text in every
// format.
func (g *Filler) wysiwyg(o *templates.CreateOptions) string {
	lo, hi := 3, 6
	html := true
	var ho templates.HTMLOptions
	if o != nil {
		if o.ParagraphCountMin > 0 || o.ParagraphCountMax > 0 {
			lo, hi = minMax(o.ParagraphCountMin, o.ParagraphCountMax)
		}
		if o.IncludeHTML != nil {
			html = *o.IncludeHTML
		}
		if o.HTMLOptions != nil {
			ho = *o.HTMLOptions
		}
		if o.Method == templates.MethodWords || o.Method == templates.MethodSentence {
			text := g.byMethod(o, templates.MethodWords, 5, 12)
			if !html {
				return text
			}
			d := markup.Begin(g.buf[:0], g.opts.ContentFormat)
			g.buf = d.OpenParagraph(g.buf[:0])
			g.buf = d.AppendText(g.buf, text)
			g.buf = d.CloseParagraph(g.buf)
			if d.Format() == markup.HTML {
				// A lone paragraph has never had a line break after it.
				g.buf = g.buf[:len(g.buf)-1]
			}
			return string(g.buf)
		}
	}
	n := between(g.r, lo, hi)
	if !html {
		return g.byMethod(&templates.CreateOptions{Method: templates.MethodParagraphs, ParagraphCountMin: n, ParagraphCountMax: n}, "", n, n)
	}
	listAt := -1
	if ho.Lists {
		listAt = g.r.IntN(n)
	}
	b := g.buf[:0]
	d := markup.Begin(b, g.opts.ContentFormat)
	for i := 0; i < n; i++ {
		if ho.Headings && (i == 0 && n > 2 || i > 0 && i%3 == 0) {
			b = d.OpenHeading(b, 2)
			b = d.AppendText(b, titleCase(g.text.Words(between(g.r, 2, 5))))
			b = d.CloseHeading(b, 2)
		}
		b = d.OpenParagraph(b)
		b = d.AppendText(b, g.text.Paragraph(3, 6))
		b = d.CloseParagraph(b)
		if i == listAt {
			b = d.OpenList(b)
			for j, k := 0, between(g.r, 3, 6); j < k; j++ {
				b = d.OpenItem(b)
				b = d.AppendText(b, capitalize(g.text.Words(between(g.r, 2, 6))))
				b = d.CloseItem(b)
			}
			b = d.CloseList(b)
		}
	}
	g.buf = b
	return string(b)
}

// limit cuts s to maxLen runes (0: no cap), at a word boundary when one
// is near, and never to nothing.
func (g *Filler) limit(s string, maxLen int) string {
	if maxLen <= 0 || utf8.RuneCountInString(s) <= maxLen {
		return s
	}
	n, end := 0, len(s)
	for i := range s {
		if n == maxLen {
			end = i
			break
		}
		n++
	}
	cut := s[:end]
	out := cut
	if sp := strings.LastIndexByte(out, ' '); sp > len(out)/2 {
		out = out[:sp]
	}
	if out = strings.TrimRight(out, " ,;:-"); out == "" {
		return cut
	}
	return out
}

// number fills number and range fields.
func (g *Filler) number(f *fields.Field, o *templates.CreateOptions) any {
	lo, hi, decimals := 0.0, 100.0, 0
	if f.DetectedType != "" {
		if r, ok := semanticRanges[f.DetectedType]; ok {
			lo, hi, decimals = r.lo, r.hi, r.decimals
			if f.DetectedType == fields.SemYear {
				hi = float64(g.opts.Now.Year())
			}
		}
	}
	// The field's own bounds are hard limits.
	if f.Min != nil {
		lo = max(lo, *f.Min)
		if lo > hi {
			hi = lo + 100
		}
	}
	if f.Max != nil {
		hi = min(hi, *f.Max)
		if hi < lo {
			lo = *f.Max - 100
			if f.Min != nil {
				lo = *f.Min
			}
		}
	}
	if o != nil {
		olo, ohi := lo, hi
		if o.Min != nil {
			olo = *o.Min
		}
		if o.Max != nil {
			ohi = *o.Max
		}
		// A single bound outside the default range moves the range along.
		if o.Max == nil && olo > ohi {
			ohi = olo + (hi - lo)
		}
		if o.Min == nil && ohi < olo {
			olo = ohi - (hi - lo)
		}
		// Options replace the default range but only narrow the field's
		// own bounds; options outside those are ignored.
		hardLo, hardHi := math.Inf(-1), math.Inf(1)
		if f.Min != nil {
			hardLo = *f.Min
		}
		if f.Max != nil {
			hardHi = *f.Max
		}
		if nlo, nhi := max(olo, hardLo), min(ohi, hardHi); nlo <= nhi {
			lo, hi = nlo, nhi
		}
		if o.DecimalPlaces > 0 {
			decimals = o.DecimalPlaces
		}
	}
	if f.Step != nil && *f.Step > 0 {
		step := *f.Step
		steps := math.Floor((hi-lo)/step + 1e-9)
		if !(steps < 1<<40) {
			steps = 1 << 40
		}
		v := lo + float64(g.r.Int64N(int64(max(steps, 0))+1))*step
		d := max(decimals, decimalsOf(step))
		if f.Min != nil {
			d = max(d, decimalsOf(*f.Min))
		}
		return numberOut(roundTo(v, d), d)
	}
	if decimals == 0 {
		ilo, ihi := math.Ceil(lo), math.Floor(hi)
		if ilo > ihi {
			return numberOut(roundTo(lo, 2), 2)
		}
		return int(ilo) + g.r.IntN(int(ihi-ilo)+1)
	}
	v := roundTo(lo+g.r.Float64()*(hi-lo), decimals)
	v = math.Min(math.Max(v, lo), hi)
	return numberOut(v, decimals)
}

// numberOut returns v as an int when it is whole and no decimals are
// wanted, else as a float64.
func numberOut(v float64, decimals int) any {
	if decimals == 0 && v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return int(v)
	}
	return v
}

func roundTo(v float64, decimals int) float64 {
	p := math.Pow10(decimals)
	return math.Round(v*p) / p
}

func decimalsOf(step float64) int {
	s := strconv.FormatFloat(step, 'f', -1, 64)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}

type numRange struct {
	lo, hi   float64
	decimals int
}

// semanticRanges are plausible ranges of numeric semantic types.
var semanticRanges = map[string]numRange{
	fields.SemPrice: {1, 500, 2}, fields.SemRating: {1, 5, 0}, fields.SemLatitude: {-55, 70, 6}, fields.SemLongitude: {-180, 180, 6},
	fields.SemYear: {1950, 2025, 0}, fields.SemAge: {18, 90, 0}, fields.SemQuantity: {0, 500, 0}, fields.SemPercentage: {0, 100, 0},
	fields.SemWeight: {0.1, 100, 1}, fields.SemDimension: {1, 300, 0}, fields.SemDuration: {5, 240, 0},
	fields.SemPostcode: {10000, 99999, 0}, fields.SemPhone: {2000000000, 9999999999, 0}, fields.SemISBN: {9780000000000, 9799999999999, 0},
	fields.SemSKU: {100000, 999999, 0},
}

func (g *Filler) choice(f *fields.Field) any {
	if len(f.Choices) == 0 {
		v := g.text.Words(1)
		if holdsList(f) {
			return []any{v}
		}
		return v
	}
	out := func(c fields.Choice) any {
		if g.opts.StorageFormat {
			return c.Value
		}
		switch f.ReturnFormat {
		case "label":
			return c.Label
		case "array":
			return map[string]any{"value": c.Value, "label": c.Label}
		}
		return c.Value
	}
	if !holdsList(f) {
		return out(f.Choices[g.r.IntN(len(f.Choices))])
	}
	lo, hi := countRange(f, 1, min(3, len(f.Choices)))
	hi = min(hi, len(f.Choices))
	n := between(g.r, min(lo, hi), hi)
	// Pick n distinct choices and keep them in the field's order.
	idx := g.r.Perm(len(f.Choices))[:n]
	picked := make([]bool, len(f.Choices))
	for _, i := range idx {
		picked[i] = true
	}
	vals := make([]any, 0, n)
	for i, c := range f.Choices {
		if picked[i] {
			vals = append(vals, out(c))
		}
	}
	return vals
}

// Default return formats of ACF's pickers, and the formats ACF stores.
const (
	defaultDateFormat     = "d/m/Y"
	defaultDateTimeFormat = "d/m/Y g:i a"
	defaultTimeFormat     = "g:i a"
	storageDateFormat     = "Ymd"
	storageDateTimeFormat = "Y-m-d H:i:s"
	storageTimeFormat     = "H:i:s"
)

func (g *Filler) dateValue(f *fields.Field) string {
	t := g.randomTime(f.DetectedType)
	var format string
	switch f.Type {
	case fields.TypeDatePicker:
		format = pickFormat(f.ReturnFormat, defaultDateFormat, storageDateFormat, g.opts.StorageFormat)
	case fields.TypeDateTimePicker:
		format = pickFormat(f.ReturnFormat, defaultDateTimeFormat, storageDateTimeFormat, g.opts.StorageFormat)
	default:
		format = pickFormat(f.ReturnFormat, defaultTimeFormat, storageTimeFormat, g.opts.StorageFormat)
	}
	g.buf = AppendPHPDate(g.buf[:0], t, format)
	return string(g.buf)
}

func pickFormat(ret, def, storage string, useStorage bool) string {
	switch {
	case useStorage:
		return storage
	case ret != "":
		return ret
	}
	return def
}

// randomTime returns a time around Now: within a year either side, or a
// birth date 18 to 80 years back; minutes in quarter hours.
func (g *Filler) randomTime(sem string) time.Time {
	now := g.opts.Now
	var day time.Time
	if sem == fields.SemBirthDate {
		day = now.AddDate(-between(g.r, 18, 80), 0, -g.r.IntN(365))
	} else {
		day = now.AddDate(0, 0, between(g.r, -365, 365))
	}
	y, m, d := day.Date()
	return time.Date(y, m, d, between(g.r, 7, 21), 15*g.r.IntN(4), 0, 0, now.Location())
}

func (g *Filler) color(opacity bool) string {
	c := g.r.Uint32()
	r, gr, b := c>>16&0xff, c>>8&0xff, c&0xff
	if opacity {
		return fmt.Sprintf("rgba(%d,%d,%d,%s)", r, gr, b, strconv.FormatFloat(float64(between(g.r, 2, 10))/10, 'f', -1, 64))
	}
	return fmt.Sprintf("#%02x%02x%02x", r, gr, b)
}

func (g *Filler) ref(f *fields.Field) Ref {
	ref := Ref{Field: f.Name, Multiple: holdsList(f), Format: f.ReturnFormat, Count: 1}
	switch f.Type {
	case fields.TypeRelationship, fields.TypePostObject:
		ref.Kind, ref.Targets = RefPost, f.PostTypes
	case fields.TypeTaxonomy:
		ref.Kind = RefTerm
		if f.Taxonomy != "" {
			ref.Targets = []string{f.Taxonomy}
		}
	case fields.TypeUser:
		ref.Kind, ref.Targets = RefUser, f.Roles
	default:
		ref.Kind = RefMedia
	}
	if ref.Multiple {
		dlo, dhi := 1, 3
		if f.Type == fields.TypeGallery {
			dlo, dhi = 2, 5
		}
		lo, hi := countRange(f, dlo, dhi)
		ref.Count = between(g.r, lo, hi)
	}
	if ref.Targets != nil {
		ref.Targets = append([]string(nil), ref.Targets...)
	}
	return ref
}
