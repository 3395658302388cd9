package contentgen

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/templates"
)

// Custom fields: definitions from the field adapters, semantic detection
// (offline, then AI for what offline detection cannot place) and the
// information endpoints about fields, adapters and dependencies.

// FieldAdapters returns the field adapter registry, nil when none is
// configured.
func (g *Generator) FieldAdapters() *templates.Registry { return g.adapters }

// postTypeFields returns what the winning adapter defines for postType;
// the zero value when no registry is configured.
func (g *Generator) postTypeFields(ctx context.Context, postType string) (templates.PostTypeFields, error) {
	if g.adapters == nil {
		return templates.PostTypeFields{}, nil
	}
	pf, err := g.adapters.Fields(ctx, postType)
	if err != nil {
		if ctx.Err() != nil {
			return pf, ctx.Err()
		}
		return pf, &Error{Code: CodeInternal, Message: "the custom field definitions of " + postType + " could not be read", Err: err}
	}
	return pf, nil
}

// aiAskable reports whether a field of type t is worth asking an AI
// detector about: the types whose values follow a semantic type and whose
// meaning the type itself does not give away.
func aiAskable(t string) bool {
	switch t {
	case templates.TypeText, templates.TypeTextarea, templates.TypeNumber, templates.TypeRange:
		return true
	}
	return false
}

// fieldKey identifies a field towards detectors and caches: its key, else
// its name.
func fieldKey(f *templates.Field) string {
	if f.Key != "" {
		return f.Key
	}
	return f.Name
}

// detectFields returns a copy of fields (sub-fields included) with
// DetectedType set: offline detection first, cached per post type, then
// the AI detector, when one is enabled, for the fields offline detection
// could not place. An unusable or failing detector is reported to warn
// and never fails the caller; its answers are used only when they name a
// known semantic type that fits the field's type.
func (g *Generator) detectFields(ctx context.Context, postType string, fields []templates.Field, warn func(format string, args ...any)) []templates.Field {
	out := g.detected.Detect(postType, fields)
	var ask []providers.Field
	byKey := map[string]string{}
	var collect func(fs []templates.Field)
	collect = func(fs []templates.Field) {
		for i := range fs {
			f := &fs[i]
			if f.DetectedType == "" && aiAskable(f.Type) {
				k := fieldKey(f)
				if _, dup := byKey[k]; !dup {
					byKey[k] = f.Type
					pf := providers.Field{Key: k, Name: f.Name, Label: f.Label, Type: f.Type, Instructions: f.Instructions}
					for _, c := range f.Choices {
						pf.Choices = append(pf.Choices, c.Value)
					}
					ask = append(ask, pf)
				}
			}
			collect(f.SubFields)
		}
	}
	collect(out)
	if len(ask) == 0 {
		return out
	}
	det, err := g.fieldDetector(ctx)
	if err != nil {
		g.log.Warn("contentgen: AI field detection unavailable", "post_type", postType, "err", err)
		warn("AI field detection is unavailable; offline detection was used for the custom fields of %s", postType)
		return out
	}
	if det == nil {
		return out
	}
	found, err := det.Detect(ctx, postType, ask, templates.SemanticTypes())
	if err != nil {
		if ctx.Err() != nil {
			return out
		}
		g.log.Warn("contentgen: AI field detection failed", "post_type", postType, "detector", det.Name(), "err", err)
		warn("AI field detection failed; offline detection was used for the custom fields of %s", postType)
	}
	types := map[string]string{}
	for _, d := range found {
		ft, ok := byKey[d.Key]
		if ok && templates.IsSemanticType(d.Type) && templates.SemanticFits(d.Type, ft) {
			types[d.Key] = d.Type
		}
	}
	if len(types) == 0 {
		return out
	}
	var apply func(fs []templates.Field)
	apply = func(fs []templates.Field) {
		for i := range fs {
			f := &fs[i]
			if t, ok := types[fieldKey(f)]; ok && f.DetectedType == "" {
				f.DetectedType = t
			}
			apply(f.SubFields)
		}
	}
	apply(out)
	return out
}

// detectedFieldsOf reads and detects the fields of postType for the
// information endpoints; detector problems are logged only.
func (g *Generator) detectedFieldsOf(ctx context.Context, postType string) (templates.PostTypeFields, []templates.Field, error) {
	pf, err := g.postTypeFields(ctx, postType)
	if err != nil {
		return pf, nil, err
	}
	fields := g.detectFields(ctx, postType, pf.Fields(), func(string, ...any) {})
	return pf, fields, nil
}

// CustomFieldsInfo is what GET /fields/{post_type} reports.
type CustomFieldsInfo struct {
	Success  bool   `json:"success"`
	PostType string `json:"post_type"`
	// Fields are the post type's custom fields with detected_type set.
	Fields []templates.Field `json:"fields"`
	Count  int               `json:"count"`
}

// CustomFields lists the custom fields the field adapters define for a
// registered post type, each with its detected semantic type.
func (g *Generator) CustomFields(ctx context.Context, postType string) (*CustomFieldsInfo, error) {
	pt, err := g.postType(ctx, postType)
	if err != nil {
		return nil, err
	}
	_, fields, err := g.detectedFieldsOf(ctx, pt.Name)
	if err != nil {
		return nil, err
	}
	if fields == nil {
		fields = []templates.Field{}
	}
	return &CustomFieldsInfo{Success: true, PostType: pt.Name, Fields: fields, Count: len(fields)}, nil
}

// ClearDetections forgets cached field detections, offline and AI, of one
// post type or, with postType "", of all, and returns how many it removed.
func (g *Generator) ClearDetections(ctx context.Context, postType string) (int, error) {
	var n int
	var err error
	if postType == "" {
		n, err = g.aiCache.ClearAll(ctx)
		n += g.detected.ClearAll()
	} else {
		n, err = g.aiCache.ClearPostType(ctx, postType)
		n += g.detected.Clear(postType)
	}
	if err != nil {
		return 0, failed(err, "clearing the detection cache")
	}
	return n, nil
}

// FieldPluginsInfo is what GET /field-plugins reports.
type FieldPluginsInfo struct {
	Success  bool                    `json:"success"`
	Adapters []templates.AdapterInfo `json:"adapters"`
	// Primary is the name of the primary adapter, nil when no adapter is
	// active.
	Primary *string `json:"primary"`
}

// FieldPlugins lists the configured field adapters and names the primary
// one, whose definitions win when several adapters define a post type.
func (g *Generator) FieldPlugins(ctx context.Context) (*FieldPluginsInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := &FieldPluginsInfo{Success: true, Adapters: []templates.AdapterInfo{}}
	if g.adapters == nil {
		return out, nil
	}
	out.Adapters = append(out.Adapters, g.adapters.Adapters()...)
	if p, ok := g.adapters.Primary(); ok {
		out.Primary = &p.Name
	}
	return out, nil
}

// DetectedPlugin is a field plugin found on the site, active or not.
type DetectedPlugin struct {
	Name    string `json:"name"`
	Slug    string `json:"slug"`
	Version string `json:"version"`
	Active  bool   `json:"active"`
}

// PluginSummary counts detected plugins.
type PluginSummary struct {
	Total    int `json:"total"`
	Active   int `json:"active"`
	Inactive int `json:"inactive"`
}

// DetectedPluginsInfo is what GET /detected-plugins reports.
type DetectedPluginsInfo struct {
	Success bool             `json:"success"`
	Plugins []DetectedPlugin `json:"plugins"`
	Summary PluginSummary    `json:"summary"`
}

// DetectedPlugins lists the field plugins known to the field adapters,
// active or not.
func (g *Generator) DetectedPlugins(ctx context.Context) (*DetectedPluginsInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := &DetectedPluginsInfo{Success: true, Plugins: []DetectedPlugin{}}
	if g.adapters != nil {
		for _, a := range g.adapters.Adapters() {
			out.Plugins = append(out.Plugins, DetectedPlugin{Name: a.Name, Slug: a.Slug, Version: a.Version, Active: a.Active})
			if a.Active {
				out.Summary.Active++
			} else {
				out.Summary.Inactive++
			}
		}
	}
	out.Summary.Total = len(out.Plugins)
	return out, nil
}

// DependencyInfo is what GET /dependencies/{post_type} reports.
type DependencyInfo struct {
	Success bool `json:"success"`
	templates.DependencyReport
}

// Dependencies lists the relational fields and relations of a registered
// post type and, per target post type, its labels, the live number of
// published posts and its default template.
func (g *Generator) Dependencies(ctx context.Context, postType string) (*DependencyInfo, error) {
	pt, err := g.postType(ctx, postType)
	if err != nil {
		return nil, err
	}
	pf, fields, err := g.detectedFieldsOf(ctx, pt.Name)
	if err != nil {
		return nil, err
	}
	info, err := g.targetInfo(ctx)
	if err != nil {
		return nil, err
	}
	rep := templates.AnalyzeDependencies(pt.Name, fields, pf.Relations, info)
	return &DependencyInfo{Success: true, DependencyReport: rep}, nil
}

// targetInfo returns what AnalyzeDependencies asks about target post
// types: labels and published counts from the host, default templates
// from the store.
func (g *Generator) targetInfo(ctx context.Context) (func(string) templates.TargetInfo, error) {
	types, err := g.host.PostTypes(ctx)
	if err != nil {
		return nil, failed(err, "listing post types")
	}
	defaults := map[string]string{}
	list, err := g.tmpl.List(ctx, templates.Filter{DefaultOnly: true})
	if err != nil {
		return nil, storeErr(err)
	}
	for _, t := range list {
		defaults[t.PostType] = t.Name
	}
	return func(name string) templates.TargetInfo {
		ti := templates.TargetInfo{TemplateName: defaults[name]}
		for i := range types {
			pt := &types[i]
			if pt.Name != name {
				continue
			}
			ti.Label = pt.Labels["singular_name"]
			if ti.Label == "" {
				ti.Label = pt.Label
			}
			ti.PluralLabel = pt.Labels["name"]
			if ti.PluralLabel == "" {
				ti.PluralLabel = pt.Label
			}
			ti.ExistingCount = pt.Count[StatusPublish]
		}
		return ti
	}, nil
}

// FieldSchemaInfo is what GET /field-schema/{field_type} reports.
type FieldSchemaInfo struct {
	Success bool `json:"success"`
	templates.FieldSchema
}

// FieldSchema describes the creation methods and options of a field type;
// an unknown type gives an invalid_parameter error naming field_type.
func (g *Generator) FieldSchema(fieldType string) (*FieldSchemaInfo, error) {
	s, ok := templates.SchemaFor(fieldType)
	if !ok {
		return nil, invalid("field_type", "field_type %q is not supported; supported types: %s", fieldType, strings.Join(templates.FieldTypes(), ", "))
	}
	return &FieldSchemaInfo{Success: true, FieldSchema: s}, nil
}

// CustomFieldGroup is the custom fields of one adapter in
// TemplateFieldsInfo.
type CustomFieldGroup struct {
	GroupTitle string                `json:"group_title"`
	Fields     []templates.FieldInfo `json:"fields"`
}

// TemplateFieldsInfo is what GET /templates/fields/{post_type} reports:
// the fields a template of the post type can configure, with their modes
// and default settings.
type TemplateFieldsInfo struct {
	Success    bool                           `json:"success"`
	PostType   string                         `json:"post_type"`
	CoreFields map[string]templates.FieldInfo `json:"core_fields"`
	// CustomFields maps the slug of the adapter whose definitions apply
	// to its fields.
	CustomFields map[string]CustomFieldGroup `json:"custom_fields"`
}

// coreSupport is the post type feature each core field needs, if any.
var coreSupport = map[string]string{
	templates.CorePostTitle:   "title",
	templates.CorePostContent: "editor",
	templates.CorePostExcerpt: "excerpt",
	templates.CorePostAuthor:  "author",
}

// coreFieldsOf returns the core fields the post type supports.
func coreFieldsOf(pt *PostType) []templates.Field {
	var out []templates.Field
	for _, f := range templates.CoreFields() {
		if feat, ok := coreSupport[f.Name]; ok && !pt.SupportsFeature(feat) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// TemplateFields lists the core and custom fields a template of a
// registered post type can configure.
func (g *Generator) TemplateFields(ctx context.Context, postType string) (*TemplateFieldsInfo, error) {
	pt, err := g.postType(ctx, postType)
	if err != nil {
		return nil, err
	}
	pf, fields, err := g.detectedFieldsOf(ctx, pt.Name)
	if err != nil {
		return nil, err
	}
	out := &TemplateFieldsInfo{Success: true, PostType: pt.Name, CoreFields: map[string]templates.FieldInfo{}, CustomFields: map[string]CustomFieldGroup{}}
	for _, f := range coreFieldsOf(&pt) {
		out.CoreFields[f.Name] = templates.DescribeField(&f)
	}
	if len(fields) > 0 {
		titles := make([]string, 0, len(pf.Groups))
		for _, gr := range pf.Groups {
			if gr.Title != "" && !slices.Contains(titles, gr.Title) {
				titles = append(titles, gr.Title)
			}
		}
		grp := CustomFieldGroup{GroupTitle: strings.Join(titles, ", "), Fields: make([]templates.FieldInfo, len(fields))}
		for i := range fields {
			grp.Fields[i] = templates.DescribeField(&fields[i])
		}
		out.CustomFields[pf.Adapter.Slug] = grp
	}
	return out, nil
}

// TemplateTaxonomies returns a registered post type and the registered
// taxonomies it uses, which a template's taxonomy_config can configure.
func (g *Generator) TemplateTaxonomies(ctx context.Context, postType string) (PostType, []Taxonomy, error) {
	pt, err := g.postType(ctx, postType)
	if err != nil {
		return PostType{}, nil, err
	}
	taxes, err := g.host.Taxonomies(ctx)
	if err != nil {
		return PostType{}, nil, failed(err, "listing taxonomies")
	}
	out := []Taxonomy{}
	for _, t := range taxes {
		if slices.Contains(pt.Taxonomies, t.Name) || slices.Contains(t.PostTypes, pt.Name) {
			out = append(out, t)
		}
	}
	return pt, out, nil
}

// storeErr translates an error of the template store: invalid input
// becomes invalid_parameter naming the parameter, an unknown template
// not_found, anything else an internal failure.
func storeErr(err error) error {
	var pe *templates.ParamError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &pe):
		return &Error{Code: CodeInvalidParameter, Param: pe.Param, Message: pe.Message, Err: err}
	case errors.Is(err, templates.ErrInvalid):
		return &Error{Code: CodeInvalidParameter, Message: "the template is not valid", Err: err}
	case errors.Is(err, templates.ErrNotFound):
		return &Error{Code: CodeNotFound, Param: "id", Message: "template not found", Err: err}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Code: CodeInternal, Message: "the template store failed", Err: err}
}
