package templates

import (
	"encoding/json"
	"time"
)

// TimeLayout is the layout of timestamps in records: "YYYY-MM-DD HH:MM:SS".
const TimeLayout = time.DateTime

// templateJSON is the spec's template record.
type templateJSON struct {
	ID             int64           `json:"id"`
	Name           string          `json:"name"`
	Description    string          `json:"description"`
	PostType       string          `json:"post_type"`
	IsDefault      bool            `json:"is_default"`
	IsSystem       bool            `json:"is_system"`
	FieldConfig    *FieldConfig    `json:"field_config,omitempty"`
	TaxonomyConfig TaxonomyConfig  `json:"taxonomy_config"`
	ParentID       int64           `json:"parent_id,omitempty"`
	LinkedParents  *[]LinkedParent `json:"linked_parents,omitempty"`
	CreatedAt      string          `json:"created_at"`
	UpdatedAt      string          `json:"updated_at"`
}

func (t *Template) record(withFields bool) templateJSON {
	j := templateJSON{
		ID: t.ID, Name: t.Name, Description: t.Description, PostType: t.PostType,
		IsDefault: t.IsDefault, IsSystem: t.IsSystem, TaxonomyConfig: t.TaxonomyConfig,
		ParentID:  t.ParentID,
		CreatedAt: formatTime(t.CreatedAt), UpdatedAt: formatTime(t.UpdatedAt),
	}
	if t.LinkedParents != nil {
		lp := t.LinkedParents
		j.LinkedParents = &lp
	}
	if withFields {
		fc := t.FieldConfig
		j.FieldConfig = &fc
	}
	if j.TaxonomyConfig == nil {
		j.TaxonomyConfig = TaxonomyConfig{}
	}
	return j
}

// MarshalJSON writes the spec's template record: id, name, description,
// post_type, is_default, is_system, field_config, taxonomy_config (an
// object, {} when empty), linked_parents (only when LinkedParents is not
// nil, [] for a plain template), created_at and updated_at as
// "YYYY-MM-DD HH:MM:SS". Variants also carry parent_id.
func (t Template) MarshalJSON() ([]byte, error) {
	return json.Marshal(t.record(true))
}

// UnmarshalJSON reads a template record as MarshalJSON writes it.
// Timestamps may also be RFC 3339; unparsable ones are left zero.
func (t *Template) UnmarshalJSON(data []byte) error {
	var j templateJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*t = Template{
		ID: j.ID, Name: j.Name, Description: j.Description, PostType: j.PostType,
		IsDefault: j.IsDefault, IsSystem: j.IsSystem, TaxonomyConfig: j.TaxonomyConfig,
		ParentID:  j.ParentID,
		CreatedAt: parseTime(j.CreatedAt), UpdatedAt: parseTime(j.UpdatedAt),
	}
	if j.LinkedParents != nil {
		t.LinkedParents = *j.LinkedParents
		if t.LinkedParents == nil {
			t.LinkedParents = []LinkedParent{}
		}
	}
	if j.FieldConfig != nil {
		t.FieldConfig = *j.FieldConfig
	}
	return nil
}

// Summary is a template as GET /templates lists it: the template record
// without field_config. Convert with Summary(t).
type Summary Template

// MarshalJSON writes the template record without field_config and
// linked_parents.
func (s Summary) MarshalJSON() ([]byte, error) {
	t := Template(s)
	t.LinkedParents = nil
	return json.Marshal(t.record(false))
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
