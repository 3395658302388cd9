package remote_test

import (
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"net/http"
	"net/http/httptest"

	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/remote"
)

func ExampleNewRandom() {
	// A stand-in for picsum.photos speaking its URL scheme.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var seed, wd, ht int
		_, _ = fmt.Sscanf(r.URL.Path, "/seed/%d/%d/%d", &seed, &wd, &ht)
		_ = jpeg.Encode(w, image.NewGray(image.Rect(0, 0, wd, ht)), nil)
	}))
	defer srv.Close()

	p, err := remote.NewRandom(&remote.Options{BaseURL: srv.URL, Client: srv.Client()})
	if err != nil {
		panic(err)
	}
	img, err := p.Image(context.Background(), providers.ImageRequest{Width: 640, Height: 480, Seed: 42})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Info().Name, img.MIMEType, img.Width, img.Height)
	// Output: Lorem Picsum image/jpeg 640 480
}
