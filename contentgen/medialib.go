package contentgen

import (
	"context"
	"errors"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/fetch"
	"github.com/contentgen/contentgen/providers/filetype"
	"github.com/contentgen/contentgen/providers/imaging"
)

// MediaService is the media library: image providers, downloads into the
// library, uploads checked by content, and listings.
type MediaService struct{ g *Generator }

// Providers lists the image providers: the configured ones and the
// built-in slugs that are not set up (Configured false), in the order of
// providers.Slugs, then any others by slug.
func (m *MediaService) Providers() []providers.Info {
	var out []providers.Info
	for _, slug := range providers.Slugs() {
		if p, ok := m.g.images[slug]; ok {
			out = append(out, p.Info())
		} else {
			out = append(out, providers.Info{Slug: slug, Name: slug, Description: "Not set up on this server."})
		}
	}
	for _, slug := range sortedNames(m.g.images) {
		if !providers.IsSlug(slug) {
			out = append(out, m.g.images[slug].Info())
		}
	}
	return out
}

// LibraryQuery selects items of the media library.
type LibraryQuery struct {
	// Images lists images, matching Search in their title; otherwise
	// files are listed, of FileType (pdf, document, spreadsheet or
	// archive; "" lists all).
	Images   bool
	Search   string
	FileType string
	// PerPage (1-100; default 20 images or 50 files) and Page (from 1).
	PerPage *int
	Page    *int
}

// fileTypes are the file type groups of LibraryQuery.FileType.
var fileTypes = []string{filetype.GroupPDF, filetype.GroupDocument, filetype.GroupSpreadsheet, filetype.GroupArchive}

// List returns one page of the library, oldest first, and the number of
// matching items.
func (m *MediaService) List(ctx context.Context, q LibraryQuery) ([]Media, int, error) {
	v := validator{}
	def := 50
	if q.Images {
		def = 20
	}
	limit := v.intIn("per_page", q.PerPage, def, 1, 100)
	page := v.intIn("page", q.Page, 1, 1, 1_000_000)
	var prefixes []string
	switch {
	case q.Images:
		prefixes = []string{"image/"}
	case q.FileType != "":
		if prefixes = filetype.GroupMIMETypes(q.FileType); prefixes == nil || !slices.Contains(fileTypes, q.FileType) {
			v.fail(invalid("file_type", "file_type must be one of %v, got %q", fileTypes, q.FileType))
		}
	}
	if v.err != nil {
		return nil, 0, v.err
	}
	mq := MediaQuery{MIMEPrefixes: prefixes}
	if q.Images {
		mq.Search = q.Search
	}
	all, err := m.g.host.Media(ctx, mq)
	if err != nil {
		return nil, 0, failed(err, "listing media")
	}
	if !q.Images && q.FileType != "" {
		// MIMEPrefixes match prefixes; keep exact types only.
		all = slices.DeleteFunc(all, func(x Media) bool { return !slices.Contains(prefixes, x.MIMEType) })
	}
	lo := min((page-1)*limit, len(all))
	hi := min(lo+limit, len(all))
	return all[lo:hi], len(all), nil
}

// DownloadRequest asks for images to be added to the media library.
type DownloadRequest struct {
	// Count is 1-20, default 5.
	Count *int
	// Provider defaults to provider_random; Category to none.
	Provider string
	Category string
	// Width is 100-4000 (default 1200); Height defaults to Width over
	// AspectRatio (default "3:2").
	Width       *int
	Height      *int
	AspectRatio string
	// RandomSize picks each width from WidthMin to WidthMax (default 800
	// to 1600) instead.
	RandomSize bool
	WidthMin   *int
	WidthMax   *int
	Seed       *int64
}

// Download fetches images from a provider into the media library as
// generated items: Result.IDs are the stored images in request order.
// Images that fail are reported as warnings.
func (m *MediaService) Download(ctx context.Context, req DownloadRequest) (*Result, error) {
	g := m.g
	dp, err := planDownload(&req)
	if err != nil {
		return nil, err
	}
	prov, ok := g.images[dp.provider]
	if !ok {
		return nil, invalid("provider", "image provider %s is not set up on this server", dp.provider)
	}
	s, err := g.settings.load(ctx)
	if err != nil {
		return nil, err
	}
	rn, err := g.newRun(ctx, s, req.Seed, "", nil)
	if err != nil {
		return nil, err
	}
	reqs := make([]providers.ImageRequest, dp.count)
	for i := range reqs {
		reqs[i] = dp.request(rn, prov.Info().SupportsCategory)
	}
	ids, err := g.fetchImages(ctx, rn, prov, reqs, map[string]any{"origin": "download"})
	if err != nil {
		return nil, err
	}
	ids = slices.DeleteFunc(ids, func(id int64) bool { return id == 0 })
	return &Result{IDs: append([]int64{}, ids...), Requested: dp.count, Warnings: append([]string{}, rn.warnings...)}, nil
}

// downloadPlan is a validated DownloadRequest with its defaults.
type downloadPlan struct {
	count              int
	provider, category string
	width, wmin, wmax  int
	height             *int
	randomSize         bool
	ratioW, ratioH     int
}

// planDownload validates req and applies the defaults.
func planDownload(req *DownloadRequest) (*downloadPlan, error) {
	dp := &downloadPlan{count: 5, category: req.Category, height: req.Height, randomSize: req.RandomSize, ratioW: 3, ratioH: 2}
	if req.Count != nil {
		if dp.count = *req.Count; dp.count < 1 || dp.count > 20 {
			return nil, Errorf(CodeInvalidCount, "count", "count must be between 1 and 20, got %d", dp.count)
		}
	}
	v := validator{}
	dp.provider = v.enum("provider", req.Provider, providers.Random, providers.Slugs()...)
	if req.Category != "" && !providers.IsCategory(req.Category) {
		v.fail(invalid("category", "category %q is not a known category; the image providers list names them", req.Category))
	}
	dp.width = v.intIn("width", req.Width, 1200, 100, 4000)
	dp.wmin = v.intIn("width_min", req.WidthMin, 800, 100, 4000)
	dp.wmax = v.intIn("width_max", req.WidthMax, 1600, 100, 4000)
	if v.err == nil && req.RandomSize && dp.wmin > dp.wmax {
		v.fail(invalid("width_max", "width_max (%d) must not be less than width_min (%d)", dp.wmax, dp.wmin))
	}
	if req.AspectRatio != "" {
		a, b, ok := strings.Cut(req.AspectRatio, ":")
		x, err1 := strconv.Atoi(a)
		y, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || x < 1 || y < 1 || x > 100 || y > 100 {
			v.fail(invalid("aspect_ratio", "aspect_ratio must look like 3:2, got %q", req.AspectRatio))
		}
		dp.ratioW, dp.ratioH = x, y
	}
	v.intIn("height", req.Height, 0, 100, 4000)
	return dp, v.err
}

// request makes the provider request of one image.
func (dp *downloadPlan) request(rn *run, categories bool) providers.ImageRequest {
	w := dp.width
	if dp.randomSize {
		w = rn.between(dp.wmin, dp.wmax)
	}
	h := w * dp.ratioH / dp.ratioW
	if dp.height != nil && !dp.randomSize {
		h = *dp.height
	}
	r := providers.ImageRequest{Width: w, Height: min(max(h, 100), 4000), Category: dp.category, Seed: rn.r.Uint64()}
	if !categories {
		r.Category = ""
	}
	return r
}

// MaxUploadBytes is the largest file Upload accepts.
func (m *MediaService) MaxUploadBytes() int64 { return m.g.cfg.MaxUploadBytes }

// Upload adds a file to the media library after checking its type by
// content against the allow-list, and marks it with UploadedKey so that
// cleanup finds it. Its failures are *Error values with CodeNoFile,
// CodeTooLarge, CodeUnsupportedType or CodeWriteFailed.
func (m *MediaService) Upload(ctx context.Context, filename string, data []byte) (Media, error) {
	g := m.g
	if len(data) == 0 {
		return Media{}, &Error{Code: CodeNoFile, Param: "file", Message: "no file was uploaded"}
	}
	if int64(len(data)) > g.cfg.MaxUploadBytes {
		return Media{}, Errorf(CodeTooLarge, "file", "the file is larger than %d bytes", g.cfg.MaxUploadBytes)
	}
	t, err := g.cfg.UploadTypes.Check(filename, data)
	if err != nil {
		return Media{}, &Error{Code: CodeUnsupportedType, Param: "file", Message: "the file type is not allowed", Err: err}
	}
	name := filetype.Filename(filename, t)
	title := strings.TrimSuffix(name, path.Ext(name))
	item := Media{
		Title:    strings.NewReplacer("-", " ", "_", " ").Replace(title),
		Filename: name,
		MIMEType: t.MIMEType,
		Date:     g.now(),
		Meta:     Meta{UploadedKey: MarkerValue},
	}
	if strings.HasPrefix(t.MIMEType, "image/") {
		set, err := g.cfg.Decoder.Renditions(ctx, data, nil)
		switch {
		case errors.Is(err, imaging.ErrTooManyPixels):
			return Media{}, &Error{Code: CodeTooLarge, Param: "file", Message: "the image has more pixels than this server decodes", Err: err}
		case ctx.Err() != nil:
			return Media{}, ctx.Err()
		case err != nil:
			g.log.Info("contentgen: uploaded image stored without renditions", "file", name, "err", err)
		}
		if set != nil {
			item.Width, item.Height = set.Info.Width, set.Info.Height
			if err == nil {
				item.Sizes = sizesOf(set)
			}
		}
	}
	if !g.files {
		return Media{}, &Error{Code: CodeWriteFailed, Message: "the file could not be stored", Err: errors.New("the host does not store files")}
	}
	ids, err := g.writeTracked(ctx, batchWrite{kind: KindMedia, write: func(ctx context.Context, h Host) ([]int64, []history.Entry, error) {
		id, err := storeMedia(ctx, h, item, data, true)
		if err != nil {
			return nil, nil, err
		}
		return []int64{id}, []history.Entry{{
			ContentType: history.TypeMedia, ContentID: id, ContentSubtype: t.Group, CreatedAt: item.Date,
			Meta: map[string]any{"origin": "upload", "mime_type": t.MIMEType},
		}}, nil
	}})
	if err != nil {
		if ctx.Err() != nil {
			return Media{}, ctx.Err()
		}
		if errors.Is(err, ErrHostFull) {
			return Media{}, full(err, "storing the file")
		}
		return Media{}, &Error{Code: CodeWriteFailed, Message: "the file could not be stored", Err: err}
	}
	stored, err := g.host.Media(ctx, MediaQuery{IDs: OnlyIDs(ids...)})
	if err != nil || len(stored) == 0 {
		return Media{}, &Error{Code: CodeWriteFailed, Message: "the file could not be stored", Err: err}
	}
	return stored[0], nil
}

// UploadURL downloads a file from a public http or https address and adds
// it like Upload. Addresses inside private networks are refused, also
// after redirects and DNS resolution. Messages never carry the cause of a
// failed download; it is logged.
func (m *MediaService) UploadURL(ctx context.Context, rawURL string) (Media, error) {
	if strings.TrimSpace(rawURL) == "" {
		return Media{}, invalid("url", "url is required")
	}
	if _, err := fetch.CheckURL(rawURL); err != nil {
		return Media{}, &Error{Code: CodeInvalidParameter, Param: "url", Message: "url must be an absolute http or https address", Err: err}
	}
	res, err := m.g.cfg.Fetcher.Get(ctx, rawURL)
	if err != nil {
		if ctx.Err() != nil {
			return Media{}, ctx.Err()
		}
		switch {
		case errors.Is(err, fetch.ErrAddressNotAllowed):
			return Media{}, &Error{Code: CodeInvalidParameter, Param: "url", Message: "url points to an address that is not allowed (private, loopback or link-local networks)", Err: err}
		case errors.Is(err, fetch.ErrTooLarge):
			return Media{}, &Error{Code: CodeTooLarge, Param: "url", Message: "the file at url is too large", Err: err}
		case errors.Is(err, fetch.ErrSchemeNotAllowed), errors.Is(err, fetch.ErrInvalidURL):
			return Media{}, &Error{Code: CodeInvalidParameter, Param: "url", Message: "url must be an http or https address", Err: err}
		}
		m.g.log.Info("contentgen: URL import failed", "err", err)
		msg := "the file at url could not be downloaded"
		switch {
		case errors.Is(err, fetch.ErrTimeout):
			msg += ": the server did not answer in time"
		case errors.Is(err, fetch.ErrUnreachable):
			msg += ": the server could not be reached"
		case errors.Is(err, fetch.ErrBadStatus):
			msg += ": the server answered with an error status"
		case errors.Is(err, fetch.ErrTooManyRedirects):
			msg += ": too many redirects"
		}
		return Media{}, &Error{Code: CodeInvalidParameter, Param: "url", Message: msg, Err: err}
	}
	name := res.Filename
	if name == "" {
		name = "download"
	}
	return m.Upload(ctx, name, res.Data)
}

// sizesOf turns renditions into media sizes.
func sizesOf(set *imaging.Set) []MediaSize {
	return []MediaSize{
		{Name: "thumbnail", Width: set.Thumbnail.Width, Height: set.Thumbnail.Height, MIMEType: set.Thumbnail.MIMEType, Data: set.Thumbnail.Data},
		{Name: "medium", Width: set.Medium.Width, Height: set.Medium.Height, MIMEType: set.Medium.MIMEType, Data: set.Medium.Data},
	}
}
