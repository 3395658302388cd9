package httpapi

import (
	"time"

	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/fields"
)

// The records of the template, sync and dependency endpoints. The
// library's types carry no wire format; these are built from them.

// templateRecord is the spec's template record. A list entry leaves out
// field_config; linked_parents appears on single reads only.
type templateRecord struct {
	ID             int64                     `json:"id"`
	Name           string                    `json:"name"`
	Description    string                    `json:"description"`
	PostType       string                    `json:"post_type"`
	IsDefault      bool                      `json:"is_default"`
	IsSystem       bool                      `json:"is_system"`
	FieldConfig    *templates.FieldConfig    `json:"field_config,omitempty"`
	TaxonomyConfig templates.TaxonomyConfig  `json:"taxonomy_config"`
	ParentID       int64                     `json:"parent_id,omitempty"`
	LinkedParents  *[]templates.LinkedParent `json:"linked_parents,omitempty"`
	CreatedAt      string                    `json:"created_at"`
	UpdatedAt      string                    `json:"updated_at"`
}

// newTemplateRecord returns the record of t as a single read shows it:
// with field_config, and with linked_parents when t carries them (Get
// sets them, [] for a plain template).
func newTemplateRecord(t *templates.Template) templateRecord {
	r := newTemplateSummary(t)
	fc := t.FieldConfig
	r.FieldConfig = &fc
	if t.LinkedParents != nil {
		lp := t.LinkedParents
		r.LinkedParents = &lp
	}
	return r
}

// newTemplateSummary returns the record of t as GET /templates lists it:
// without field_config and linked_parents.
func newTemplateSummary(t *templates.Template) templateRecord {
	r := templateRecord{
		ID: t.ID, Name: t.Name, Description: t.Description, PostType: t.PostType,
		IsDefault: t.IsDefault, IsSystem: t.IsSystem, TaxonomyConfig: t.TaxonomyConfig,
		ParentID: t.ParentID, CreatedAt: timeOrEmpty(t.CreatedAt), UpdatedAt: timeOrEmpty(t.UpdatedAt),
	}
	if r.TaxonomyConfig == nil {
		r.TaxonomyConfig = templates.TaxonomyConfig{}
	}
	return r
}

// timeOrEmpty is timestamp, "" for the zero time.
func timeOrEmpty(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return timestamp(t)
}

// staleRecord is one entry of the stale lists.
type staleRecord struct {
	ID            int64    `json:"id"`
	Name          string   `json:"name"`
	PostType      string   `json:"post_type"`
	AddedFields   []string `json:"added_fields"`
	RemovedFields []string `json:"removed_fields"`
	ChangedFields []string `json:"changed_fields"`
	SavedAt       string   `json:"saved_at"`
}

func newStaleRecord(s *templates.StaleTemplate) staleRecord {
	return staleRecord{
		ID: s.ID, Name: s.Name, PostType: s.PostType,
		AddedFields: nonNil(s.AddedFields), RemovedFields: nonNil(s.RemovedFields), ChangedFields: nonNil(s.ChangedFields),
		SavedAt: timeOrEmpty(s.SavedAt),
	}
}

func newStaleRecords(list []templates.StaleTemplate) []staleRecord {
	out := make([]staleRecord, len(list))
	for i := range list {
		out[i] = newStaleRecord(&list[i])
	}
	return out
}

// syncRecord is the answer of the sync endpoints without the envelope.
type syncRecord struct {
	InSync           bool          `json:"in_sync"`
	StaleCount       int           `json:"stale_count"`
	ChangedPostTypes []string      `json:"changed_post_types"`
	HasUnseenChanges bool          `json:"has_unseen_changes"`
	UnseenPostTypes  []string      `json:"unseen_post_types"`
	LastSeen         string        `json:"last_seen"`
	Stale            []staleRecord `json:"stale"`
}

func newSyncRecord(st *templates.SyncStatus) syncRecord {
	return syncRecord{
		InSync: st.InSync, StaleCount: st.StaleCount, ChangedPostTypes: nonNil(st.ChangedPostTypes),
		HasUnseenChanges: st.HasUnseenChanges, UnseenPostTypes: nonNil(st.UnseenPostTypes),
		LastSeen: timeOrEmpty(st.LastSeen), Stale: newStaleRecords(st.Stale),
	}
}

// dependencyRecord is the spec's dependency entry.
type dependencyRecord struct {
	FieldName       string            `json:"field_name"`
	FieldType       string            `json:"field_type"`
	TargetPostTypes []string          `json:"target_post_types"`
	TargetLabels    map[string]string `json:"target_labels"`
	IsMultiple      bool              `json:"is_multiple"`
	Source          string            `json:"source"`
	Cardinality     string            `json:"cardinality"`
	Required        bool              `json:"required"`
}

// uniqueTargetRecord is the spec's unique target entry.
type uniqueTargetRecord struct {
	Label            string   `json:"label"`
	PluralLabel      string   `json:"plural_label"`
	ExistingCount    int      `json:"existing_count"`
	HasTemplate      bool     `json:"has_template"`
	TemplateName     *string  `json:"template_name"`
	IsRequired       bool     `json:"is_required"`
	RequiredByFields []string `json:"required_by_fields"`
}

// dependencyReport is the body of GET /dependencies/{post_type} without
// the envelope.
type dependencyReport struct {
	PostType      string                        `json:"post_type"`
	Dependencies  []dependencyRecord            `json:"dependencies"`
	UniqueTargets map[string]uniqueTargetRecord `json:"unique_targets"`
	Count         int                           `json:"count"`
}

func newDependencyReport(rep *fields.DependencyReport) dependencyReport {
	out := dependencyReport{
		PostType: rep.PostType, Dependencies: make([]dependencyRecord, len(rep.Dependencies)),
		UniqueTargets: make(map[string]uniqueTargetRecord, len(rep.UniqueTargets)), Count: len(rep.Dependencies),
	}
	for i := range rep.Dependencies {
		d := &rep.Dependencies[i]
		labels := d.TargetLabels
		if labels == nil {
			labels = map[string]string{}
		}
		out.Dependencies[i] = dependencyRecord{
			FieldName: d.FieldName, FieldType: d.FieldType, TargetPostTypes: nonNil(d.TargetPostTypes),
			TargetLabels: labels, IsMultiple: d.IsMultiple, Source: d.Source, Cardinality: d.Cardinality, Required: d.Required,
		}
	}
	for pt, u := range rep.UniqueTargets {
		r := uniqueTargetRecord{
			Label: u.Label, PluralLabel: u.PluralLabel, ExistingCount: u.ExistingCount,
			HasTemplate: u.TemplateName != "", IsRequired: u.IsRequired, RequiredByFields: nonNil(u.RequiredByFields),
		}
		if u.TemplateName != "" {
			name := u.TemplateName
			r.TemplateName = &name
		}
		out.UniqueTargets[pt] = r
	}
	return out
}

// importItemRecord is the outcome of one imported template.
type importItemRecord struct {
	Success bool   `json:"success"`
	Name    string `json:"name"`
	ID      int64  `json:"id"`
	Error   string `json:"error,omitempty"`
}

func newImportItemRecords(res []templates.ImportItemResult) []importItemRecord {
	out := make([]importItemRecord, len(res))
	for i, r := range res {
		out[i] = importItemRecord{Success: r.Success, Name: r.Name, ID: r.ID, Error: r.Error}
	}
	return out
}
