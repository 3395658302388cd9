package httpapi

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/imaging"
)

func (a *API) mediaRoutes() {
	a.handle("GET /image-providers", a.imageProviders)
	a.handle("GET /media/images", a.mediaImages)
	a.handle("POST /media/download", a.mediaDownload)
	a.handle("GET /media/files", a.mediaFiles)
	a.handle("POST /media/upload", a.mediaUpload)
	a.handle("POST /media/upload-url", a.mediaUploadURL)
}

func (a *API) imageProviders(w http.ResponseWriter, r *http.Request) error {
	s, err := a.g.Settings().Get(r.Context())
	if err != nil {
		return err
	}
	list := a.g.Media().Providers()
	byslug := make(map[string]providers.Info, len(list))
	for _, p := range list {
		byslug[p.Slug] = p
	}
	return ok(w, struct {
		Success    bool                      `json:"success"`
		Providers  map[string]providers.Info `json:"providers"`
		Categories map[string]string         `json:"categories"`
		Default    string                    `json:"default"`
	}{true, byslug, providers.Categories(), s.DefaultImageProvider})
}

// mediaImage is an image of the media library.
type mediaImage struct {
	ID         int64   `json:"id"`
	Title      string  `json:"title"`
	URL        string  `json:"url"`
	Thumbnail  string  `json:"thumbnail"`
	Medium     string  `json:"medium"`
	Dimensions *string `json:"dimensions"`
	Ratio      *string `json:"ratio"`
	Generated  bool    `json:"generated"`
}

func newMediaImage(m *contentgen.Media) mediaImage {
	img := mediaImage{ID: m.ID, Title: m.Title, URL: m.URL, Thumbnail: m.URL, Medium: m.URL, Generated: m.Meta.Generated()}
	for _, s := range m.Sizes {
		switch s.Name {
		case "thumbnail":
			img.Thumbnail = s.URL
		case "medium":
			img.Medium = s.URL
		}
	}
	if m.Width > 0 && m.Height > 0 {
		d, r := imaging.Dimensions(m.Width, m.Height), imaging.Ratio(m.Width, m.Height)
		img.Dimensions, img.Ratio = &d, &r
	}
	return img
}

// page is the paging of a list answer.
type page struct {
	Total      int `json:"total"`
	TotalPages int `json:"total_pages"`
	Page       int `json:"page"`
}

func newPage(total int, perPage, pageNo *int, defPerPage int) page {
	limit, p := defPerPage, 1
	if perPage != nil {
		limit = *perPage
	}
	if pageNo != nil {
		p = *pageNo
	}
	return page{Total: total, TotalPages: (total + limit - 1) / limit, Page: p}
}

func (a *API) mediaImages(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	lq := contentgen.LibraryQuery{Images: true, PerPage: q.intPtr("per_page"), Page: q.intPtr("page"), Search: q.str("search")}
	if q.err != nil {
		return q.err
	}
	items, total, err := a.g.Media().List(r.Context(), lq)
	if err != nil {
		return err
	}
	images := make([]mediaImage, len(items))
	for i := range items {
		images[i] = newMediaImage(&items[i])
	}
	return ok(w, struct {
		Success bool         `json:"success"`
		Images  []mediaImage `json:"images"`
		page
	}{true, images, newPage(total, lq.PerPage, lq.Page, 20)})
}

// mediaFile is a file of the media library.
type mediaFile struct {
	ID        int64  `json:"id"`
	Title     string `json:"title"`
	Filename  string `json:"filename"`
	URL       string `json:"url"`
	MIMEType  string `json:"mime_type"`
	Extension string `json:"extension"`
	Filesize  int64  `json:"filesize"`
	Uploaded  bool   `json:"uploaded"`
}

func (a *API) mediaFiles(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	lq := contentgen.LibraryQuery{PerPage: q.intPtr("per_page"), Page: q.intPtr("page"), FileType: q.str("file_type")}
	if q.err != nil {
		return q.err
	}
	items, total, err := a.g.Media().List(r.Context(), lq)
	if err != nil {
		return err
	}
	files := make([]mediaFile, len(items))
	for i := range items {
		m := &items[i]
		files[i] = mediaFile{
			ID: m.ID, Title: m.Title, Filename: m.Filename, URL: m.URL, MIMEType: m.MIMEType,
			Extension: strings.TrimPrefix(strings.ToLower(path.Ext(m.Filename)), "."), Filesize: m.Filesize,
			Uploaded: m.Meta[contentgen.UploadedKey] == contentgen.MarkerValue,
		}
	}
	return ok(w, struct {
		Success bool        `json:"success"`
		Files   []mediaFile `json:"files"`
		page
	}{true, files, newPage(total, lq.PerPage, lq.Page, 50)})
}

func (a *API) mediaDownload(w http.ResponseWriter, r *http.Request) error {
	var b downloadBody
	if err := decodeJSON(w, r, a.maxBody, &b); err != nil {
		return err
	}
	res, err := a.g.Media().Download(r.Context(), contentgen.DownloadRequest(b))
	if err != nil {
		return err
	}
	type downloaded struct {
		ID         int64   `json:"id"`
		Title      string  `json:"title"`
		URL        string  `json:"url"`
		Thumbnail  string  `json:"thumbnail"`
		Dimensions *string `json:"dimensions"`
		Ratio      *string `json:"ratio"`
	}
	images := []downloaded{}
	if len(res.IDs) > 0 {
		media, err := a.g.Content().MediaByID(r.Context(), res.IDs...)
		if err != nil {
			return err
		}
		for i := range media {
			mi := newMediaImage(&media[i])
			images = append(images, downloaded{mi.ID, mi.Title, mi.URL, mi.Thumbnail, mi.Dimensions, mi.Ratio})
		}
	}
	return ok(w, struct {
		Success  bool         `json:"success"`
		Message  string       `json:"message"`
		Count    int          `json:"count"`
		Images   []downloaded `json:"images"`
		Warnings []string     `json:"warnings"`
	}{true, a.messages(r.Context()).ImagesDownloaded(len(images), res.Requested), len(images), images, nonNil(res.Warnings)})
}

// uploadedFile is a file added by an upload.
type uploadedFile struct {
	ID       int64  `json:"id"`
	Title    string `json:"title"`
	URL      string `json:"url"`
	Filename string `json:"filename"`
}

type uploadAnswer struct {
	Success bool          `json:"success"`
	Message string        `json:"message"`
	File    *uploadedFile `json:"file,omitempty"`
}

// Messages of the upload failures, as the specification fixes them.
const (
	msgNoFile         = "Keine Datei hochgeladen"
	msgTooLarge       = "Datei zu groß (PHP-Limit)"
	msgFormLimit      = "Datei zu groß (Formular-Limit)"
	msgPartialUpload  = "Datei nur teilweise hochgeladen"
	msgTypeNotAllowed = "Dateityp nicht erlaubt"
	msgWriteFailed    = "Fehler beim Schreiben der Datei"
)

// uploadMessages are the messages of the upload failure codes.
var uploadMessages = map[contentgen.Code]string{
	contentgen.CodeNoFile:          msgNoFile,
	contentgen.CodeTooLarge:        msgTooLarge,
	contentgen.CodePartialUpload:   msgPartialUpload,
	contentgen.CodeUnsupportedType: msgTypeNotAllowed,
	contentgen.CodeWriteFailed:     msgWriteFailed,
	// A full disk is a write error, with its own status.
	contentgen.CodeInsufficientStorage: msgWriteFailed,
}

// uploadErr is an upload failure with its code and the specification's
// message.
func uploadErr(code contentgen.Code, msg string, cause error) error {
	return withoutCode(&contentgen.Error{Code: code, Message: msg, Err: cause})
}

// writeUpload answers an upload: the file, or {success: false, message}
// with the failure's message as the specification has it.
func (a *API) writeUpload(w http.ResponseWriter, r *http.Request, m contentgen.Media, err error) error {
	var ce *contentgen.Error
	if errors.As(err, &ce) {
		if msg, ok := uploadMessages[ce.Code]; ok && ce.Message != msgFormLimit {
			return uploadErr(ce.Code, msg, err)
		}
	}
	if err != nil {
		return withoutCode(err)
	}
	f := &uploadedFile{ID: m.ID, Title: m.Title, URL: m.URL, Filename: m.Filename}
	return ok(w, uploadAnswer{Success: true, Message: a.messages(r.Context()).FileUploaded(), File: f})
}

// mediaUpload reads the multipart field "file" into memory (no temporary
// files) within the upload limit. A MAX_FILE_SIZE form field sent before
// the file sets a lower limit, as HTML forms do.
func (a *API) mediaUpload(w http.ResponseWriter, r *http.Request) error {
	limit := a.g.Media().MaxUploadBytes()
	r.Body = http.MaxBytesReader(w, r.Body, limit+64<<10)
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		return uploadErr(contentgen.CodeNoFile, msgNoFile, nil)
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return uploadErr(contentgen.CodeNoFile, msgNoFile, nil)
	}
	formLimit := int64(-1)
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return uploadErr(contentgen.CodeNoFile, msgNoFile, nil)
		}
		if err != nil {
			return readFailure(err)
		}
		switch part.FormName() {
		case "MAX_FILE_SIZE":
			b, _ := io.ReadAll(io.LimitReader(part, 32))
			if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 {
				formLimit = n
			}
		case "file":
			if part.FileName() == "" {
				return uploadErr(contentgen.CodeNoFile, msgNoFile, nil)
			}
			data, err := io.ReadAll(io.LimitReader(part, limit+1))
			if err != nil {
				return readFailure(err)
			}
			switch {
			case int64(len(data)) > limit:
				return uploadErr(contentgen.CodeTooLarge, msgTooLarge, nil)
			case formLimit >= 0 && int64(len(data)) > formLimit:
				return uploadErr(contentgen.CodeTooLarge, msgFormLimit, nil)
			case len(data) == 0:
				return uploadErr(contentgen.CodeNoFile, msgNoFile, nil)
			}
			m, err := a.g.Media().Upload(r.Context(), part.FileName(), data)
			return a.writeUpload(w, r, m, err)
		}
	}
}

// readFailure classifies an error while reading the upload body.
func readFailure(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return uploadErr(contentgen.CodeTooLarge, msgTooLarge, err)
	}
	return uploadErr(contentgen.CodePartialUpload, msgPartialUpload, err)
}

func (a *API) mediaUploadURL(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		URL string `json:"url"`
	}
	if err := decodeJSON(w, r, a.maxBody, &body); err != nil {
		return err
	}
	m, err := a.g.Media().UploadURL(r.Context(), body.URL)
	return a.writeUpload(w, r, m, err)
}
