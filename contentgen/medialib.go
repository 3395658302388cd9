package contentgen

import (
	"context"
	"errors"
	"path"
	"strconv"
	"strings"

	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/fetch"
	"github.com/contentgen/contentgen/providers/filetype"
	"github.com/contentgen/contentgen/providers/imaging"
)

// ImageProvidersInfo is what GET /image-providers reports.
type ImageProvidersInfo struct {
	Success    bool                      `json:"success"`
	Providers  map[string]providers.Info `json:"providers"`
	Categories map[string]string         `json:"categories"`
	Default    string                    `json:"default"`
}

// ImageProvidersInfo lists the image providers (the built-in slugs that
// are not set up are listed with configured false), the image categories
// and the default provider from the settings.
func (g *Generator) ImageProvidersInfo(ctx context.Context) (*ImageProvidersInfo, error) {
	s, err := g.Settings(ctx)
	if err != nil {
		return nil, err
	}
	out := &ImageProvidersInfo{Success: true, Providers: map[string]providers.Info{}, Categories: providers.Categories, Default: s.DefaultImageProvider}
	for _, slug := range providers.Slugs {
		out.Providers[slug] = providers.Info{Slug: slug, Name: slug, Description: "Not set up on this server."}
	}
	for slug, p := range g.images {
		out.Providers[slug] = p.Info()
	}
	return out, nil
}

// MediaImage is an image of the media library as GET /media/images lists it.
type MediaImage struct {
	ID         int64   `json:"id"`
	Title      string  `json:"title"`
	URL        string  `json:"url"`
	Thumbnail  string  `json:"thumbnail"`
	Medium     string  `json:"medium"`
	Dimensions *string `json:"dimensions"`
	Ratio      *string `json:"ratio"`
	Generated  bool    `json:"generated"`
}

func newMediaImage(m *Media) MediaImage {
	img := MediaImage{ID: m.ID, Title: m.Title, URL: m.URL, Thumbnail: m.URL, Medium: m.URL, Generated: m.Meta.Generated()}
	if s, ok := m.Size("thumbnail"); ok {
		img.Thumbnail = s.URL
	}
	if s, ok := m.Size("medium"); ok {
		img.Medium = s.URL
	}
	if m.Width > 0 && m.Height > 0 {
		d, r := imaging.Dimensions(m.Width, m.Height), imaging.Ratio(m.Width, m.Height)
		img.Dimensions, img.Ratio = &d, &r
	}
	return img
}

// Page is the paging of a list answer.
type Page struct {
	Total      int `json:"total"`
	TotalPages int `json:"total_pages"`
	Page       int `json:"page"`
}

func paging(perPage, page *int, defPerPage int) (limit, pageNo int, err error) {
	if limit, err = intParam(perPage, defPerPage, 1, 100, "per_page"); err != nil {
		return 0, 0, err
	}
	if pageNo, err = intParam(page, 1, 1, 1_000_000, "page"); err != nil {
		return 0, 0, err
	}
	return limit, pageNo, nil
}

func newPage(total, limit, page int) Page {
	return Page{Total: total, TotalPages: (total + limit - 1) / limit, Page: page}
}

// MediaImagesQuery selects images of the media library.
type MediaImagesQuery struct {
	PerPage *int // default 20
	Page    *int // default 1
	Search  string
}

// MediaImagesResult is one page of images.
type MediaImagesResult struct {
	Success bool         `json:"success"`
	Images  []MediaImage `json:"images"`
	Page
}

// MediaImages lists the images of the media library, newest last.
func (g *Generator) MediaImages(ctx context.Context, q MediaImagesQuery) (*MediaImagesResult, error) {
	limit, page, err := paging(q.PerPage, q.Page, 20)
	if err != nil {
		return nil, err
	}
	all, err := g.host.Media(ctx, MediaQuery{MIMEPrefixes: []string{"image/"}, Search: q.Search})
	if err != nil {
		return nil, failed(err, "listing media")
	}
	res := &MediaImagesResult{Success: true, Images: []MediaImage{}, Page: newPage(len(all), limit, page)}
	for i := (page - 1) * limit; i < len(all) && i < page*limit; i++ {
		res.Images = append(res.Images, newMediaImage(&all[i]))
	}
	return res, nil
}

// MediaFile is a file of the media library as GET /media/files lists it.
type MediaFile struct {
	ID        int64  `json:"id"`
	Title     string `json:"title"`
	Filename  string `json:"filename"`
	URL       string `json:"url"`
	MIMEType  string `json:"mime_type"`
	Extension string `json:"extension"`
	Filesize  int64  `json:"filesize"`
	Uploaded  bool   `json:"uploaded"`
}

// MediaFilesQuery selects files of the media library.
type MediaFilesQuery struct {
	PerPage *int // default 50
	Page    *int // default 1
	// FileType is pdf, document, spreadsheet or archive; empty lists all.
	FileType string
}

// MediaFilesResult is one page of files.
type MediaFilesResult struct {
	Success bool        `json:"success"`
	Files   []MediaFile `json:"files"`
	Page
}

// fileTypes are the file_type groups of GET /media/files.
var fileTypes = []string{filetype.GroupPDF, filetype.GroupDocument, filetype.GroupSpreadsheet, filetype.GroupArchive}

// MediaFiles lists the files of the media library.
func (g *Generator) MediaFiles(ctx context.Context, q MediaFilesQuery) (*MediaFilesResult, error) {
	limit, page, err := paging(q.PerPage, q.Page, 50)
	if err != nil {
		return nil, err
	}
	var prefixes []string
	if q.FileType != "" {
		if prefixes = filetype.GroupMIMETypes(q.FileType); prefixes == nil || !contains(fileTypes, q.FileType) {
			return nil, invalid("file_type", "file_type must be one of %v, got %q", fileTypes, q.FileType)
		}
	}
	all, err := g.host.Media(ctx, MediaQuery{MIMEPrefixes: prefixes})
	if err != nil {
		return nil, failed(err, "listing media")
	}
	if q.FileType != "" {
		// MIMEPrefixes match prefixes; keep exact types only.
		kept := all[:0]
		for _, m := range all {
			if contains(prefixes, m.MIMEType) {
				kept = append(kept, m)
			}
		}
		all = kept
	}
	res := &MediaFilesResult{Success: true, Files: []MediaFile{}, Page: newPage(len(all), limit, page)}
	for i := (page - 1) * limit; i < len(all) && i < page*limit; i++ {
		m := &all[i]
		res.Files = append(res.Files, MediaFile{
			ID: m.ID, Title: m.Title, Filename: m.Filename, URL: m.URL, MIMEType: m.MIMEType,
			Extension: strings.TrimPrefix(strings.ToLower(path.Ext(m.Filename)), "."), Filesize: m.Filesize,
			Uploaded: m.Meta[UploadedKey] == MarkerValue,
		})
	}
	return res, nil
}

// DownloadRequest asks for images to be added to the media library.
type DownloadRequest struct {
	Count       *int   `json:"count"`    // 1-20, default 5
	Provider    string `json:"provider"` // default provider_random
	Category    string `json:"category"`
	Width       *int   `json:"width"` // 100-4000, default 1200
	Height      *int   `json:"height"`
	AspectRatio string `json:"aspect_ratio"` // default 3:2, used when height is unset
	RandomSize  bool   `json:"random_size"`
	WidthMin    *int   `json:"width_min"` // default 800
	WidthMax    *int   `json:"width_max"` // default 1600
	Seed        *int64 `json:"seed"`
}

// DownloadedImage is one image added by DownloadImages.
type DownloadedImage struct {
	ID         int64   `json:"id"`
	Title      string  `json:"title"`
	URL        string  `json:"url"`
	Thumbnail  string  `json:"thumbnail"`
	Dimensions *string `json:"dimensions"`
	Ratio      *string `json:"ratio"`
}

// DownloadResult is the result of DownloadImages.
type DownloadResult struct {
	Success  bool              `json:"success"`
	Message  string            `json:"message"`
	Count    int               `json:"count"`
	Images   []DownloadedImage `json:"images"`
	Warnings []string          `json:"warnings"`
}

// DownloadImages fetches images from a provider into the media library as
// generated items. Images that fail are reported as warnings.
func (g *Generator) DownloadImages(ctx context.Context, req DownloadRequest) (*DownloadResult, error) {
	count, err := intParam(req.Count, 5, 1, 20, "count")
	if err != nil {
		return nil, Errorf(CodeInvalidCount, "count", "%s", err.(*Error).Message)
	}
	slug, err := enumParam(req.Provider, providers.Random, "provider", providers.Slugs...)
	if err != nil {
		return nil, err
	}
	if req.Category != "" {
		if _, ok := providers.Categories[req.Category]; !ok {
			return nil, invalid("category", "category %q is not a known category; GET /image-providers lists them", req.Category)
		}
	}
	width, err := intParam(req.Width, 1200, 100, 4000, "width")
	if err != nil {
		return nil, err
	}
	wmin, err := intParam(req.WidthMin, 800, 100, 4000, "width_min")
	if err != nil {
		return nil, err
	}
	wmax, err := intParam(req.WidthMax, 1600, 100, 4000, "width_max")
	if err != nil {
		return nil, err
	}
	if req.RandomSize && wmin > wmax {
		return nil, invalid("width_max", "width_max (%d) must not be less than width_min (%d)", wmax, wmin)
	}
	rw, rh := 3, 2
	if req.AspectRatio != "" {
		a, b, ok := strings.Cut(req.AspectRatio, ":")
		x, err1 := strconv.Atoi(a)
		y, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || x < 1 || y < 1 || x > 100 || y > 100 {
			return nil, invalid("aspect_ratio", "aspect_ratio must look like 3:2, got %q", req.AspectRatio)
		}
		rw, rh = x, y
	}
	if req.Height != nil {
		if _, err := intParam(req.Height, 0, 100, 4000, "height"); err != nil {
			return nil, err
		}
	}
	prov, ok := g.images[slug]
	if !ok {
		return nil, invalid("provider", "image provider %s is not set up on this server", slug)
	}
	rn, err := g.newRun(ctx, req.Seed, "", nil)
	if err != nil {
		return nil, err
	}
	reqs := make([]providers.ImageRequest, count)
	for i := range reqs {
		w := width
		if req.RandomSize {
			w = rn.between(wmin, wmax)
		}
		h := w * rh / rw
		if req.Height != nil && !req.RandomSize {
			h = *req.Height
		}
		h = min(max(h, 100), 4000)
		reqs[i] = providers.ImageRequest{Width: w, Height: h, Category: req.Category, Seed: rn.r.Uint64()}
		if !prov.Info().SupportsCategory {
			reqs[i].Category = ""
		}
	}
	ids, err := g.fetchImages(ctx, rn, prov, reqs, map[string]any{"origin": "download"})
	if err != nil {
		return nil, err
	}
	var got []int64
	for _, id := range ids {
		if id != 0 {
			got = append(got, id)
		}
	}
	res := &DownloadResult{Success: true, Images: []DownloadedImage{}, Warnings: rn.warnings}
	if res.Warnings == nil {
		res.Warnings = []string{}
	}
	if len(got) > 0 {
		media, err := g.host.Media(ctx, MediaQuery{IDs: got})
		if err != nil {
			return nil, failed(err, "listing media")
		}
		for i := range media {
			mi := newMediaImage(&media[i])
			res.Images = append(res.Images, DownloadedImage{ID: mi.ID, Title: mi.Title, URL: mi.URL, Thumbnail: mi.Thumbnail, Dimensions: mi.Dimensions, Ratio: mi.Ratio})
		}
	}
	res.Count = len(res.Images)
	res.Message = g.Messages(ctx).ImagesDownloaded(res.Count, count)
	return res, nil
}

// UploadedFile is a file added by Upload or UploadURL.
type UploadedFile struct {
	ID       int64  `json:"id"`
	Title    string `json:"title"`
	URL      string `json:"url"`
	Filename string `json:"filename"`
}

// Upload failures, each with the message the specification gives it.
var (
	ErrNoFile         = &UploadError{Message: "Keine Datei hochgeladen"}
	ErrFileTooLarge   = &UploadError{Message: "Datei zu groß (PHP-Limit)"}
	ErrFormLimit      = &UploadError{Message: "Datei zu groß (Formular-Limit)"}
	ErrPartialUpload  = &UploadError{Message: "Datei nur teilweise hochgeladen"}
	ErrNoTempDir      = &UploadError{Message: "Temporäres Verzeichnis fehlt"}
	ErrWriteFailed    = &UploadError{Message: "Fehler beim Schreiben der Datei"}
	ErrTypeNotAllowed = &UploadError{Message: "Dateityp nicht erlaubt"}
)

// UploadError is an upload failure with the message to show.
type UploadError struct {
	Message string
	Err     error
}

func (e *UploadError) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *UploadError) Unwrap() error { return e.Err }

// Is matches the failure kinds above by message.
func (e *UploadError) Is(target error) bool {
	t, ok := target.(*UploadError)
	return ok && t.Message == e.Message && t.Err == nil
}

func uploadErr(kind *UploadError, cause error) *UploadError {
	return &UploadError{Message: kind.Message, Err: cause}
}

// DefaultMaxUpload is the largest upload accepted when Config.MaxUploadBytes
// is zero.
const DefaultMaxUpload = 20 << 20

// MaxUploadBytes is the largest file Upload accepts.
func (g *Generator) MaxUploadBytes() int64 { return g.maxUpload }

// Upload adds a file to the media library after checking its type by
// content against the allow-list, and marks it with UploadedKey so that
// cleanup finds it. Failures are *UploadError values.
func (g *Generator) Upload(ctx context.Context, filename string, data []byte) (*UploadedFile, error) {
	if len(data) == 0 {
		return nil, ErrNoFile
	}
	if int64(len(data)) > g.maxUpload {
		return nil, ErrFileTooLarge
	}
	t, err := g.uploadTypes.Check(filename, data)
	if err != nil {
		return nil, uploadErr(ErrTypeNotAllowed, err)
	}
	name := filetype.Filename(filename, t)
	title := strings.TrimSuffix(name, path.Ext(name))
	m := Media{
		Title:    strings.NewReplacer("-", " ", "_", " ").Replace(title),
		Filename: name,
		MIMEType: t.MIMEType,
		Date:     g.now(),
		Meta:     Meta{UploadedKey: MarkerValue},
	}
	if strings.HasPrefix(t.MIMEType, "image/") {
		if set, err := imaging.Renditions(ctx, data, nil); err == nil || set != nil {
			if set != nil {
				m.Width, m.Height = set.Info.Width, set.Info.Height
				if err == nil {
					m.Sizes = sizesOf(set)
				}
			}
		}
	}
	st, ok := g.host.(MediaStorer)
	if !ok {
		return nil, uploadErr(ErrWriteFailed, errors.New("the host does not store files"))
	}
	id, err := st.StoreMedia(ctx, m, data)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, uploadErr(ErrWriteFailed, err)
	}
	entry := []history.Entry{{ContentType: history.TypeMedia, ContentID: id, ContentSubtype: t.Group, Meta: map[string]any{"origin": "upload", "mime_type": t.MIMEType}}}
	if err := g.record(ctx, entry, func(ctx context.Context) error { return g.host.DeleteMedia(ctx, []int64{id}) }); err != nil {
		return nil, uploadErr(ErrWriteFailed, err)
	}
	stored, err := g.host.Media(ctx, MediaQuery{IDs: []int64{id}})
	if err != nil || len(stored) == 0 {
		return nil, uploadErr(ErrWriteFailed, err)
	}
	return &UploadedFile{ID: id, Title: stored[0].Title, URL: stored[0].URL, Filename: stored[0].Filename}, nil
}

// UploadURL downloads a file from a public http or https address and adds
// it like Upload. Addresses inside private networks are refused, also
// after redirects and DNS resolution.
func (g *Generator) UploadURL(ctx context.Context, rawURL string) (*UploadedFile, error) {
	if strings.TrimSpace(rawURL) == "" {
		return nil, invalid("url", "url is required")
	}
	if _, err := fetch.CheckURL(rawURL); err != nil {
		return nil, invalid("url", "url must be an absolute http or https address: %v", err)
	}
	res, err := g.fetcher.Get(ctx, rawURL)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		switch {
		case errors.Is(err, fetch.ErrAddressNotAllowed):
			return nil, invalid("url", "url points to an address that is not allowed (private, loopback or link-local networks)")
		case errors.Is(err, fetch.ErrTooLarge):
			return nil, ErrFileTooLarge
		case errors.Is(err, fetch.ErrSchemeNotAllowed), errors.Is(err, fetch.ErrInvalidURL):
			return nil, invalid("url", "url must be an http or https address")
		}
		return nil, invalid("url", "the file at url could not be downloaded: %v", err)
	}
	name := res.Filename
	if name == "" {
		name = "download"
	}
	return g.Upload(ctx, name, res.Data)
}

// sizesOf turns renditions into media sizes.
func sizesOf(set *imaging.Set) []MediaSize {
	return []MediaSize{
		{Name: "thumbnail", Width: set.Thumbnail.Width, Height: set.Thumbnail.Height, MIMEType: set.Thumbnail.MIMEType, Data: set.Thumbnail.Data},
		{Name: "medium", Width: set.Medium.Width, Height: set.Medium.Height, MIMEType: set.Medium.MIMEType, Data: set.Medium.Data},
	}
}
