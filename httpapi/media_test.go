package httpapi_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/fetch"
	"github.com/contentgen/contentgen/providers/local"
)

func withLocalImages(t *testing.T) func(*contentgen.Config) {
	t.Helper()
	p, err := local.New(nil)
	require.NoError(t, err)
	return func(c *contentgen.Config) { c.ImageProviders = []providers.ImageProvider{p} }
}

// broken is an image provider whose every image fails.
type broken struct{}

func (broken) Info() providers.Info {
	return providers.Info{Slug: providers.Random, Name: "Broken", Configured: true}
}

func (broken) Image(context.Context, providers.ImageRequest) (*providers.Image, error) {
	return nil, errors.New("HTTP 429 Too Many Requests")
}

func pngFile(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = byte(i)
	}
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.Bytes()
}

func TestImageProviders(t *testing.T) {
	t.Parallel()
	e := newEnvWith(t, withLocalImages(t), nil)
	status, body := e.do("GET", "/image-providers", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	requireShape(t, body, map[string]string{"success": "boolean", "providers": "object", "categories": "object", "default": "string"})
	require.Len(t, body["categories"], 14)
	require.Equal(t, "provider_keyword", body["default"])
	provs := body["providers"].(map[string]any)
	require.Len(t, provs, 4)
	loc := provs["provider_local"].(map[string]any)
	requireShape(t, loc, map[string]string{"name": "string", "description": "string", "url": "string", "supports_category": "boolean", "requires_api_key": "boolean", "configured": "boolean"})
	require.Equal(t, true, loc["configured"])
	require.Equal(t, false, provs["provider_curated"].(map[string]any)["configured"], "not set up in this test")
}

func TestFeaturedImagesAndMediaLibrary(t *testing.T) {
	t.Parallel()
	e := newEnvWith(t, withLocalImages(t), nil)
	status, body := e.do("POST", "/generate/posts", map[string]any{"count": 4, "image_provider": "provider_local", "image_category": "food"}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	vs := body["variation_stats"].(map[string]any)
	require.EqualValues(t, 4, vs["with_featured_image"])
	require.EqualValues(t, 0, vs["without_featured_image"])

	status, body = e.do("GET", "/media/images?per_page=3&page=1", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	requireShape(t, body, map[string]string{"success": "boolean", "images": "array", "total": "number", "total_pages": "number", "page": "number"})
	require.EqualValues(t, 4, body["total"])
	require.EqualValues(t, 2, body["total_pages"])
	images := body["images"].([]any)
	require.Len(t, images, 3)
	img := images[0].(map[string]any)
	requireShape(t, img, map[string]string{"id": "number", "title": "string", "url": "string", "thumbnail": "string", "medium": "string", "dimensions": "string|null", "ratio": "string|null", "generated": "boolean"})
	require.Equal(t, "1200x800", img["dimensions"])
	require.Equal(t, "3:2", img["ratio"])
	require.Equal(t, true, img["generated"])

	// The stored renditions decode with their sizes.
	for field, w := range map[string]int{"thumbnail": 150, "medium": 300} {
		data, mimeType, ok := e.host.File(img[field].(string))
		require.True(t, ok, field)
		require.Equal(t, "image/jpeg", mimeType)
		cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
		require.NoError(t, err)
		require.Equal(t, w, cfg.Width, field)
	}

	// Deleting the posts with their media removes the images and bytes.
	status, body = e.do("POST", "/generate/posts/delete", map[string]any{"post_type": "post", "delete_related_media": true}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	require.EqualValues(t, 4, body["deleted_stats"].(map[string]any)["media"])
	_, _, ok := e.host.File(img["url"].(string))
	require.False(t, ok)
}

func TestFailingProviderNeverFailsTheRun(t *testing.T) {
	t.Parallel()
	e := newEnvWith(t, func(c *contentgen.Config) { c.ImageProviders = []providers.ImageProvider{broken{}} }, nil)
	status, body := e.do("POST", "/generate/posts", map[string]any{"count": 3, "image_provider": "provider_random"}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	require.EqualValues(t, 3, body["count"])
	require.EqualValues(t, 3, body["variation_stats"].(map[string]any)["without_featured_image"])
	require.NotEmpty(t, body["warnings"])
	require.Contains(t, body["warnings"].([]any)[0], "429")
}

func TestDownloadImages(t *testing.T) {
	t.Parallel()
	e := newEnvWith(t, withLocalImages(t), nil)
	status, body := e.do("POST", "/media/download", map[string]any{"count": 3, "provider": "provider_local", "category": "nature", "width": 600, "aspect_ratio": "16:9"}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	requireShape(t, body, map[string]string{"success": "boolean", "message": "string", "count": "number", "images": "array"})
	require.EqualValues(t, 3, body["count"])
	img := body["images"].([]any)[0].(map[string]any)
	requireShape(t, img, map[string]string{"id": "number", "title": "string", "url": "string", "thumbnail": "string", "dimensions": "string|null", "ratio": "string|null"})
	require.Equal(t, "600x337", img["dimensions"])

	status, body = e.do("POST", "/media/download", map[string]any{"count": 2, "provider": "provider_local", "random_size": true, "width_min": 300, "width_max": 400}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	for _, it := range body["images"].([]any) {
		w, err := strconv.Atoi(strings.Split(it.(map[string]any)["dimensions"].(string), "x")[0])
		require.NoError(t, err)
		require.True(t, w >= 300 && w <= 400, "width %d", w)
	}

	for _, c := range []struct {
		body  map[string]any
		code  string
		param string
	}{
		{map[string]any{"count": 21}, "invalid_count", "count"},
		{map[string]any{"provider": "provider_none"}, "invalid_parameter", "provider"},
		{map[string]any{"width": 99}, "invalid_parameter", "width"},
		{map[string]any{"aspect_ratio": "wide"}, "invalid_parameter", "aspect_ratio"},
		{map[string]any{"category": "cars"}, "invalid_parameter", "category"},
	} {
		status, body := e.do("POST", "/media/download", c.body, asAdmin)
		require.Equal(t, http.StatusBadRequest, status, c.body)
		require.Equal(t, c.code, body["code"])
		require.Contains(t, body["message"], c.param)
	}
}

// upload sends a multipart upload; fields are sent before the file.
func (e *env) upload(filename string, data []byte, fields map[string]string) (int, map[string]any) {
	e.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		require.NoError(e.t, mw.WriteField(k, v))
	}
	if filename != "" {
		fw, err := mw.CreateFormFile("file", filename)
		require.NoError(e.t, err)
		_, err = fw.Write(data)
		require.NoError(e.t, err)
	}
	require.NoError(e.t, mw.Close())
	return e.send("/media/upload", mw.FormDataContentType(), buf.Bytes())
}

func (e *env) send(path, contentType string, body []byte) (int, map[string]any) {
	e.t.Helper()
	req, err := http.NewRequest("POST", e.srv.URL+base+path, bytes.NewReader(body))
	require.NoError(e.t, err)
	req.Header.Set("Content-Type", contentType)
	req.SetBasicAuth("admin", e.adminPW)
	resp, err := e.srv.Client().Do(req)
	require.NoError(e.t, err)
	defer resp.Body.Close()
	var out map[string]any
	require.NoError(e.t, jsonDecode(resp, &out))
	return resp.StatusCode, out
}

func TestUpload(t *testing.T) {
	t.Parallel()
	e := newEnvWith(t, func(c *contentgen.Config) { c.MaxUploadBytes = 64 << 10 }, nil)
	pngData := pngFile(t, 40, 30)

	status, body := e.upload("../../etc/My Photo.png", pngData, nil)
	require.Equal(t, http.StatusOK, status, body)
	file := body["file"].(map[string]any)
	requireShape(t, file, map[string]string{"id": "number", "title": "string", "url": "string", "filename": "string"})
	require.Equal(t, "My-Photo.png", file["filename"], "the name is sanitised")
	data, mimeType, ok := e.host.File(file["url"].(string))
	require.True(t, ok)
	require.Equal(t, "image/png", mimeType)
	require.Equal(t, pngData, data)

	pdf := []byte("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n")
	status, body = e.upload("report.pdf", pdf, nil)
	require.Equal(t, http.StatusOK, status, body)

	cases := []struct {
		name     string
		filename string
		data     []byte
		fields   map[string]string
		status   int
		message  string
	}{
		{"no file", "", nil, nil, http.StatusBadRequest, "Keine Datei hochgeladen"},
		{"empty file", "a.png", []byte{}, nil, http.StatusBadRequest, "Keine Datei hochgeladen"},
		{"script as png", "photo.png", []byte("#!/bin/sh\nrm -rf /\n"), nil, http.StatusUnsupportedMediaType, "Dateityp nicht erlaubt"},
		{"html as jpg", "x.jpg", []byte("<html><script>alert(1)</script></html>"), nil, http.StatusUnsupportedMediaType, "Dateityp nicht erlaubt"},
		{"png as exe", "setup.exe", pngData, nil, http.StatusUnsupportedMediaType, "Dateityp nicht erlaubt"},
		{"too large", "big.png", bytes.Repeat([]byte{1}, 70<<10), nil, http.StatusRequestEntityTooLarge, "Datei zu groß (PHP-Limit)"},
		{"form limit", "small.png", pngData, map[string]string{"MAX_FILE_SIZE": "10"}, http.StatusRequestEntityTooLarge, "Datei zu groß (Formular-Limit)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body := e.upload(c.filename, c.data, c.fields)
			require.Equal(t, c.status, status, body)
			require.Equal(t, map[string]any{"success": false, "message": c.message}, body)
		})
	}

	t.Run("partial", func(t *testing.T) {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		fw, err := mw.CreateFormFile("file", "cut.png")
		require.NoError(t, err)
		_, _ = fw.Write(pngData)
		// No closing boundary: the body ends inside the file.
		status, body := e.send("/media/upload", mw.FormDataContentType(), buf.Bytes()[:buf.Len()-10])
		require.Equal(t, http.StatusBadRequest, status)
		require.Equal(t, "Datei nur teilweise hochgeladen", body["message"])
	})

	status, body = e.do("GET", "/media/files?file_type=pdf", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	files := body["files"].([]any)
	require.Len(t, files, 1)
	f := files[0].(map[string]any)
	requireShape(t, f, map[string]string{"id": "number", "title": "string", "filename": "string", "url": "string", "mime_type": "string", "extension": "string", "filesize": "number", "uploaded": "boolean"})
	require.Equal(t, "pdf", f["extension"])
	require.Equal(t, true, f["uploaded"])
	status, _ = e.do("GET", "/media/files?file_type=video", nil, asAdmin)
	require.Equal(t, http.StatusBadRequest, status)

	// Cleanup removes uploaded files but not media a person added otherwise.
	hand, err := e.host.StoreMedia(context.Background(), contentgen.Media{Title: "By hand", Filename: "hand.png", MIMEType: "image/png"}, pngData)
	require.NoError(t, err)
	status, body = e.do("DELETE", "/cleanup/all", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.EqualValues(t, 2, body["stats"].(map[string]any)["media"])
	left, err := e.host.Media(context.Background(), contentgen.MediaQuery{})
	require.NoError(t, err)
	require.Len(t, left, 1)
	require.Equal(t, hand, left[0].ID)
}

func TestUploadURL(t *testing.T) {
	t.Parallel()
	pngData := pngFile(t, 20, 20)
	files := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/pic.png":
			w.Header().Set("Content-Type", "image/png")
			_, _ = w.Write(pngData)
		case "/evil.png":
			w.Header().Set("Content-Type", "image/png")
			_, _ = w.Write([]byte("<?php system($_GET['c']); ?>"))
		case "/redirect":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(files.Close)

	// The default fetcher refuses the loopback address of the test server.
	strict := newEnv(t)
	for _, u := range []string{files.URL + "/pic.png", "http://169.254.169.254/latest/meta-data/", "http://[::1]/x.png", "http://localhost/x.png"} {
		status, body := strict.do("POST", "/media/upload-url", map[string]any{"url": u}, asAdmin)
		require.Equal(t, http.StatusBadRequest, status, u)
		require.Equal(t, false, body["success"])
		require.Contains(t, body["message"], "not allowed", u)
	}
	for _, u := range []string{"", "file:///etc/passwd", "gopher://x", "not a url"} {
		status, _ := strict.do("POST", "/media/upload-url", map[string]any{"url": u}, asAdmin)
		require.Equal(t, http.StatusBadRequest, status, u)
	}

	// A fetcher allowed to reach the test server still re-checks redirects
	// against the policy and sniffs what it downloads.
	lab := newEnvWith(t, func(c *contentgen.Config) {
		c.Fetcher = fetch.New(&fetch.Options{CheckAddr: func(a netip.AddrPort) error {
			if a.Addr().IsLoopback() {
				return nil
			}
			return fetch.CheckAddr(a.Addr())
		}})
	}, nil)
	status, body := lab.do("POST", "/media/upload-url", map[string]any{"url": files.URL + "/pic.png"}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	require.Equal(t, "pic.png", body["file"].(map[string]any)["filename"])

	status, body = lab.do("POST", "/media/upload-url", map[string]any{"url": files.URL + "/evil.png"}, asAdmin)
	require.Equal(t, http.StatusUnsupportedMediaType, status, body)
	require.Equal(t, "Dateityp nicht erlaubt", body["message"])

	status, body = lab.do("POST", "/media/upload-url", map[string]any{"url": files.URL + "/redirect"}, asAdmin)
	require.Equal(t, http.StatusBadRequest, status, body)
	require.Contains(t, body["message"], "not allowed")
}

func TestAvatars(t *testing.T) {
	t.Parallel()
	e := newEnvWith(t, withLocalImages(t), nil)
	status, body := e.do("POST", "/generate/users", map[string]any{"count": 3, "avatar_provider": "provider_local"}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	for _, id := range body["ids"].([]any) {
		m, err := e.host.Meta(context.Background(), contentgen.KindUser, int64(id.(float64)))
		require.NoError(t, err)
		require.NotEmpty(t, m[contentgen.AvatarKey], "every user gets an avatar")
	}
	status, body = e.do("POST", "/generate/comments", map[string]any{"comments_per_post_min": 4, "comments_per_post_max": 4, "avatar_percentage": 100, "avatar_provider": "provider_local"}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	for _, id := range body["ids"].([]any) {
		m, err := e.host.Meta(context.Background(), contentgen.KindComment, int64(id.(float64)))
		require.NoError(t, err)
		require.NotEmpty(t, m[contentgen.AvatarKey])
	}
	status, body = e.do("POST", "/generate/comments", map[string]any{"comments_per_post_min": 4, "comments_per_post_max": 4, "avatar_percentage": 0, "avatar_provider": "provider_local"}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	for _, id := range body["ids"].([]any) {
		m, err := e.host.Meta(context.Background(), contentgen.KindComment, int64(id.(float64)))
		require.NoError(t, err)
		require.Empty(t, m[contentgen.AvatarKey])
	}
}
