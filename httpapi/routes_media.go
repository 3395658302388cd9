package httpapi

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
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
	info, err := a.g.ImageProvidersInfo(r.Context())
	if err != nil {
		return err
	}
	return ok(w, info)
}

func (a *API) mediaImages(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	mq := contentgen.MediaImagesQuery{PerPage: q.intPtr("per_page"), Page: q.intPtr("page"), Search: q.str("search")}
	if q.err != nil {
		return q.err
	}
	res, err := a.g.MediaImages(r.Context(), mq)
	if err != nil {
		return err
	}
	return ok(w, res)
}

func (a *API) mediaFiles(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	mq := contentgen.MediaFilesQuery{PerPage: q.intPtr("per_page"), Page: q.intPtr("page"), FileType: q.str("file_type")}
	if q.err != nil {
		return q.err
	}
	res, err := a.g.MediaFiles(r.Context(), mq)
	if err != nil {
		return err
	}
	return ok(w, res)
}

func (a *API) mediaDownload(w http.ResponseWriter, r *http.Request) error {
	var req contentgen.DownloadRequest
	if err := decodeJSON(w, r, a.maxBody, &req); err != nil {
		return err
	}
	res, err := a.g.DownloadImages(r.Context(), req)
	if err != nil {
		return err
	}
	return ok(w, res)
}

type uploadAnswer struct {
	Success bool                     `json:"success"`
	Message string                   `json:"message"`
	File    *contentgen.UploadedFile `json:"file,omitempty"`
}

// uploadStatus maps upload failures to statuses.
func uploadStatus(err error) int {
	switch {
	case errors.Is(err, contentgen.ErrFileTooLarge), errors.Is(err, contentgen.ErrFormLimit):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, contentgen.ErrTypeNotAllowed):
		return http.StatusUnsupportedMediaType
	case errors.Is(err, contentgen.ErrWriteFailed), errors.Is(err, contentgen.ErrNoTempDir):
		return http.StatusInternalServerError
	}
	return http.StatusBadRequest
}

// writeUpload answers an upload: the file, or {success: false, message}
// with the failure's message, as the specification has it.
func (a *API) writeUpload(w http.ResponseWriter, r *http.Request, f *contentgen.UploadedFile, err error) error {
	var ue *contentgen.UploadError
	if errors.As(err, &ue) {
		status := uploadStatus(err)
		if status >= 500 {
			a.log.ErrorContext(r.Context(), "httpapi: upload failed", "err", err)
		}
		writeJSON(w, status, uploadAnswer{Message: ue.Message})
		return nil
	}
	if err != nil {
		return withoutCode(err)
	}
	return ok(w, uploadAnswer{Success: true, Message: a.g.Messages(r.Context()).FileUploaded(), File: f})
}

// mediaUpload reads the multipart field "file" into memory (no temporary
// files) within the upload limit. A MAX_FILE_SIZE form field sent before
// the file sets a lower limit, as HTML forms do.
func (a *API) mediaUpload(w http.ResponseWriter, r *http.Request) error {
	limit := a.g.MaxUploadBytes()
	r.Body = http.MaxBytesReader(w, r.Body, limit+64<<10)
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		return a.writeUpload(w, r, nil, contentgen.ErrNoFile)
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return a.writeUpload(w, r, nil, contentgen.ErrNoFile)
	}
	formLimit := int64(-1)
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return a.writeUpload(w, r, nil, contentgen.ErrNoFile)
		}
		if err != nil {
			return a.writeUpload(w, r, nil, readFailure(err))
		}
		switch part.FormName() {
		case "MAX_FILE_SIZE":
			b, _ := io.ReadAll(io.LimitReader(part, 32))
			if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 {
				formLimit = n
			}
		case "file":
			if part.FileName() == "" {
				return a.writeUpload(w, r, nil, contentgen.ErrNoFile)
			}
			data, err := io.ReadAll(io.LimitReader(part, limit+1))
			if err != nil {
				return a.writeUpload(w, r, nil, readFailure(err))
			}
			switch {
			case int64(len(data)) > limit:
				return a.writeUpload(w, r, nil, contentgen.ErrFileTooLarge)
			case formLimit >= 0 && int64(len(data)) > formLimit:
				return a.writeUpload(w, r, nil, contentgen.ErrFormLimit)
			case len(data) == 0:
				return a.writeUpload(w, r, nil, contentgen.ErrNoFile)
			}
			f, err := a.g.Upload(r.Context(), part.FileName(), data)
			return a.writeUpload(w, r, f, err)
		}
	}
}

// readFailure classifies an error while reading the upload body.
func readFailure(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return contentgen.ErrFileTooLarge
	}
	return &contentgen.UploadError{Message: contentgen.ErrPartialUpload.Message, Err: err}
}

func (a *API) mediaUploadURL(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		URL string `json:"url"`
	}
	if err := decodeJSON(w, r, a.maxBody, &body); err != nil {
		return err
	}
	f, err := a.g.UploadURL(r.Context(), body.URL)
	return a.writeUpload(w, r, f, err)
}
