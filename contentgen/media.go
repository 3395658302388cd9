package contentgen

import (
	"context"
	"fmt"
	"sync"

	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/imaging"
)

// fetchImages fetches one image per request from prov with bounded
// concurrency, stores each in the host and tracks it. The result has one
// media id per request, 0 where the image failed; failures are warnings,
// never errors. Only a host or history failure returns an error.
func (g *Generator) fetchImages(ctx context.Context, rn *run, prov providers.ImageProvider, reqs []providers.ImageRequest, meta map[string]any) ([]int64, error) {
	imgs := make([]*providers.Image, len(reqs))
	sets := make([]*imaging.Set, len(reqs))
	errs := make([]error, len(reqs))
	sem := make(chan struct{}, g.imageConc)
	var wg sync.WaitGroup
	for i := range reqs {
		if ctx.Err() != nil {
			errs[i] = ctx.Err()
			continue
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			imgs[i], errs[i] = prov.Image(ctx, reqs[i])
			if errs[i] == nil && imgs[i] != nil {
				sets[i] = renditions(ctx, imgs[i])
				if imgs[i].Release != nil {
					imgs[i].Release()
					imgs[i].Pixels, imgs[i].Release = nil, nil
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ids := make([]int64, len(reqs))
	slug := prov.Info().Slug
	for i, img := range imgs {
		if errs[i] != nil || img == nil {
			rn.warn("image %d from %s failed and was skipped: %v", i+1, slug, errs[i])
			continue
		}
		id, err := g.storeImage(ctx, rn, img, sets[i], slug, meta)
		if err != nil {
			return nil, err
		}
		ids[i] = id
		rn.info("Image %d of %d stored (%dx%d)", i+1, len(reqs), img.Width, img.Height)
	}
	return ids, nil
}

// storeImage writes one image to the host as a generated media item and
// records it.
func (g *Generator) storeImage(ctx context.Context, rn *run, img *providers.Image, set *imaging.Set, slug string, meta map[string]any) (int64, error) {
	m := Media{
		Title:    img.Title,
		Filename: fmt.Sprintf("contentgen-%s-%d.%s", rn.id, rn.r.Uint32(), img.Ext),
		MIMEType: img.MIMEType,
		URL:      img.Source,
		Width:    img.Width,
		Height:   img.Height,
		Filesize: int64(len(img.Data)),
		Date:     g.now(),
		Meta:     trackMeta(1),
	}
	m.Meta["_svc_image_provider"] = slug
	if m.Title == "" {
		m.Title = rn.w.Title()
	}
	if set != nil {
		m.Width, m.Height = set.Info.Width, set.Info.Height
		m.Sizes = sizesOf(set)
	}
	var id int64
	var err error
	if st, ok := g.host.(MediaStorer); ok {
		id, err = st.StoreMedia(ctx, m, img.Data)
	} else {
		var ids []int64
		ids, err = g.host.CreateMedia(ctx, []Media{m})
		if err == nil {
			id = ids[0]
		}
	}
	if err != nil {
		return 0, failed(err, "storing an image")
	}
	entryMeta := map[string]any{"provider": slug, "run_id": rn.id}
	for k, v := range meta {
		entryMeta[k] = v
	}
	entry := []history.Entry{{ContentType: history.TypeMedia, ContentID: id, ContentSubtype: "image", Meta: entryMeta}}
	if err := g.record(ctx, entry, func(ctx context.Context) error { return g.host.DeleteMedia(ctx, []int64{id}) }); err != nil {
		return 0, err
	}
	return id, nil
}

// renditions makes the thumbnail and medium sizes of an image, using its
// decoded pixels when the provider supplied them; nil when the image has
// none (such as WebP, which is stored without renditions).
func renditions(ctx context.Context, img *providers.Image) *imaging.Set {
	var set *imaging.Set
	var err error
	if img.Pixels != nil {
		set, err = imaging.RenditionsOf(ctx, img.Data, img.Pixels, nil)
	} else {
		set, err = imaging.Renditions(ctx, img.Data, nil)
	}
	if err != nil {
		return nil
	}
	return set
}
