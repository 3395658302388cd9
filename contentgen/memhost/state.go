package memhost

import (
	"maps"
	"slices"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
)

// mediaRow is a stored media record with the bytes kept by StoreMedia.
type mediaRow struct {
	contentgen.Media
	// path is the key of the stored file ("uploads/2024/05/a.jpg"), empty
	// for records made by CreateMedia.
	path string
	data []byte
	// sizes holds the stored renditions by size name.
	sizes map[string]storedFile
}

// storedFile is a rendition kept by StoreMedia.
type storedFile struct {
	path string
	data []byte
}

// fileRef names a stored file: a media item and, for a rendition, its size.
type fileRef struct {
	id   int64
	size string
}

// seqs are the last ids handed out. Posts and media share one sequence,
// as attachments are posts on most platforms.
type seqs struct {
	post, term, user, comment int64
}

// state is everything a Host stores. It is not safe for concurrent use;
// Host serialises access to it.
type state struct {
	site       contentgen.Site
	sitePath   string // path part of site.URL, without trailing slash
	roles      []contentgen.Role
	postTypes  []*contentgen.PostType // in registration order
	taxonomies []*contentgen.Taxonomy

	seq       seqs
	seqLevels []seqs

	posts    *table[contentgen.Post]
	terms    *table[contentgen.Term]
	users    *table[contentgen.User]
	comments *table[contentgen.Comment]
	media    *table[mediaRow]

	// Derived indexes, kept by the tables' hooks.
	typeCounts   map[string]map[string]int // post type → status → posts
	termLive     map[int64]int             // term → posts not in the trash
	taxCounts    map[string]int            // taxonomy → terms
	termSlugs    map[string]int64          // taxonomy + "\x00" + slug → term
	logins       map[string]int64          // login → user
	emails       map[string]int64          // lower-case e-mail → user
	postComments map[int64][]int64         // post → its comments, in no order
	files        map[string]fileRef        // stored file path → media and size
}

func newState() *state {
	s := &state{
		typeCounts:   map[string]map[string]int{},
		termLive:     map[int64]int{},
		taxCounts:    map[string]int{},
		termSlugs:    map[string]int64{},
		logins:       map[string]int64{},
		emails:       map[string]int64{},
		postComments: map[int64][]int64{},
		files:        map[string]fileRef{},
	}
	s.posts = newTable(clonePost, s.postAdded, s.postRemoved)
	s.terms = newTable(cloneTerm, s.termAdded, s.termRemoved)
	s.users = newTable(cloneUser, s.userAdded, s.userRemoved)
	s.comments = newTable(cloneComment, s.commentAdded, s.commentRemoved)
	s.media = newTable(cloneMediaRow, s.mediaAdded, s.mediaRemoved)
	return s
}

// Index hooks.

func (s *state) postAdded(_ int64, p *contentgen.Post) {
	byStatus := s.typeCounts[p.Type]
	if byStatus == nil {
		byStatus = map[string]int{}
		s.typeCounts[p.Type] = byStatus
	}
	byStatus[p.Status]++
	if p.Status != contentgen.StatusTrash {
		for _, ids := range p.Terms {
			for _, id := range ids {
				s.termLive[id]++
			}
		}
	}
}

func (s *state) postRemoved(_ int64, p *contentgen.Post) {
	s.typeCounts[p.Type][p.Status]--
	if p.Status != contentgen.StatusTrash {
		for _, ids := range p.Terms {
			for _, id := range ids {
				if s.termLive[id]--; s.termLive[id] <= 0 {
					delete(s.termLive, id)
				}
			}
		}
	}
}

func slugKey(taxonomy, slug string) string { return taxonomy + "\x00" + slug }

func (s *state) termAdded(id int64, t *contentgen.Term) {
	s.taxCounts[t.Taxonomy]++
	s.termSlugs[slugKey(t.Taxonomy, t.Slug)] = id
}

func (s *state) termRemoved(_ int64, t *contentgen.Term) {
	s.taxCounts[t.Taxonomy]--
	delete(s.termSlugs, slugKey(t.Taxonomy, t.Slug))
}

func (s *state) userAdded(id int64, u *contentgen.User) {
	s.logins[u.Login] = id
	if u.Email != "" {
		s.emails[strings.ToLower(u.Email)] = id
	}
}

func (s *state) userRemoved(_ int64, u *contentgen.User) {
	delete(s.logins, u.Login)
	if u.Email != "" {
		delete(s.emails, strings.ToLower(u.Email))
	}
}

func (s *state) commentAdded(id int64, c *contentgen.Comment) {
	ids := s.postComments[c.PostID]
	if ids == nil {
		// Room for the few comments most posts have.
		ids = make([]int64, 0, 4)
	}
	s.postComments[c.PostID] = append(ids, id)
}

func (s *state) commentRemoved(id int64, c *contentgen.Comment) {
	ids := s.postComments[c.PostID]
	i := slices.Index(ids, id)
	if i < 0 {
		return
	}
	// The last id takes the place of the removed one.
	last := len(ids) - 1
	ids[i] = ids[last]
	if last == 0 {
		delete(s.postComments, c.PostID)
		return
	}
	s.postComments[c.PostID] = ids[:last]
}

func (s *state) mediaAdded(id int64, m *mediaRow) {
	if m.path != "" {
		s.files[m.path] = fileRef{id: id}
	}
	for name, f := range m.sizes {
		s.files[f.path] = fileRef{id: id, size: name}
	}
}

func (s *state) mediaRemoved(_ int64, m *mediaRow) {
	if m.path != "" {
		delete(s.files, m.path)
	}
	for _, f := range m.sizes {
		delete(s.files, f.path)
	}
}

// Transactions.

// push opens an undo level on every table.
func (s *state) push() {
	s.seqLevels = append(s.seqLevels, s.seq)
	s.posts.push()
	s.terms.push()
	s.users.push()
	s.comments.push()
	s.media.push()
}

// pop closes the innermost undo level, undoing its changes when undo is set.
func (s *state) pop(undo bool) {
	n := len(s.seqLevels)
	if undo {
		s.seq = s.seqLevels[n-1]
	}
	s.seqLevels = s.seqLevels[:n-1]
	s.posts.pop(undo)
	s.terms.pop(undo)
	s.users.pop(undo)
	s.comments.pop(undo)
	s.media.pop(undo)
}

// tidy restores the id order of every table after writes.
func (s *state) tidy() {
	s.posts.tidy()
	s.terms.tidy()
	s.users.tidy()
	s.comments.tidy()
	s.media.tidy()
}

// Look-ups of registrations.

func (s *state) postType(name string) *contentgen.PostType {
	for _, pt := range s.postTypes {
		if pt.Name == name {
			return pt
		}
	}
	return nil
}

func (s *state) taxonomy(name string) *contentgen.Taxonomy {
	for _, tx := range s.taxonomies {
		if tx.Name == name {
			return tx
		}
	}
	return nil
}

func (s *state) hasRole(slug string) bool {
	for _, r := range s.roles {
		if r.Slug == slug {
			return true
		}
	}
	return false
}

// Copies. Stored rows always have non-nil Meta (and Terms for posts), so
// the copies handed to callers do too.

// markerMeta is the meta of most rows of a generated site: the marker of
// generated content and nothing else. Those rows share this one map, which
// is never changed: a row changing its meta takes its own copy first
// (ownMeta).
var markerMeta = contentgen.Meta{contentgen.MarkerKey: contentgen.MarkerValue}

// storedMeta is the meta a new row keeps: a copy of m, or markerMeta when
// m is the marker alone.
func storedMeta(m contentgen.Meta) contentgen.Meta {
	if len(m) == 1 && m[contentgen.MarkerKey] == contentgen.MarkerValue {
		return markerMeta
	}
	return cloneMeta(m)
}

// ownMeta is m for a row about to change its meta in place: a copy when m
// may be markerMeta, m itself otherwise.
func ownMeta(m contentgen.Meta) contentgen.Meta {
	if len(m) == 1 && m[contentgen.MarkerKey] == contentgen.MarkerValue {
		return cloneMeta(m)
	}
	return m
}

func cloneMeta(m contentgen.Meta) contentgen.Meta {
	if m == nil {
		return contentgen.Meta{}
	}
	// maps.Clone copies the map's memory as it is, without hashing every
	// key again.
	return maps.Clone(m)
}

func cloneTerms(t map[string][]int64) map[string][]int64 {
	out := make(map[string][]int64, len(t))
	for k, v := range t {
		out[k] = slices.Clone(v)
	}
	return out
}

func clonePost(p *contentgen.Post) *contentgen.Post {
	c := *p
	c.Terms = cloneTerms(p.Terms)
	c.Meta = cloneMeta(p.Meta)
	return &c
}

func cloneTerm(t *contentgen.Term) *contentgen.Term {
	c := *t
	c.Meta = cloneMeta(t.Meta)
	return &c
}

func cloneUser(u *contentgen.User) *contentgen.User {
	c := *u
	c.Roles = slices.Clone(u.Roles)
	c.Meta = cloneMeta(u.Meta)
	return &c
}

func cloneComment(c *contentgen.Comment) *contentgen.Comment {
	o := *c
	o.Meta = cloneMeta(c.Meta)
	return &o
}

// cloneMediaRow copies the record; the bytes are shared, as they are never
// changed once stored.
func cloneMediaRow(m *mediaRow) *mediaRow {
	c := *m
	c.Meta = cloneMeta(m.Meta)
	return &c
}

func clonePostType(pt *contentgen.PostType) contentgen.PostType {
	c := *pt
	c.Labels = maps.Clone(pt.Labels)
	c.Supports = slices.Clone(pt.Supports)
	c.Taxonomies = slices.Clone(pt.Taxonomies)
	c.Count = maps.Clone(pt.Count)
	return c
}

func cloneTaxonomy(tx *contentgen.Taxonomy) contentgen.Taxonomy {
	c := *tx
	c.Labels = maps.Clone(tx.Labels)
	c.PostTypes = slices.Clone(tx.PostTypes)
	return c
}

func cloneRole(r contentgen.Role) contentgen.Role {
	r.Capabilities = slices.Clone(r.Capabilities)
	return r
}

// metaMatch implements the MetaKey/MetaValue filter: no key matches
// everything; a key alone keeps objects that have it; a key and a value
// keep objects whose value for the key is exactly that.
func metaMatch(m contentgen.Meta, key, value string) bool {
	if key == "" {
		return true
	}
	v, ok := m[key]
	return ok && (value == "" || v == value)
}

// contains reports whether s contains the lower-case needle, ignoring case.
func contains(s, lowerNeedle string) bool {
	return lowerNeedle == "" || strings.Contains(strings.ToLower(s), lowerNeedle)
}
