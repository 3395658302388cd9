package fields

import (
	"maps"
	"slices"
)

// Dependency sources.
const (
	// SourceField marks dependencies from field plugin fields.
	SourceField = "field"
	// SourceRelation marks dependencies from relation definitions.
	SourceRelation = "relation"
)

// Dependency is one relational field or relation of a post type.
type Dependency struct {
	// FieldName is the field's name (as Flatten names sub-fields) or the
	// relation's.
	FieldName string
	// FieldType is the field's type, "post" for a relation.
	FieldType string
	// TargetPostTypes are the post types it points at; empty (not nil)
	// means any.
	TargetPostTypes []string
	// TargetLabels maps each target post type to its label.
	TargetLabels map[string]string
	IsMultiple   bool
	// Source is SourceField or SourceRelation.
	Source string
	// Cardinality is one of ManyToOne, ManyToMany, OneToOne, OneToMany.
	Cardinality string
	Required    bool
}

// UniqueTarget describes one target post type of a post type's
// dependencies.
type UniqueTarget struct {
	Label       string
	PluralLabel string
	// ExistingCount is the number of published posts of the target.
	ExistingCount int
	// TemplateName is the target's default template, "" when none.
	TemplateName string
	// IsRequired is true when a required field or relation points at it.
	IsRequired bool
	// RequiredByFields names the fields and relations that need posts of
	// the target (all of them, required or not), in dependency order.
	RequiredByFields []string
}

// TargetInfo is what the caller knows about a target post type: labels
// and counts from the host, the default template from the template store.
type TargetInfo struct {
	Label         string
	PluralLabel   string
	ExistingCount int
	// TemplateName is the target's default template name, "" when none.
	TemplateName string
}

// DependencyReport is what AnalyzeDependencies finds for a post type: its
// dependencies, in order, and each target post type once.
type DependencyReport struct {
	PostType      string
	Dependencies  []Dependency
	UniqueTargets map[string]UniqueTarget
}

// Dependencies lists the dependencies of postType: one entry per
// relationship or post_object field (sub-fields of repeaters and groups
// included, named as Flatten names them), then one per relation whose
// source is postType. Labels are left empty; AnalyzeDependencies fills
// them. A field without target post types targets any post type and gets
// an empty target list.
func Dependencies(postType string, fields []Field, relations []Relation) []Dependency {
	out := []Dependency{}
	for _, f := range Flatten(fields) {
		if f.Type != TypeRelationship && f.Type != TypePostObject {
			continue
		}
		multiple := f.Type == TypeRelationship || f.Multiple
		card := ManyToOne
		if multiple {
			card = ManyToMany
		}
		out = append(out, Dependency{
			FieldName: f.Name, FieldType: f.Type, TargetPostTypes: nonNil(slices.Clone(f.PostTypes)),
			TargetLabels: map[string]string{}, IsMultiple: multiple, Source: SourceField,
			Cardinality: card, Required: f.Required,
		})
	}
	for _, r := range relations {
		if r.From != postType {
			continue
		}
		card := r.Cardinality
		if card == "" {
			card = ManyToOne
		}
		out = append(out, Dependency{
			FieldName: r.Name, FieldType: "post", TargetPostTypes: nonNil(slices.Clone(r.To)),
			TargetLabels: map[string]string{}, IsMultiple: card == ManyToMany || card == OneToMany,
			Source: SourceRelation, Cardinality: card, Required: r.Required,
		})
	}
	return out
}

// AnalyzeDependencies builds the dependency report of postType, asking
// info about each target post type (info may be nil: labels then default
// to the slug and counts to 0).
func AnalyzeDependencies(postType string, fields []Field, relations []Relation, info func(postType string) TargetInfo) DependencyReport {
	deps := Dependencies(postType, fields, relations)
	infos := map[string]TargetInfo{}
	get := func(pt string) TargetInfo {
		ti, ok := infos[pt]
		if !ok {
			if info != nil {
				ti = info(pt)
			}
			if ti.Label == "" {
				ti.Label = pt
			}
			if ti.PluralLabel == "" {
				ti.PluralLabel = ti.Label
			}
			infos[pt] = ti
		}
		return ti
	}
	targets := map[string]UniqueTarget{}
	for i := range deps {
		d := &deps[i]
		for _, pt := range d.TargetPostTypes {
			ti := get(pt)
			d.TargetLabels[pt] = ti.Label
			u, ok := targets[pt]
			if !ok {
				u = UniqueTarget{
					Label: ti.Label, PluralLabel: ti.PluralLabel, ExistingCount: ti.ExistingCount,
					TemplateName: ti.TemplateName, RequiredByFields: []string{},
				}
			}
			u.IsRequired = u.IsRequired || d.Required
			if !slices.Contains(u.RequiredByFields, d.FieldName) {
				u.RequiredByFields = append(u.RequiredByFields, d.FieldName)
			}
			targets[pt] = u
		}
	}
	return DependencyReport{PostType: postType, Dependencies: deps, UniqueTargets: targets}
}

// TargetPostTypes returns the sorted target post types of deps.
func TargetPostTypes(deps []Dependency) []string {
	set := map[string]bool{}
	for _, d := range deps {
		for _, pt := range d.TargetPostTypes {
			set[pt] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// CardinalityDefault is the number of target posts a batch of batch posts
// wants to exist for a dependency of cardinality card: many_to_one shares
// a small pool (5), many_to_many a larger one (10), one_to_one needs one
// target per post and one_to_many two per post (targets are not shared).
// When a target's existing count meets this number, no related posts are
// auto-created for it.
func CardinalityDefault(card string, batch int) int {
	batch = max(batch, 1)
	switch card {
	case OneToOne:
		return batch
	case OneToMany:
		return 2 * batch
	case ManyToMany:
		return 10
	}
	return 5
}

// RelatedToCreate is how many related posts to auto-create for a target
// with existing posts under a dependency of cardinality card, for a batch
// of batch posts: CardinalityDefault minus existing, never negative.
func RelatedToCreate(card string, batch, existing int) int {
	return max(0, CardinalityDefault(card, batch)-existing)
}
