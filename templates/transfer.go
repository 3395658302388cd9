package templates

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// ExportVersion is the version of the export format.
const ExportVersion = "1.0"

// TimeLayout is the layout of the export format's timestamps:
// "YYYY-MM-DD HH:MM:SS".
const TimeLayout = time.DateTime

// ExportedTemplate is one template of an export payload: no id, no flags.
type ExportedTemplate struct {
	Name           string         `json:"name"`
	Description    string         `json:"description"`
	PostType       string         `json:"post_type"`
	FieldConfig    FieldConfig    `json:"field_config"`
	TaxonomyConfig TaxonomyConfig `json:"taxonomy_config"`
}

// Export is the payload of GET /templates/export (without the success
// flag of the envelope).
type Export struct {
	Templates []ExportedTemplate `json:"templates"`
	Count     int                `json:"count"`
	Version   string             `json:"version"`
	// Exported is when the export was made.
	Exported time.Time `json:"-"`
}

type exportJSON struct {
	Templates []ExportedTemplate `json:"templates"`
	Count     int                `json:"count"`
	Version   string             `json:"version"`
	Exported  string             `json:"exported"`
}

// MarshalJSON writes templates, count, version and exported (a
// "YYYY-MM-DD HH:MM:SS" timestamp). Empty configurations are written as {}.
func (e Export) MarshalJSON() ([]byte, error) {
	j := exportJSON{Templates: e.Templates, Count: e.Count, Version: e.Version, Exported: formatTime(e.Exported)}
	if j.Templates == nil {
		j.Templates = []ExportedTemplate{}
	}
	for i := range j.Templates {
		if j.Templates[i].TaxonomyConfig == nil {
			j.Templates[i].TaxonomyConfig = TaxonomyConfig{}
		}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (e *Export) UnmarshalJSON(data []byte) error {
	var j exportJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*e = Export{Templates: j.Templates, Count: j.Count, Version: j.Version, Exported: parseTime(j.Exported)}
	return nil
}

// ExportSelection selects the templates to export: IDs when not empty
// (PostType is then ignored), else the templates of PostType, else all.
type ExportSelection struct {
	IDs      []int64
	PostType string
}

// Export exports the templates sel selects, in id order, stamped with
// the Library's clock. Variants are exported with their effective
// configuration, since an export carries no ids to link them to a parent.
// An id in sel.IDs that is not positive gives a *ParamError for "ids",
// one that does not exist ErrNotFound. The templates
// are read in one Store.Atomic unit, so the export is consistent. The zero
// ExportSelection exports every template.
func (l *Library) Export(ctx context.Context, sel ExportSelection) (Export, error) {
	for _, id := range sel.IDs {
		if id <= 0 {
			return Export{}, paramErr("ids", "ids must be positive integers, got %d", id)
		}
	}
	if err := ctx.Err(); err != nil {
		return Export{}, err
	}
	out := Export{Version: ExportVersion, Exported: l.now()}
	err := l.s.Atomic(ctx, func(ctx context.Context, s Store) error {
		var ids []int64
		if len(sel.IDs) > 0 {
			ids = slices.Compact(slices.Sorted(slices.Values(sel.IDs)))
		} else {
			list, err := s.List(ctx, Filter{PostType: sel.PostType})
			if err != nil {
				return err
			}
			for _, t := range list {
				ids = append(ids, t.ID)
			}
		}
		out.Templates = make([]ExportedTemplate, 0, len(ids))
		for _, id := range ids {
			t, err := s.Get(ctx, id)
			if err != nil {
				if errors.Is(err, ErrNotFound) {
					return fmt.Errorf("exporting template %d: %w", id, err)
				}
				return err
			}
			chain, err := parents(ctx, s, &t)
			if err != nil {
				return err
			}
			fc, tc := merged(append([]Template{t}, chain...))
			out.Templates = append(out.Templates, ExportedTemplate{
				Name: t.Name, Description: t.Description, PostType: t.PostType,
				FieldConfig: fc, TaxonomyConfig: tc,
			})
		}
		return nil
	})
	if err != nil {
		return Export{}, err
	}
	out.Count = len(out.Templates)
	return out, nil
}

// ImportItem is one element of an import's templates array: the decoded
// template, or the error that made it unusable.
type ImportItem struct {
	Template ExportedTemplate
	// Err is set when the element could not be decoded.
	Err error
}

// ParseImport decodes the body of POST /templates/import. Each element of
// the templates array is decoded on its own, so one malformed element
// becomes an ImportItem with Err instead of failing the whole import. A
// body that is not an object with a templates array gives a *ParamError
// for "templates".
func ParseImport(body []byte) ([]ImportItem, error) {
	var env struct {
		Templates *[]json.RawMessage `json:"templates"`
	}
	if err := json.Unmarshal(body, &env); err != nil || env.Templates == nil {
		return nil, paramErr("templates", "templates must be an array of exported templates")
	}
	items := make([]ImportItem, len(*env.Templates))
	for i, raw := range *env.Templates {
		if err := json.Unmarshal(raw, &items[i].Template); err != nil {
			items[i] = ImportItem{Err: paramErr(fmt.Sprintf("templates[%d]", i), "templates[%d] is not an exported template", i)}
			var name struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(raw, &name) == nil {
				items[i].Template.Name = name.Name
			}
		}
	}
	return items, nil
}

// ImportResult reports an import, item by item.
type ImportResult struct {
	// Results has one entry per item, in order.
	Results []ImportItemResult
	// Imported and Failed count the items that were and were not
	// imported.
	Imported int
	Failed   int
}

// ImportItemResult is the outcome of one imported template. ID is 0 and
// Error says why when Success is false.
type ImportItemResult struct {
	Success bool
	Name    string
	ID      int64
	// Error is a message safe to show a client; "" on success.
	Error string
	// Param names the invalid parameter of a failed item, if any.
	Param string
}

// Message summarises the result, for example "Imported 2 templates, 1
// failed."
func (r ImportResult) Message() string {
	noun := "templates"
	if r.Imported == 1 {
		noun = "template"
	}
	return fmt.Sprintf("Imported %d %s, %d failed.", r.Imported, noun, r.Failed)
}

// Import creates one user template per valid item, in order, none of
// them default, each recording the Signature hook's field signature. Each
// item is checked in full first (its decoding error, Input.Validate, then
// the Check hook), so an item is imported whole or not at all; invalid
// items are reported in their result, with Param prefixed by
// "templates[i].", and the others still imported. A Check error that is
// not a *ParamError stops the import: it is returned unchanged with the
// zero ImportResult, and nothing is imported.
//
// The valid items are stored in one Store.Atomic unit: when it fails
// (a store error, or ctx done) none of them is imported, each is reported
// failed, and the error is returned with the result. A done ctx thus
// imports nothing: the items are reported failed and ctx.Err() is
// returned. Nil or empty items give an empty result.
func (l *Library) Import(ctx context.Context, items []ImportItem) (ImportResult, error) {
	results := make([]ImportItemResult, len(items))
	ins := make([]Input, len(items))
	ready := make([]bool, len(items))
	errs := make([]error, len(items))
	sigs := map[string]Signature{}
	for i, it := range items {
		results[i].Name = it.Template.Name
		err := it.Err
		if err == nil {
			err = ctx.Err()
		}
		if err == nil {
			in := Input{
				Name: it.Template.Name, Description: it.Template.Description, PostType: it.Template.PostType,
				FieldConfig: it.Template.FieldConfig, TaxonomyConfig: it.Template.TaxonomyConfig,
			}
			err = in.Validate()
			if err == nil && l.check != nil {
				err = l.check(ctx, in.PostType, in.TaxonomyConfig)
				var pe *ParamError
				if err != nil && !errors.As(err, &pe) {
					if ctx.Err() == nil {
						return ImportResult{}, err
					}
					err = ctx.Err()
				}
			}
			if err == nil && l.signature != nil {
				sig, ok := sigs[in.PostType]
				if !ok {
					sig = l.signature(ctx, in.PostType)
					sigs[in.PostType] = sig
				}
				in.FieldSignature = sig
			}
			ins[i], ready[i] = in, err == nil
		}
		errs[i] = err
	}

	err := l.storeImports(ctx, ins, ready, results)
	res := ImportResult{Results: results}
	for i := range results {
		r := &results[i]
		switch {
		case errs[i] != nil:
			r.Error, r.Param = importFailure(i, errs[i])
		case err != nil:
			r.Error, r.Param = importFailure(i, err)
		}
		if r.Success {
			res.Imported++
		} else {
			res.Failed++
		}
	}
	if err != nil {
		return res, err
	}
	return res, ctx.Err()
}

// storeImports inserts the ready inputs in one unit and records their ids
// in results; on error it records nothing.
func (l *Library) storeImports(ctx context.Context, ins []Input, ready []bool, results []ImportItemResult) error {
	if !slices.Contains(ready, true) {
		return nil
	}
	stored := make([]Template, len(ins))
	err := l.s.Atomic(ctx, func(ctx context.Context, s Store) error {
		now := l.stamp()
		for i, in := range ins {
			if !ready[i] {
				continue
			}
			t, err := s.Insert(ctx, Template{
				Name: strings.TrimSpace(in.Name), Description: in.Description, PostType: in.PostType,
				FieldConfig: in.FieldConfig.Clone(), TaxonomyConfig: in.TaxonomyConfig.Clone(),
				FieldSignature: in.FieldSignature, CreatedAt: now, UpdatedAt: now,
			})
			if err != nil {
				return err
			}
			stored[i] = t
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i := range ins {
		if ready[i] {
			results[i].Success, results[i].ID, results[i].Name = true, stored[i].ID, stored[i].Name
		}
	}
	return nil
}

// importFailure returns the message and parameter that report err for
// item i.
func importFailure(i int, err error) (msg, param string) {
	var pe *ParamError
	if !errors.As(err, &pe) {
		return err.Error(), ""
	}
	if strings.HasPrefix(pe.Param, "templates[") {
		return pe.Message, pe.Param
	}
	return pe.Message, fmt.Sprintf("templates[%d].%s", i, pe.Param)
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(TimeLayout)
}

func parseTime(s string) time.Time {
	if t, err := time.Parse(TimeLayout, s); err == nil {
		return t
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t
	}
	return time.Time{}
}
