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

// ExportTemplates exports the templates sel selects from s, in id order,
// stamped with now. Variants are exported with their effective
// configuration, since an export carries no ids to link them to a parent.
// An id in sel.IDs that does not exist gives ErrNotFound.
func ExportTemplates(ctx context.Context, s Store, sel ExportSelection, now time.Time) (Export, error) {
	var ids []int64
	if len(sel.IDs) > 0 {
		ids = slices.Compact(slices.Sorted(slices.Values(sel.IDs)))
	} else {
		list, err := s.List(ctx, Filter{PostType: sel.PostType})
		if err != nil {
			return Export{}, err
		}
		for _, t := range list {
			ids = append(ids, t.ID)
		}
	}
	out := Export{Templates: make([]ExportedTemplate, 0, len(ids)), Version: ExportVersion, Exported: now}
	for _, id := range ids {
		t, err := s.Effective(ctx, id)
		if err != nil {
			if errors.Is(err, ErrNotFound) {
				return Export{}, fmt.Errorf("exporting template %d: %w", id, err)
			}
			return Export{}, err
		}
		out.Templates = append(out.Templates, ExportedTemplate{
			Name: t.Name, Description: t.Description, PostType: t.PostType,
			FieldConfig: t.FieldConfig, TaxonomyConfig: t.TaxonomyConfig,
		})
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
	Results  []ImportItemResult `json:"results"`
	Imported int                `json:"-"`
	Failed   int                `json:"-"`
}

// ImportItemResult is the outcome of one imported template. ID is 0 and
// Error says why when Success is false.
type ImportItemResult struct {
	Success bool   `json:"success"`
	Name    string `json:"name"`
	ID      int64  `json:"id"`
	Error   string `json:"error,omitempty"`
	// Param names the invalid parameter of a failed item, if any.
	Param string `json:"-"`
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

// ImportTemplates creates one user template per valid item, in order, none
// of them default. Each item is validated in full before it is created, so
// an item is imported whole or not at all; invalid items are reported in
// their result and the others still imported. A cancelled ctx stops the
// import: the items not reached are reported as failed and ctx.Err() is
// returned with the result so far.
func ImportTemplates(ctx context.Context, s Store, items []ImportItem, sig func(postType string) Signature) (ImportResult, error) {
	res := ImportResult{Results: make([]ImportItemResult, 0, len(items))}
	for i, it := range items {
		r := ImportItemResult{Name: it.Template.Name}
		err := it.Err
		if err == nil {
			err = ctx.Err()
		}
		if err == nil {
			in := Input{
				Name: it.Template.Name, Description: it.Template.Description, PostType: it.Template.PostType,
				FieldConfig: it.Template.FieldConfig, TaxonomyConfig: it.Template.TaxonomyConfig,
			}
			if sig != nil {
				in.FieldSignature = sig(in.PostType)
			}
			if err = in.Validate(); err == nil {
				var t Template
				if t, err = s.Create(ctx, in); err == nil {
					r.Success, r.ID, r.Name = true, t.ID, t.Name
				}
			}
		}
		if err != nil {
			r.Error = err.Error()
			var pe *ParamError
			if errors.As(err, &pe) {
				r.Error = pe.Message
				if !strings.HasPrefix(pe.Param, "templates[") {
					r.Param = fmt.Sprintf("templates[%d].%s", i, pe.Param)
				} else {
					r.Param = pe.Param
				}
			}
			res.Failed++
		} else {
			res.Imported++
		}
		res.Results = append(res.Results, r)
	}
	return res, ctx.Err()
}
