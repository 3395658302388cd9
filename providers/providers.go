package providers

import (
	"context"
	"errors"
	"fmt"
	"image"
	"maps"
)

// Image provider slugs of the specification.
const (
	Keyword = "provider_keyword"
	Curated = "provider_curated"
	Random  = "provider_random"
	Local   = "provider_local"
)

// MinImageSize and MaxImageSize bound ImageRequest.Width and Height. The
// specification limits requested images to 100-4000 pixels; the lower
// bound here is smaller so that avatars and renditions can be made too.
const (
	MinImageSize = 16
	MaxImageSize = 4000
)

// Slugs returns the built-in image provider slugs. The slice is new on
// every call.
func Slugs() []string { return []string{Keyword, Curated, Random, Local} }

// IsSlug reports whether s is a built-in image provider slug.
func IsSlug(s string) bool { return s == Keyword || s == Curated || s == Random || s == Local }

// Categories returns the image category slugs mapped to their labels. The
// map is new on every call.
func Categories() map[string]string { return maps.Clone(categories) }

// IsCategory reports whether s is an image category slug.
func IsCategory(s string) bool { _, ok := categories[s]; return ok }

// categories is never modified; Categories hands out copies.
var categories = map[string]string{
	"nature":       "Nature",
	"architecture": "Architecture",
	"people":       "People",
	"food":         "Food",
	"business":     "Business",
	"technology":   "Technology",
	"animals":      "Animals",
	"sports":       "Sports",
	"travel":       "Travel",
	"abstract":     "Abstract",
	"real-estate":  "Real Estate",
	"interior":     "Interior",
	"exterior":     "Exterior",
	"portrait":     "Portrait",
}

// ErrNotConfigured is returned by Fetch when a provider lacks what it needs
// (for example an API key).
var ErrNotConfigured = errors.New("providers: provider not configured")

// Info describes an image provider.
type Info struct {
	// Slug identifies the provider, one of Slugs for the built-in ones.
	Slug string `json:"-"`
	// Name is the service's display name.
	Name string `json:"name"`
	// Description says where the images come from.
	Description string `json:"description"`
	// URL is the service's home page, empty for the local provider.
	URL string `json:"url"`
	// SupportsCategory is true when ImageRequest.Category has an effect.
	SupportsCategory bool `json:"supports_category"`
	// RequiresAPIKey is true when the service needs a key.
	RequiresAPIKey bool `json:"requires_api_key"`
	// Configured is true when the provider can be used as set up.
	Configured bool `json:"configured"`
}

// ImageRequest asks for one image.
type ImageRequest struct {
	// Width and Height in pixels, 100-4000.
	Width, Height int
	// Category is a key of Categories or empty; providers without category
	// support ignore it.
	Category string
	// Seed makes providers that can be deterministic (the local one) return
	// the same image for the same seed.
	Seed uint64
	// Caption is optional text a generating provider may draw on the image.
	Caption string
}

// Validate reports ErrInvalidSize (wrapped, naming the field) when Width or
// Height is outside MinImageSize..MaxImageSize. It does not check Category:
// providers ignore categories they do not know.
func (r ImageRequest) Validate() error {
	if r.Width < MinImageSize || r.Width > MaxImageSize {
		return fmt.Errorf("%w: width %d not in %d-%d", ErrInvalidSize, r.Width, MinImageSize, MaxImageSize)
	}
	if r.Height < MinImageSize || r.Height > MaxImageSize {
		return fmt.Errorf("%w: height %d not in %d-%d", ErrInvalidSize, r.Height, MinImageSize, MaxImageSize)
	}
	return nil
}

// CategorySlugs returns the keys of Categories in the specification's
// order. The slice is new on every call.
func CategorySlugs() []string {
	return []string{
		"nature", "architecture", "people", "food", "business", "technology", "animals",
		"sports", "travel", "abstract", "real-estate", "interior", "exterior", "portrait",
	}
}

// Image is a fetched or generated image.
type Image struct {
	// Data is the encoded image, checked to be of MIMEType.
	Data []byte
	// MIMEType is the media type, such as "image/jpeg".
	MIMEType string
	// Ext is the file extension without the dot, such as "jpg".
	Ext string
	// Width and Height are the real pixel size of Data.
	Width, Height int
	// Title is a human-readable title for the media library; empty when
	// the provider knows none, so that the caller makes one up.
	Title string
	// Source is where the image came from (a URL), empty for generated ones.
	Source string
	// Credit names the author when the service reports one (plain text),
	// empty otherwise.
	Credit string
	// License is the licence short name when the service reports one, such
	// as "CC BY-SA 4.0".
	License string
	// Pixels, when set, is the decoded image of Data, so that a caller
	// making smaller renditions need not decode Data again.
	Pixels image.Image
	// Release, when set, hands Pixels back to the provider for reuse: call
	// it once, after the last use of Pixels. A caller that never calls it
	// loses nothing but the reuse.
	Release func()
}

// ImageProvider fetches or makes images. Implementations must be safe for
// concurrent use and must return promptly with ctx.Err() (possibly
// wrapped) when ctx is done.
type ImageProvider interface {
	// Info describes the provider; Info().Slug identifies it.
	Info() Info
	// Image returns one image for req. The returned Data has been checked to
	// be an image of MIMEType.
	Image(ctx context.Context, req ImageRequest) (*Image, error)
}

// Field is a custom field as a detector sees it.
type Field struct {
	Key          string
	Name         string
	Label        string
	Type         string
	Instructions string
	Choices      []string
}

// Detection is the semantic type a detector assigned to one field.
type Detection struct {
	// Key is the Field.Key it belongs to.
	Key string
	// Type is a semantic type such as "email", "price" or "city".
	Type string
	// Confidence is between 0 and 1.
	Confidence float64
}

// FieldDetector assigns semantic types to custom fields, for example by
// asking an AI model. Implementations must be safe for concurrent use and
// honour ctx.
type FieldDetector interface {
	// Name identifies the detector (an AI provider slug).
	Name() string
	// Detect returns detections for the fields it could place; fields it
	// could not place are left out. known lists the semantic types the
	// caller understands; detections of other types must be dropped.
	Detect(ctx context.Context, postType string, fields []Field, known []string) ([]Detection, error)
}
