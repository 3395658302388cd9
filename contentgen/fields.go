package contentgen

import (
	"context"
	"errors"

	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/fields"
)

// Custom fields: definitions from the field adapters, semantic detection
// (offline, then AI for what offline detection cannot place) and the
// information endpoints about fields, adapters and dependencies.

// Adapters returns the field adapter registry, nil when none is
// configured.
func (t *TemplatesService) Adapters() *fields.Registry { return t.g.cfg.FieldAdapters }

// postTypeFields returns what the winning adapter defines for postType;
// the zero value when no registry is configured.
func (g *Generator) postTypeFields(ctx context.Context, postType string) (fields.PostTypeFields, error) {
	if g.cfg.FieldAdapters == nil {
		return fields.PostTypeFields{}, nil
	}
	pf, err := g.cfg.FieldAdapters.Fields(ctx, postType)
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
	case fields.TypeText, fields.TypeTextarea, fields.TypeNumber, fields.TypeRange:
		return true
	}
	return false
}

// fieldKey identifies a field towards detectors and caches: its key, else
// its name.
func fieldKey(f *fields.Field) string {
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
func (g *Generator) detectFields(ctx context.Context, postType string, defs []fields.Field, warn func(format string, args ...any)) []fields.Field {
	out := g.detected.Detect(postType, defs)
	var ask []providers.Field
	byKey := map[string]string{}
	var collect func(fs []fields.Field)
	collect = func(fs []fields.Field) {
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
	found, err := det.Detect(ctx, postType, ask, fields.SemanticTypes())
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
		if ok && fields.IsSemanticType(d.Type) && fields.SemanticFits(d.Type, ft) {
			types[d.Key] = d.Type
		}
	}
	if len(types) == 0 {
		return out
	}
	var apply func(fs []fields.Field)
	apply = func(fs []fields.Field) {
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
// information methods; detector problems are logged only.
func (g *Generator) detectedFieldsOf(ctx context.Context, postType string) (fields.PostTypeFields, []fields.Field, error) {
	pf, err := g.postTypeFields(ctx, postType)
	if err != nil {
		return pf, nil, err
	}
	defs := g.detectFields(ctx, postType, pf.Fields(), func(string, ...any) {})
	return pf, defs, nil
}

// Fields returns what the field adapters define for a registered post type
// (groups, relations, the adapter whose definitions apply) and its custom
// fields with their detected semantic type set (offline detection, then
// the AI detector when one is enabled).
func (t *TemplatesService) Fields(ctx context.Context, postType string) (fields.PostTypeFields, []fields.Field, error) {
	pt, err := t.g.postType(ctx, postType)
	if err != nil {
		return fields.PostTypeFields{}, nil, err
	}
	pf, defs, err := t.g.detectedFieldsOf(ctx, pt.Name)
	if err != nil {
		return pf, nil, err
	}
	if defs == nil {
		defs = []fields.Field{}
	}
	return pf, defs, nil
}

// ClearDetections forgets cached field detections, offline and AI, of one
// post type or, with postType "", of all, and returns how many it removed.
func (t *TemplatesService) ClearDetections(ctx context.Context, postType string) (int, error) {
	g := t.g
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
		return 0, internal(err, "clearing the detection cache")
	}
	return n, nil
}

// Dependencies lists the relational fields and relations of a registered
// post type and, per target post type, its labels, the live number of
// published posts and its default template.
func (t *TemplatesService) Dependencies(ctx context.Context, postType string) (fields.DependencyReport, error) {
	g := t.g
	pt, err := g.postType(ctx, postType)
	if err != nil {
		return fields.DependencyReport{}, err
	}
	pf, defs, err := g.detectedFieldsOf(ctx, pt.Name)
	if err != nil {
		return fields.DependencyReport{}, err
	}
	info, err := g.targetInfo(ctx)
	if err != nil {
		return fields.DependencyReport{}, err
	}
	return fields.AnalyzeDependencies(pt.Name, defs, pf.Relations, info), nil
}

// targetInfo returns what AnalyzeDependencies asks about target post
// types: labels and published counts from the host, default templates
// from the store.
func (g *Generator) targetInfo(ctx context.Context) (func(string) fields.TargetInfo, error) {
	types, err := g.host.PostTypes(ctx)
	if err != nil {
		return nil, failed(err, "listing post types")
	}
	defaults := map[string]string{}
	list, err := g.templates.List(ctx, templates.Filter{DefaultOnly: true})
	if err != nil {
		return nil, err
	}
	for _, t := range list {
		defaults[t.PostType] = t.Name
	}
	return func(name string) fields.TargetInfo {
		ti := fields.TargetInfo{TemplateName: defaults[name]}
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

// storeErr translates an error of the template library, at the boundary
// of the templates service: an *Error it carries (the site check's)
// comes back unchanged, other invalid input becomes invalid_parameter
// naming the parameter, an unknown template not_found, anything else an
// internal failure.
func storeErr(err error) error {
	var pe *templates.ParamError
	var e *Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &e):
		return e
	case errors.As(err, &pe):
		return &Error{Code: CodeInvalidParameter, Param: pe.Param, Message: pe.Message, Err: err}
	case errors.Is(err, templates.ErrInvalid):
		return &Error{Code: CodeInvalidParameter, Message: "the template is not valid", Err: err}
	case errors.Is(err, templates.ErrNotFound):
		return &Error{Code: CodeNotFound, Param: "id", Message: "template not found", Err: err}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	return &Error{Code: CodeInternal, Message: "the template store failed", Err: err}
}
