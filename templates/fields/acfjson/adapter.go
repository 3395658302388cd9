package acfjson

import (
	"context"
	"fmt"
	"io/fs"
	"slices"

	"github.com/contentgen/contentgen/templates/fields"
)

// Options configure an Adapter. Nil means the defaults.
type Options struct {
	// Name and Slug describe the adapter; defaults "Advanced Custom Fields
	// (local JSON)" and "acf".
	Name, Slug string
	// Version is reported in AdapterInfo; default "local-json".
	Version string
	// Primary claims precedence over other adapters defining the same
	// post types.
	Primary bool
	// Inactive reports the adapter as inactive: listed, never consulted.
	Inactive bool
	// SkipInvalid leaves out files that do not parse instead of failing.
	SkipInvalid bool
}

// Adapter is a fields.Adapter over the *.json files at the root of
// an fs.FS (use fs.Sub for a directory, os.DirFS for a site's acf-json).
// Files are read on every call, so edits show up at once. It is safe for
// concurrent use as long as the fs.FS is.
type Adapter struct {
	fsys fs.FS
	info fields.AdapterInfo
	skip bool
}

var _ fields.Adapter = (*Adapter)(nil)

// New returns an adapter reading fsys.
func New(fsys fs.FS, opts *Options) *Adapter {
	var o Options
	if opts != nil {
		o = *opts
	}
	a := &Adapter{fsys: fsys, skip: o.SkipInvalid, info: fields.AdapterInfo{
		Name: o.Name, Slug: o.Slug, Version: o.Version, Active: !o.Inactive, Primary: o.Primary,
	}}
	if a.info.Name == "" {
		a.info.Name = "Advanced Custom Fields (local JSON)"
	}
	if a.info.Slug == "" {
		a.info.Slug = "acf"
	}
	if a.info.Version == "" {
		a.info.Version = "local-json"
	}
	return a
}

// Info implements fields.Adapter.
func (a *Adapter) Info() fields.AdapterInfo { return a.info }

// Groups reads every field group of the files, in file name order.
func (a *Adapter) Groups(ctx context.Context) ([]fields.Group, error) {
	names, err := fs.Glob(a.fsys, "*.json")
	if err != nil {
		return nil, fmt.Errorf("acfjson: listing files: %w", err)
	}
	slices.Sort(names)
	var out []fields.Group
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		data, err := fs.ReadFile(a.fsys, name)
		if err != nil {
			return nil, fmt.Errorf("acfjson: reading %s: %w", name, err)
		}
		groups, err := ParseGroups(data)
		if err != nil {
			if a.skip {
				continue
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, groups...)
	}
	return out, nil
}

// PostTypes implements fields.Adapter.
func (a *Adapter) PostTypes(ctx context.Context) ([]string, error) {
	groups, err := a.Groups(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, g := range groups {
		for _, pt := range g.PostTypes {
			if !slices.Contains(out, pt) {
				out = append(out, pt)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// FieldGroups implements fields.Adapter.
func (a *Adapter) FieldGroups(ctx context.Context, postType string) ([]fields.Group, error) {
	groups, err := a.Groups(ctx)
	if err != nil {
		return nil, err
	}
	var out []fields.Group
	for _, g := range groups {
		if g.AppliesTo(postType) {
			out = append(out, g)
		}
	}
	return out, nil
}

// Relations implements fields.Adapter. ACF keeps relations in
// relationship and post_object fields, not as separate definitions, so
// there are none.
func (a *Adapter) Relations(ctx context.Context, postType string) ([]fields.Relation, error) {
	return nil, ctx.Err()
}
