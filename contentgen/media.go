package contentgen

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"runtime/debug"
	"sync"
	"time"

	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/locales"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/fetch"
	"github.com/contentgen/contentgen/providers/imaging"
)

// fetchImages fetches one image per request from prov with bounded
// concurrency, stores each in the host and tracks it. The result has one
// media id per request, 0 where the image failed; failures, of the
// provider or of storing, are warnings, never errors: only a done ctx and
// a full storage (ErrHostFull) return an error.
//
// Within a run a provider that fails twice in a row is asked nothing
// more: the images left are skipped at once and counted in one warning.
// One that cannot be reached at all (no such host, no route, connection
// refused) is asked nothing more after its first failure, by this run or
// by any other during the cool-down of its breaker, which is kept with
// the site's state; the warning names it and suggests provider_local.
func (g *Generator) fetchImages(ctx context.Context, rn *run, prov providers.ImageProvider, reqs []providers.ImageRequest, meta map[string]any) ([]int64, error) {
	slug := prov.Info().Slug
	g.restoreBreaker(ctx, slug)
	defer g.keepBreaker(context.WithoutCancel(ctx), slug)
	if b, err := providers.NewBreaker(prov, &providers.BreakerOptions{Failures: 2, CoolDown: runCoolDown, Now: g.now}); err == nil {
		prov = b
	}
	imgs := make([]*providers.Image, len(reqs))
	sets := make([]*imaging.Set, len(reqs))
	errs := make([]error, len(reqs))
	sem := make(chan struct{}, g.cfg.ImageConcurrency)
	var wg sync.WaitGroup
	// Images are stored once all are made; each one made is reported as
	// it comes, one report at a time, so that progress moves meanwhile.
	var made struct {
		sync.Mutex
		n int
	}
	for i := range reqs {
		if ctx.Err() != nil {
			errs[i] = ctx.Err()
			continue
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			defer func() {
				// A provider or decoder that panics costs its image, not
				// the process.
				if p := recover(); p != nil {
					g.log.Error("contentgen: image provider panicked", "provider", prov.Info().Slug, "panic", p, "stack", string(debug.Stack()))
					imgs[i], sets[i], errs[i] = nil, nil, fmt.Errorf("the image provider failed")
				}
			}()
			imgs[i], errs[i] = prov.Image(ctx, reqs[i])
			if errs[i] == nil && imgs[i] != nil {
				sets[i], errs[i] = g.renditions(ctx, imgs[i])
				if imgs[i].Release != nil {
					imgs[i].Release()
					imgs[i].Pixels, imgs[i].Release = nil, nil
				}
			}
			if errs[i] == nil && imgs[i] != nil {
				made.Lock()
				made.n++
				rn.count(ItemsImages, made.n, len(reqs), "Image %d of %d made (%dx%d)", made.n, len(reqs), imgs[i].Width, imgs[i].Height)
				made.Unlock()
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ids := make([]int64, len(reqs))
	skipped, unkept, offline := 0, 0, false
	for i, img := range imgs {
		if errors.Is(errs[i], providers.ErrProviderDown) || providers.Unreachable(errs[i]) {
			skipped++
			offline = offline || providers.Unreachable(errs[i])
			continue
		}
		if errs[i] != nil || img == nil {
			g.log.Info("contentgen: image skipped", "provider", slug, "index", i+1, "err", errs[i])
			rn.warn("image %d from %s failed and was skipped: %s", i+1, slug, imageFailure(errs[i]))
			continue
		}
		id, err := g.storeImage(ctx, rn, img, sets[i], slug, meta)
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case errors.Is(err, ErrHostFull):
			// The site's storage is full: the request keeps nothing.
			return nil, err
		case errors.Is(err, errNoMediaURL):
			unkept++
			continue
		case err != nil:
			g.log.Warn("contentgen: image not stored", "provider", slug, "index", i+1, "err", err)
			// The cause, logged, may hold internal details.
			rn.warn("image %d from %s could not be stored and was skipped: the site refused it", i+1, slug)
			continue
		}
		ids[i] = id
		rn.count(ItemsStoredImages, i+1, len(reqs), "Image %d of %d stored (%dx%d)", i+1, len(reqs), img.Width, img.Height)
	}
	switch {
	case offline:
		// One warning per run, whatever kinds of image it wanted.
		rn.warn("%s could not be reached (no network?), so its images were skipped; %s draws images offline: choose it in the request or as the default_image_provider setting", slug, providers.Local)
	case skipped > 0:
		rn.warn("%d images from %s were skipped: the provider is unavailable (%s draws images offline)", skipped, slug, providers.Local)
	}
	if unkept > 0 {
		rn.warn("%d images from %s were left out: the site keeps no media files, and these images have no URL to be recorded by", unkept, slug)
	}
	return ids, nil
}

// errNoMediaURL is the error of storeImage for an image without a URL on
// a host that keeps no media files.
var errNoMediaURL = errors.New("contentgen: the host keeps no media files and the image has no URL")

// storeImage writes one image to the host as a generated media item and
// records it, in one tracked write: with its files where the host keeps
// them, else as a record of the URL it came from, or not at all
// (errNoMediaURL) when it has none.
func (g *Generator) storeImage(ctx context.Context, rn *run, img *providers.Image, set *imaging.Set, slug string, meta map[string]any) (int64, error) {
	m := Media{
		Title:    img.Title,
		Filename: fmt.Sprintf("contentgen-%s-%d.%s", rn.id, rn.r.Uint32(), img.Ext),
		MIMEType: img.MIMEType,
		URL:      img.Source,
		Width:    img.Width,
		Height:   img.Height,
		Filesize: int64(len(img.Data)),
		Date:     rn.now,
		Meta:     trackMeta(1),
	}
	m.Meta["_svc_image_provider"] = slug
	if m.Title == "" {
		m.Title = rn.w.MediaTitle()
	}
	if set != nil {
		m.Width, m.Height = set.Info.Width, set.Info.Height
		m.Sizes = sizesOf(set)
	}
	entryMeta := map[string]any{"provider": slug, "run_id": rn.id}
	for k, v := range meta {
		entryMeta[k] = v
	}
	write := func(files bool) ([]int64, error) {
		return g.writeTracked(ctx, batchWrite{kind: KindMedia, write: func(ctx context.Context, h Host) ([]int64, []history.Entry, error) {
			id, err := storeMedia(ctx, h, m, img.Data, files)
			if err != nil {
				return nil, nil, err
			}
			return []int64{id}, []history.Entry{{ContentType: history.TypeMedia, ContentID: id, ContentSubtype: "image", CreatedAt: rn.now, Meta: entryMeta}}, nil
		}})
	}
	files := g.files
	if !files && m.URL == "" {
		return 0, errNoMediaURL
	}
	ids, err := write(files)
	if files && errors.Is(err, errors.ErrUnsupported) && ctx.Err() == nil {
		// The host keeps no files after all, as it is set up.
		if m.URL == "" {
			return 0, errNoMediaURL
		}
		ids, err = write(false)
	}
	if err != nil {
		return 0, err
	}
	return ids[0], nil
}

// storeMedia stores m with its bytes when files is set and h keeps bytes,
// else as a record of m.URL, without sizes: they exist only as files.
func storeMedia(ctx context.Context, h Host, m Media, data []byte, files bool) (int64, error) {
	if st, ok := h.(MediaStorer); ok && files {
		return st.StoreMedia(ctx, m, data)
	}
	m.Sizes = nil
	ids, err := h.CreateMedia(ctx, []Media{m})
	if err != nil {
		return 0, err
	}
	return ids[0], nil
}

// imageFailure says why an image failed without internal details: the
// HTTP status of a provider's answer, or that it could not be reached;
// the error itself for providers of the embedding program. The cause is
// logged.
func imageFailure(err error) string {
	var se *providers.StatusError
	var ue *url.Error
	switch {
	case err == nil:
		return "no image"
	case errors.As(err, &se):
		return fmt.Sprintf("the provider answered HTTP %d", se.StatusCode)
	case errors.As(err, &ue), errors.Is(err, fetch.ErrUnreachable), errors.Is(err, fetch.ErrTimeout):
		return "the provider could not be reached"
	case errors.Is(err, imaging.ErrTooManyPixels):
		return "the image has more pixels than this server decodes"
	}
	return err.Error()
}

// runCoolDown keeps the breaker of a run open for the rest of the run.
const runCoolDown = 24 * time.Hour

// renditions makes the thumbnail and medium sizes of an image through the
// Generator's decoder, using its decoded pixels when the provider supplied
// them. An image over the decoder's pixel budget is an error; one that
// cannot be decoded otherwise (such as WebP) has no renditions.
func (g *Generator) renditions(ctx context.Context, img *providers.Image) (*imaging.Set, error) {
	var set *imaging.Set
	var err error
	if img.Pixels != nil {
		set, err = g.cfg.Decoder.RenditionsOf(ctx, img.Data, img.Pixels, nil)
	} else {
		set, err = g.cfg.Decoder.Renditions(ctx, img.Data, nil)
	}
	switch {
	case errors.Is(err, imaging.ErrTooManyPixels), ctx.Err() != nil:
		return nil, err
	case err != nil:
		return nil, nil
	}
	return set, nil
}

// featuredImages returns one media id per post (0 for none), fetching or
// picking images for the posts whose shape wants one. With topics (one per
// post) and no image category requested, each image is of its post's
// topic's category.
func (g *Generator) featuredImages(ctx context.Context, rn *run, p *postsPlan, shapes []postShape, topics []locales.Topic) ([]int64, error) {
	ids := make([]int64, len(shapes))
	if !p.featured {
		return ids, nil
	}
	var want []int
	for i := range shapes {
		if shapes[i].featured {
			want = append(want, i)
		}
	}
	if len(want) == 0 {
		return ids, nil
	}
	if !p.download {
		lib, err := g.host.Media(ctx, MediaQuery{MIMEPrefixes: []string{"image/"}, Limit: lookupLimit})
		if err != nil {
			return nil, failed(err, "listing media")
		}
		if len(lib) == 0 {
			rn.warn("download_images is false and the media library has no images; posts created without featured image")
			return ids, nil
		}
		for _, i := range want {
			ids[i] = lib[rn.r.IntN(len(lib))].ID
		}
		return ids, nil
	}
	prov, ok := g.images[p.provider]
	if !ok {
		rn.warn("image provider %s is not configured; posts created without featured image", p.provider)
		return ids, nil
	}
	reqs := make([]providers.ImageRequest, len(want))
	for k, i := range want {
		reqs[k] = providers.ImageRequest{Width: p.width, Height: p.height, Category: p.category, Seed: rn.r.Uint64()}
		if reqs[k].Category == "" && topics != nil {
			reqs[k].Category = topics[i].ImageCategory()
		}
		if !prov.Info().SupportsCategory {
			reqs[k].Category = ""
		}
	}
	media, err := g.fetchImages(ctx, rn, prov, reqs, map[string]any{"origin": "featured_image", "post_type": p.pt.Name})
	if err != nil {
		return nil, err
	}
	for k, i := range want {
		ids[i] = media[k]
	}
	return ids, nil
}
