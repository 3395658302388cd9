package httpapi

import (
	"github.com/contentgen/contentgen/contentgen"
)

// The JSON records of the information endpoints, with the field names and
// types of the specification.

type postTypeRecord struct {
	Name         string            `json:"name"`
	Label        string            `json:"label"`
	Labels       map[string]string `json:"labels"`
	Description  string            `json:"description"`
	Public       bool              `json:"public"`
	Hierarchical bool              `json:"hierarchical"`
	HasArchive   bool              `json:"has_archive"`
	Supports     map[string]bool   `json:"supports"`
	Taxonomies   []string          `json:"taxonomies"`
	MenuIcon     *string           `json:"menu_icon"`
	Count        map[string]int    `json:"count"`
}

func newPostTypeRecord(pt *contentgen.PostType) postTypeRecord {
	rec := postTypeRecord{
		Name:         pt.Name,
		Label:        pt.Label,
		Labels:       labels(pt.Labels, pt.Label),
		Description:  pt.Description,
		Public:       pt.Public,
		Hierarchical: pt.Hierarchical,
		HasArchive:   pt.HasArchive,
		Supports:     supportsMap(pt.Supports),
		Taxonomies:   nonNil(pt.Taxonomies),
		Count:        map[string]int{},
	}
	if pt.MenuIcon != "" {
		icon := pt.MenuIcon
		rec.MenuIcon = &icon
	}
	for k, v := range pt.Count {
		rec.Count[k] = v
	}
	return rec
}

type taxonomyRecord struct {
	Name         string            `json:"name"`
	Label        string            `json:"label"`
	Labels       map[string]string `json:"labels"`
	Hierarchical bool              `json:"hierarchical"`
	Public       bool              `json:"public"`
	PostTypes    []string          `json:"post_types"`
	Count        int               `json:"count"`
}

func newTaxonomyRecord(t *contentgen.Taxonomy) taxonomyRecord {
	return taxonomyRecord{
		Name:         t.Name,
		Label:        t.Label,
		Labels:       labels(t.Labels, t.Label),
		Hierarchical: t.Hierarchical,
		Public:       t.Public,
		PostTypes:    nonNil(t.PostTypes),
		Count:        t.Count,
	}
}

type termRecord struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Slug        string `json:"slug"`
	Taxonomy    string `json:"taxonomy"`
	Description string `json:"description"`
	Parent      int64  `json:"parent"`
	Count       int    `json:"count"`
	IsGenerated bool   `json:"is_generated"`
}

func newTermRecord(t *contentgen.Term) termRecord {
	return termRecord{
		ID: t.ID, Name: t.Name, Slug: t.Slug, Taxonomy: t.Taxonomy, Description: t.Description,
		Parent: t.ParentID, Count: t.Count, IsGenerated: t.Meta.Generated(),
	}
}

type userRecord struct {
	ID          int64    `json:"id"`
	Login       string   `json:"login"`
	DisplayName string   `json:"display_name"`
	Email       string   `json:"email"`
	FirstName   string   `json:"first_name"`
	LastName    string   `json:"last_name"`
	URL         string   `json:"url"`
	Roles       []string `json:"roles"`
	Registered  string   `json:"registered"`
	IsGenerated bool     `json:"is_generated"`
}

func newUserRecord(u *contentgen.User) userRecord {
	return userRecord{
		ID: u.ID, Login: u.Login, DisplayName: u.DisplayName, Email: u.Email,
		FirstName: u.FirstName, LastName: u.LastName, URL: u.URL, Roles: nonNil(u.Roles),
		Registered: timestamp(u.Registered), IsGenerated: u.Meta.Generated(),
	}
}

type roleRecord struct {
	Slug string `json:"slug"`
	Name string `json:"name"`
}

// labels returns the labels with singular_name and name filled.
func labels(in map[string]string, label string) map[string]string {
	out := make(map[string]string, len(in)+2)
	for k, v := range in {
		out[k] = v
	}
	if out["name"] == "" {
		out["name"] = label
	}
	if out["singular_name"] == "" {
		out["singular_name"] = label
	}
	return out
}

func supportsMap(features []string) map[string]bool {
	m := make(map[string]bool, len(features))
	for _, f := range features {
		m[f] = true
	}
	return m
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
