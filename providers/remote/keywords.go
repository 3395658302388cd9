package remote

import "github.com/contentgen/contentgen/providers"

// keywordTable maps each category to search words per provider: the
// first column for LoremFlickr (tags joined with commas, any may match),
// the second for Wikimedia Commons (one word per search, picked by seed).
var keywordTable = [...]struct {
	category string
	flickr   []string
	commons  []string
}{
	{"nature", []string{"nature", "landscape"}, []string{"landscape", "mountain", "forest", "waterfall", "lake"}},
	{"architecture", []string{"architecture", "building"}, []string{"architecture", "cathedral", "skyscraper", "bridge", "church interior"}},
	{"people", []string{"people", "crowd"}, []string{"people", "market", "festival", "dancer"}},
	{"food", []string{"food", "meal"}, []string{"food", "dish", "fruit", "bread"}},
	{"business", []string{"business", "office"}, []string{"office", "shop", "factory", "harbour"}},
	{"technology", []string{"technology", "computer"}, []string{"computer", "engine", "machine", "satellite"}},
	{"animals", []string{"animals", "wildlife"}, []string{"bird", "mammal", "insect", "animal"}},
	{"sports", []string{"sports", "stadium"}, []string{"sport", "football", "race", "stadium"}},
	{"travel", []string{"travel", "landmark"}, []string{"landmark", "beach", "old town", "harbor"}},
	{"abstract", []string{"abstract", "pattern"}, []string{"pattern", "texture", "macro", "light"}},
	{"real-estate", []string{"house", "home"}, []string{"house", "villa", "mansion", "cottage"}},
	{"interior", []string{"interior", "livingroom"}, []string{"interior", "hall", "library", "staircase"}},
	{"exterior", []string{"facade", "house"}, []string{"facade", "building", "castle", "palace"}},
	{"portrait", []string{"portrait", "face"}, []string{"portrait", "face", "woman", "man"}},
}

// KeywordsFor returns the search words a provider uses for a category, or
// nil when the provider has no categories (provider_random, and the local
// one, which draws them) or the category is empty or unknown. The slice is
// new on every call.
func KeywordsFor(slug, category string) []string {
	for _, e := range keywordTable {
		if e.category != category {
			continue
		}
		switch slug {
		case providers.Keyword:
			return append([]string(nil), e.flickr...)
		case providers.Curated:
			return append([]string(nil), e.commons...)
		}
	}
	return nil
}
