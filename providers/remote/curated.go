package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"image/jpeg"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/imaging"
)

// Defaults of CuratedOptions.
const (
	DefaultCuratedURL = "https://commons.wikimedia.org/w/api.php"
	DefaultCollection = "Featured_pictures_on_Wikimedia_Commons"
	DefaultCacheTTL   = 30 * time.Minute
	DefaultQuality    = 85
	// maxCacheEntries bounds the search cache of one provider.
	maxCacheEntries = 64
	// searchLimit is the number of results asked for per search.
	searchLimit = 50
)

// thumbSteps are Wikimedia's standard thumbnail widths; other widths are
// throttled or refused by its media servers.
var thumbSteps = [...]int{120, 250, 330, 500, 960, 1280, 1920, 3840}

// CuratedOptions configures Curated. The zero value (or nil) means
// defaults.
type CuratedOptions struct {
	Options
	// Collection is the Commons category searched (default
	// DefaultCollection, the featured pictures). "Quality_images" is a
	// larger alternative.
	Collection string
	// CacheTTL is how long search results are reused (default 30m; a
	// negative value disables the cache).
	CacheTTL time.Duration
	// Quality is the JPEG quality of the cut image (default 85).
	Quality int
	// MaxPixels refuses to decode thumbnails above this many pixels
	// (default imaging.DefaultMaxPixels).
	MaxPixels int
	// Decoder decodes the downloaded thumbnails within its limits. Pass
	// the one the rest of the server uses so that all decoding shares one
	// bound; nil means a Decoder of this provider's own with default
	// limits.
	Decoder *imaging.Decoder
}

// Curated is provider_curated: pictures from Wikimedia Commons' featured
// pictures, a collection chosen by community review, found through the
// MediaWiki API. For a request it searches the collection for one of the
// category's keywords (picked by seed), picks a result by seed among those
// whose standard-width thumbnail covers the requested size, downloads that
// thumbnail and cuts it to exactly Width x Height (centre crop and area
// scaling), re-encoded as JPEG. The title, author and licence come from
// the file's metadata, and Source is its description page, which carries
// the attribution the licences require. Search results are cached per
// provider. It is safe for concurrent use.
type Curated struct {
	c          *client
	collection string
	ttl        time.Duration
	quality    int
	maxPixels  int
	decoder    *imaging.Decoder

	mu    sync.Mutex
	cache map[string]*searchEntry
}

var _ providers.ImageProvider = (*Curated)(nil)

// searchEntry is one cached (or in-flight) search.
type searchEntry struct {
	done    chan struct{}
	files   []commonsFile
	err     error
	expires time.Time
}

// commonsFile is one search result.
type commonsFile struct {
	title, thumbURL, pageURL string
	tw, th                   int
	name, artist, license    string
}

// NewCurated returns the Wikimedia Commons provider. It returns an error
// naming the field when an option is invalid.
func NewCurated(opts *CuratedOptions) (*Curated, error) {
	var o CuratedOptions
	if opts != nil {
		o = *opts
	}
	c, err := newClient(providers.Curated, DefaultCuratedURL, &o.Options)
	if err != nil {
		return nil, err
	}
	if o.Collection == "" {
		o.Collection = DefaultCollection
	}
	if strings.ContainsAny(o.Collection, "\"\n") {
		return nil, fmt.Errorf("remote: CuratedOptions.Collection %q contains a quote or newline", o.Collection)
	}
	if o.CacheTTL == 0 {
		o.CacheTTL = DefaultCacheTTL
	}
	if o.Quality == 0 {
		o.Quality = DefaultQuality
	}
	if o.Quality < 1 || o.Quality > 100 {
		return nil, fmt.Errorf("remote: CuratedOptions.Quality %d not in 1-100", o.Quality)
	}
	if o.MaxPixels <= 0 {
		o.MaxPixels = imaging.DefaultMaxPixels
	}
	if o.Decoder == nil {
		if o.Decoder, err = imaging.NewDecoder(nil); err != nil {
			return nil, err
		}
	}
	return &Curated{c: c, collection: o.Collection, ttl: o.CacheTTL, quality: o.Quality, maxPixels: o.MaxPixels, decoder: o.Decoder, cache: map[string]*searchEntry{}}, nil
}

// Info describes the provider.
func (p *Curated) Info() providers.Info {
	return providers.Info{
		Slug:             providers.Curated,
		Name:             "Wikimedia Commons",
		Description:      "Featured pictures from Wikimedia Commons, chosen by community review; freely licensed with attribution.",
		URL:              "https://commons.wikimedia.org",
		SupportsCategory: true,
		Configured:       true,
	}
}

// Image returns one picture cut to req's size. Besides the errors of
// Keyword.Image it returns providers.ErrNoResults (wrapped) when the
// search finds nothing.
func (p *Curated) Image(ctx context.Context, req providers.ImageRequest) (*providers.Image, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	keyword := ""
	if kw := KeywordsFor(providers.Curated, req.Category); len(kw) > 0 {
		keyword = kw[splitmix(req.Seed^0x5bd1e995)%uint64(len(kw))]
	}
	step := thumbStep(max(req.Width, (req.Height*3+1)/2))
	files, err := p.search(ctx, keyword, step, req.Seed)
	if err != nil {
		return nil, err
	}
	// Prefer results that need no enlarging.
	fit := slices.DeleteFunc(slices.Clone(files), func(f commonsFile) bool { return f.tw < req.Width || f.th < req.Height })
	if len(fit) == 0 {
		fit = files
	}
	f := fit[splitmix(req.Seed)%uint64(len(fit))]
	thumb, err := p.resolve(f.thumbURL)
	if err != nil {
		return nil, err
	}
	img, _, err := p.c.image(ctx, thumb, req.Seed)
	if err != nil {
		return nil, err
	}
	if img.Width*img.Height > p.maxPixels {
		return nil, fmt.Errorf("remote: %s: %w: %dx%d thumbnail", p.c.slug, imaging.ErrTooManyPixels, img.Width, img.Height)
	}
	if img.Width != req.Width || img.Height != req.Height || img.MIMEType != "image/jpeg" {
		if err := p.cut(ctx, img, req.Width, req.Height); err != nil {
			return nil, err
		}
	}
	img.Source = f.pageURL
	img.Title = f.name
	img.Credit = f.artist
	img.License = f.license
	return img, nil
}

// cut decodes img within the Decoder's limits, crops and scales it to
// w x h and re-encodes it as JPEG.
func (p *Curated) cut(ctx context.Context, img *providers.Image, w, h int) error {
	src, err := p.decoder.Decode(ctx, img.Data)
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return fmt.Errorf("remote: %s: %w", p.c.slug, ctx.Err())
	case errors.Is(err, imaging.ErrTooManyPixels):
		return fmt.Errorf("remote: %s: thumbnail: %w", p.c.slug, err)
	default:
		return fmt.Errorf("remote: %s: %w: %w", p.c.slug, providers.ErrNotImage, err)
	}
	cover := imaging.Cover(src.Image, w, h)
	src.Release()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, cover, &jpeg.Options{Quality: p.quality}); err != nil {
		return fmt.Errorf("remote: %s: encode: %w", p.c.slug, err)
	}
	img.Data, img.MIMEType, img.Ext, img.Width, img.Height = buf.Bytes(), "image/jpeg", "jpg", w, h
	return nil
}

// resolve makes a thumbnail URL from the API absolute (it may be
// protocol-relative) and checks its scheme.
func (p *Curated) resolve(raw string) (string, error) {
	base, _ := url.Parse(p.c.base)
	ref, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("remote: %s: bad thumbnail URL %q: %w", p.c.slug, raw, err)
	}
	u := base.ResolveReference(ref)
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("remote: %s: thumbnail URL scheme %q not allowed", p.c.slug, u.Scheme)
	}
	return u.String(), nil
}

// thumbStep returns the smallest standard thumbnail width of at least w,
// or the largest one.
func thumbStep(w int) int {
	for _, s := range thumbSteps {
		if s >= w {
			return s
		}
	}
	return thumbSteps[len(thumbSteps)-1]
}

// search returns the cached results for keyword at thumbnail width step,
// running one search per key at a time.
func (p *Curated) search(ctx context.Context, keyword string, step int, seed uint64) ([]commonsFile, error) {
	key := keyword + "|" + strconv.Itoa(step)
	now := p.c.o.Now()
	p.mu.Lock()
	e, ok := p.cache[key]
	if ok && e.expires.IsZero() || ok && now.Before(e.expires) {
		p.mu.Unlock()
		select {
		case <-e.done:
		case <-ctx.Done():
			return nil, fmt.Errorf("remote: %s: %w", p.c.slug, ctx.Err())
		}
		if e.err != nil {
			return nil, e.err
		}
		return e.files, nil
	}
	e = &searchEntry{done: make(chan struct{})}
	if p.ttl > 0 {
		p.evictLocked(now)
		p.cache[key] = e
	}
	p.mu.Unlock()

	e.files, e.err = p.query(ctx, keyword, step, seed)
	p.mu.Lock()
	if e.err != nil {
		if p.cache[key] == e {
			delete(p.cache, key)
		}
	} else {
		e.expires = p.c.o.Now().Add(p.ttl)
	}
	p.mu.Unlock()
	close(e.done)
	return e.files, e.err
}

// evictLocked drops expired entries and, when the cache is still full, the
// one expiring first.
func (p *Curated) evictLocked(now time.Time) {
	var oldest string
	for k, e := range p.cache {
		if e.expires.IsZero() {
			continue // in flight
		}
		if !now.Before(e.expires) {
			delete(p.cache, k)
			continue
		}
		if oldest == "" || e.expires.Before(p.cache[oldest].expires) {
			oldest = k
		}
	}
	if len(p.cache) >= maxCacheEntries && oldest != "" {
		delete(p.cache, oldest)
	}
}

// apiResponse is the part of the MediaWiki API answer that is used.
type apiResponse struct {
	Error *struct {
		Code string `json:"code"`
		Info string `json:"info"`
	} `json:"error"`
	Query struct {
		Pages []struct {
			Title     string `json:"title"`
			ImageInfo []struct {
				ThumbURL       string                     `json:"thumburl"`
				ThumbWidth     int                        `json:"thumbwidth"`
				ThumbHeight    int                        `json:"thumbheight"`
				DescriptionURL string                     `json:"descriptionurl"`
				Mime           string                     `json:"mime"`
				ExtMetadata    map[string]json.RawMessage `json:"extmetadata"`
			} `json:"imageinfo"`
		} `json:"pages"`
	} `json:"query"`
}

// query runs one search against the MediaWiki API.
func (p *Curated) query(ctx context.Context, keyword string, step int, seed uint64) ([]commonsFile, error) {
	search := fmt.Sprintf(`filetype:bitmap filemime:image/jpeg incategory:"%s"`, p.collection)
	if keyword != "" {
		search = keyword + " " + search
	}
	q := url.Values{
		"action":              {"query"},
		"format":              {"json"},
		"formatversion":       {"2"},
		"generator":           {"search"},
		"gsrnamespace":        {"6"},
		"gsrsearch":           {search},
		"gsrlimit":            {strconv.Itoa(searchLimit)},
		"prop":                {"imageinfo"},
		"iiprop":              {"url|size|mime|extmetadata"},
		"iiextmetadatafilter": {"Artist|LicenseShortName|ObjectName"},
		"iiurlwidth":          {strconv.Itoa(step)},
	}
	resp, err := p.c.get(ctx, p.c.base+"?"+q.Encode(), "application/json", seed)
	if err != nil {
		return nil, err
	}
	var ar apiResponse
	if err := json.Unmarshal(resp.data, &ar); err != nil {
		return nil, fmt.Errorf("remote: %s: decode search answer: %w", p.c.slug, err)
	}
	if ar.Error != nil {
		return nil, fmt.Errorf("remote: %s: API error %s: %s", p.c.slug, ar.Error.Code, ar.Error.Info)
	}
	var files []commonsFile
	for _, pg := range ar.Query.Pages {
		if len(pg.ImageInfo) == 0 {
			continue
		}
		ii := pg.ImageInfo[0]
		if ii.ThumbURL == "" || ii.ThumbWidth <= 0 || ii.ThumbHeight <= 0 || ii.Mime != "image/jpeg" {
			continue
		}
		f := commonsFile{
			title:    pg.Title,
			thumbURL: ii.ThumbURL,
			pageURL:  ii.DescriptionURL,
			tw:       ii.ThumbWidth,
			th:       ii.ThumbHeight,
			name:     plainText(metaValue(ii.ExtMetadata, "ObjectName")),
			artist:   plainText(metaValue(ii.ExtMetadata, "Artist")),
			license:  plainText(metaValue(ii.ExtMetadata, "LicenseShortName")),
		}
		if f.name == "" {
			f.name = fileTitle(pg.Title)
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("remote: %s: %w for %q", p.c.slug, providers.ErrNoResults, search)
	}
	// The API orders pages by id; sort by title so that a seed picks the
	// same file however the answer is ordered.
	slices.SortFunc(files, func(a, b commonsFile) int { return strings.Compare(a.title, b.title) })
	return files, nil
}

// metaValue returns extmetadata[key].value when it is a string.
func metaValue(m map[string]json.RawMessage, key string) string {
	var v struct {
		Value any `json:"value"`
	}
	if raw, ok := m[key]; !ok || json.Unmarshal(raw, &v) != nil {
		return ""
	}
	s, _ := v.Value.(string)
	return s
}

// plainText strips HTML tags and entities and collapses white space.
// Block-level tags become spaces; inline ones vanish.
func plainText(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			break
		}
		name := strings.ToLower(strings.TrimLeft(s[i+1:i+j], "/"))
		for _, block := range []string{"br", "p", "div", "li", "tr", "td", "table"} {
			if name == block || strings.HasPrefix(name, block+" ") || strings.HasPrefix(name, block+"/") {
				b.WriteByte(' ')
				break
			}
		}
		s = s[i+j+1:]
	}
	t := strings.Join(strings.Fields(html.UnescapeString(b.String())), " ")
	if len(t) > 200 {
		t = strings.ToValidUTF8(t[:200], "") + "…"
	}
	return t
}

// fileTitle turns "File:Some_name.jpg" into "Some name".
func fileTitle(t string) string {
	t = strings.TrimPrefix(t, "File:")
	if i := strings.LastIndexByte(t, '.'); i > 0 {
		t = t[:i]
	}
	return strings.TrimSpace(strings.ReplaceAll(t, "_", " "))
}
