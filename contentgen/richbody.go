package contentgen

import (
	"context"
	"strconv"
	"strings"
	"unicode"

	"github.com/contentgen/contentgen/locales"
)

// richness is which elements of a rich body a post gets, after variation.
type richness struct {
	subHeadings, ordered, quotes, emphasis, links, images, technical bool
}

// richAll is the richness of a post without variation: every element,
// tables and code where the topic suits them.
var richAll = richness{subHeadings: true, ordered: true, quotes: true, emphasis: true, links: true, images: true, technical: true}

// exampleLinks are the outside pages bodies link to: reserved example
// domains only (RFC 2606), so that no generated link reaches a real site.
var exampleLinks = []string{
	"https://www.example.com/",
	"https://www.example.com/guides/getting-started",
	"https://example.org/resources",
	"https://docs.example.org/reference/overview",
	"https://example.net/articles/2024/notes",
	"https://blog.example.net/archive",
	"https://news.example.com/latest",
	"https://learn.example.org/courses/basics",
}

// bodyMaterial is what the bodies of a posts run link to and show, read
// once per run: the addresses of published posts (of the site, and of the
// run as its batches are written), the images of the media library and
// the terms whose topic is technical.
type bodyMaterial struct {
	siteURL   string
	posts     []string
	images    []locales.InlineImage
	technical map[int64]bool
	// links and shown are reused for the options of each post, scratch
	// for building addresses.
	links   []locales.Link
	shown   []locales.InlineImage
	scratch []byte
}

// maxLinkedPosts caps the site's posts a run reads to link to.
const maxLinkedPosts = 50

// prepareBodies reads what the bodies of a run need, one host query for
// each kind and only when some post asks for it: the site address and its
// published posts for links, the images of the media library, and the
// names of the terms the posts may get. It returns nil when no post gets
// links, images or technical elements.
func (g *Generator) prepareBodies(ctx context.Context, p *postsPlan, shapes []postShape, terms *termPlan) (*bodyMaterial, error) {
	var links, images, technical bool
	for i := range shapes {
		links = links || shapes[i].rich.links
		images = images || shapes[i].rich.images
		technical = technical || shapes[i].rich.technical && shapes[i].terms
	}
	if !links && !images && !technical {
		return nil, nil
	}
	m := &bodyMaterial{}
	if links {
		site, err := g.host.Site(ctx)
		if err != nil {
			return nil, failed(err, "reading the site")
		}
		m.siteURL = strings.TrimRight(site.URL, "/")
		if m.siteURL != "" {
			posts, err := g.host.Posts(ctx, PostQuery{Statuses: []string{StatusPublish}, Limit: maxLinkedPosts})
			if err != nil {
				return nil, failed(err, "listing posts")
			}
			for i := range posts {
				m.addPost(posts[i].Type, posts[i].ID)
			}
		}
	}
	if images {
		lib, err := g.host.Media(ctx, MediaQuery{MIMEPrefixes: []string{"image/"}, Limit: lookupLimit})
		if err != nil {
			return nil, failed(err, "listing media")
		}
		for _, x := range lib {
			if strings.HasPrefix(x.URL, "http://") || strings.HasPrefix(x.URL, "https://") || strings.HasPrefix(x.URL, "/") {
				m.images = append(m.images, locales.InlineImage{ID: x.ID, URL: x.URL, Alt: x.Title})
			}
		}
	}
	if technical && terms != nil {
		var ids []int64
		for _, t := range terms.taxes {
			ids = append(ids, t.pool...)
		}
		if len(ids) > 0 {
			found, err := g.host.Terms(ctx, TermQuery{IDs: OnlyIDs(ids...), Bare: true})
			if err != nil {
				return nil, failed(err, "reading terms")
			}
			for _, t := range found {
				if technicalTerm(t.Name) {
					if m.technical == nil {
						m.technical = map[int64]bool{}
					}
					m.technical[t.ID] = true
				}
			}
		}
	}
	return m, nil
}

// addPost adds the address of a published post of type typ to the posts
// bodies link to: the site's address with the query WordPress answers for
// any post (?p=, ?page_id= for pages, ?post_type=&p= for other types).
func (m *bodyMaterial) addPost(typ string, id int64) {
	if m == nil || m.siteURL == "" {
		return
	}
	b := append(m.scratch[:0], m.siteURL...)
	switch typ {
	case "post":
		b = append(b, "/?p="...)
	case "page":
		b = append(b, "/?page_id="...)
	default:
		b = append(b, "/?post_type="...)
		b = append(b, typ...)
		b = append(b, "&p="...)
	}
	b = strconv.AppendInt(b, id, 10)
	m.posts = append(m.posts, string(b))
	m.scratch = b
}

// technicalStems start the words of term names whose topic is technical:
// technology, science, programming, computing, data and engineering, in
// the languages of the locales.
var technicalStems = []string{
	"tech", "tekn", "scien", "wissenschaft", "wetenschap", "cienc", "ciênc", "nauk", "наук", "технол", "bilim",
	"program", "software", "comput", "informati", "data", "daten", "code", "coding", "engineer", "ingenieur",
	"math", "web", "internet", "digital", "робот", "robot",
}

// technicalWords are the technical topics of languages written without
// spaces, matched anywhere in a term name.
var technicalWords = []string{"技術", "技术", "科学", "科技", "编程", "教程", "プログラミング", "기술", "과학", "프로그래밍"}

// technicalTerm reports whether a term name names a technical topic, one
// that tables and code blocks suit: a word of the name starts with one of
// technicalStems (case-insensitively), or the name holds one of
// technicalWords.
func technicalTerm(name string) bool {
	lower := strings.ToLower(name)
	for _, w := range technicalWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	for _, word := range strings.FieldsFunc(lower, func(r rune) bool { return !unicode.IsLetter(r) }) {
		for _, s := range technicalStems {
			if strings.HasPrefix(word, s) {
				return true
			}
		}
	}
	return false
}

// bodyOptions are the options of the body of a post of shape sh with the
// terms the post got and featured, its featured image.
func (rn *run) bodyOptions(sh *postShape, m *bodyMaterial, terms map[string][]int64, featured int64) locales.HTMLOptions {
	rich := &sh.rich
	o := locales.HTMLOptions{
		Paragraphs:   sh.paragraphs,
		Headings:     sh.paragraphs >= 3,
		Lists:        sh.paragraphs >= 3 && rn.percent(50),
		SubHeadings:  rich.subHeadings,
		OrderedLists: rich.ordered,
		Quotes:       rich.quotes,
		Emphasis:     rich.emphasis,
	}
	// A post about a topic gets tables and code when the topic is
	// technical; other posts when one of their terms is named like one.
	topic := rn.w.Topic()
	if rich.technical && !topic.IsZero() {
		o.Technical = topic.Technical()
	}
	if m == nil {
		return o
	}
	if rich.links {
		m.links = m.links[:0]
		if n := len(m.posts); n > 0 {
			// Two different posts when there are two.
			i := rn.r.IntN(n)
			m.links = append(m.links, locales.Link{URL: m.posts[i]})
			if n > 1 {
				m.links = append(m.links, locales.Link{URL: m.posts[(i+1+rn.r.IntN(n-1))%n]})
			}
		}
		m.links = append(m.links, locales.Link{URL: exampleLinks[rn.r.IntN(len(exampleLinks))]})
		o.Links = m.links
	}
	if rich.images && len(m.images) > 0 {
		m.shown = m.shown[:0]
		first := rn.r.IntN(len(m.images))
		for k := 0; k < len(m.images) && len(m.shown) < 2; k++ {
			img := m.images[(first+k)%len(m.images)]
			if img.ID != featured || len(m.images) == 1 {
				m.shown = append(m.shown, img)
			}
		}
		o.Images = m.shown
	}
	if rich.technical && topic.IsZero() && len(m.technical) > 0 {
	terms:
		for _, ids := range terms {
			for _, id := range ids {
				if m.technical[id] {
					o.Technical = true
					break terms
				}
			}
		}
	}
	return o
}
