package contentgen

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/contentgen/contentgen/contentgen/secrets"
	"github.com/contentgen/contentgen/locales"
	"github.com/contentgen/contentgen/providers"
)

// Settings are the settings of the service: the general ones and the AI
// part. Keys of AI providers are never part of them; AI.Keys holds their
// masked form.
//
// Each setting is one struct field, and its tags say everything else
// about it: json is its name in storage, on the wire and in errors,
// default its value until it is changed, and setting the values it takes:
//
//	locale          "auto" or a supported locale code (stored normalised)
//	count           1 to Config.MaxCount
//	rate            a number from 1 to 1,000,000
//	image_provider  the slug of an image provider (providers.Slugs)
//	ai_provider     AIOne, AITwo or AIThree
//	a|b|c           one of the words listed
//
// A field without a setting tag takes any value of its type. Adding a
// setting is adding a field (and its line in the documentation); the
// stored form, the patch and the HTTP form follow. The same tags describe
// the own settings an embedding program stores beside these (see
// SettingsService.GetWith).
type Settings struct {
	GeneralSettings
	AI AISettings
}

// GeneralSettings are the settings of generation and deletion.
type GeneralSettings struct {
	// Locale is the default language of generated content: "auto" (the
	// site's) or a locale code.
	Locale           string `json:"locale" setting:"locale" default:"auto"`
	DefaultPostCount int    `json:"default_post_count" setting:"count" default:"5"`
	DefaultTermCount int    `json:"default_term_count" setting:"count" default:"5"`
	DefaultUserCount int    `json:"default_user_count" setting:"count" default:"5"`
	// DeleteMediaWithPosts makes DeletePosts remove the generated featured
	// images of the posts it deletes.
	DeleteMediaWithPosts bool `json:"delete_media_with_posts"`
	// AutoSelectDefaultTemplate applies the post type's default template
	// to requests that name none.
	AutoSelectDefaultTemplate bool `json:"auto_select_default_template" default:"true"`
	// The DeleteRelated settings are the defaults of the options of the
	// same names of PostsRequest.
	DeleteRelatedMedia    bool   `json:"delete_related_media" default:"true"`
	DeleteRelatedTerms    bool   `json:"delete_related_terms" default:"true"`
	DeleteRelatedAuthors  bool   `json:"delete_related_authors" default:"true"`
	DeleteRelatedComments bool   `json:"delete_related_comments" default:"true"`
	DefaultImageProvider  string `json:"default_image_provider" setting:"image_provider" default:"provider_keyword"`
	// HourlyRate values the time saved, in USD.
	HourlyRate float64 `json:"hourly_rate" setting:"rate" default:"75"`
	// TextSource is "lorem" (Latin placeholder text), "realtext" (text
	// in the content's language; in a locale with topics every post is
	// about a topic, see "Topics" in the package documentation) or "ai"
	// (titles, bodies, excerpts and comments written by the AI provider of
	// the AI settings, about the topic realtext would choose; see "AI
	// text" in the package documentation).
	TextSource string `json:"text_source" setting:"realtext|lorem|ai" default:"lorem"`
}

// AISettings turn AI-assisted field detection on, with Provider and, with
// SecondaryEnabled, another provider that has a key as fallback.
type AISettings struct {
	Enabled          bool   `json:"ai_enabled"`
	Provider         string `json:"ai_provider" setting:"ai_provider" default:"ai_one"`
	SecondaryEnabled bool   `json:"ai_secondary_enabled"`
	// Keys maps each AI provider slug to its stored key, masked
	// ("********abcd"); "" when the provider has no key. In an update, a
	// changed value is the provider's new API key and "" removes it.
	Keys map[string]string `json:"-"`
}

// AI provider slugs.
const (
	AIOne   = "ai_one"
	AITwo   = "ai_two"
	AIThree = "ai_three"
)

// aiProviders are the AI provider slugs in order.
var aiProviders = []string{AIOne, AITwo, AIThree}

// stored is the persisted form of the settings, under one state key so
// that an update is one atomic read-modify-write. Keys holds ciphertexts.
// The record keeps the keys it does not know, those of an embedding
// program's own settings.
type stored struct {
	GeneralSettings
	AISettings
	Keys map[string]string `json:"ai_keys"`
}

const stateSettings = "settings"

// maxHourlyRate bounds the hourly_rate setting, so that the money saved
// stays a finite number.
const maxHourlyRate = 1_000_000

// SettingsService reads and changes the settings, AI keys included, and
// tests the AI connection.
type SettingsService struct{ g *Generator }

// Get returns the current settings.
func (s *SettingsService) Get(ctx context.Context) (Settings, error) { return s.GetWith(ctx, nil) }

// GetWith returns the current settings and decodes into ext, when it is
// not nil, the own settings an embedding program keeps in the same
// record: ext points to a struct whose fields are tagged like those of
// Settings, with json names of their own.
func (s *SettingsService) GetWith(ctx context.Context, ext any) (Settings, error) {
	raw, err := s.g.cfg.State.Load(ctx, stateSettings)
	if err != nil {
		return Settings{}, internal(err, "reading the settings")
	}
	st, err := decodeStored(raw)
	if err == nil && ext != nil {
		err = decodeExt(raw, ext)
	}
	if err != nil {
		return Settings{}, err
	}
	return s.public(&st), nil
}

// load reads the stored settings.
func (s *SettingsService) load(ctx context.Context) (Settings, error) { return s.Get(ctx) }

func (s *SettingsService) stored(ctx context.Context) (stored, error) {
	raw, err := s.g.cfg.State.Load(ctx, stateSettings)
	if err != nil {
		return stored{}, internal(err, "reading the settings")
	}
	return decodeStored(raw)
}

func decodeStored(raw []byte) (stored, error) {
	var st stored
	setDefaults(reflect.ValueOf(&st).Elem())
	if raw != nil {
		if err := json.Unmarshal(raw, &st); err != nil {
			st = stored{}
			setDefaults(reflect.ValueOf(&st).Elem())
			return st, internal(err, "decoding the settings")
		}
	}
	if !slices.Contains(aiProviders, st.Provider) {
		st.Provider = AIOne
	}
	return st, nil
}

// decodeExt sets ext to its defaults and decodes the stored record over
// them.
func decodeExt(raw []byte, ext any) error {
	v := reflect.ValueOf(ext)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return internal(fmt.Errorf("settings: %T is not a pointer to a struct", ext), "decoding the settings")
	}
	setDefaults(v.Elem())
	if raw != nil {
		if err := json.Unmarshal(raw, ext); err != nil {
			return internal(err, "decoding the settings")
		}
	}
	return nil
}

// public turns stored settings into Settings, masking the keys.
func (s *SettingsService) public(st *stored) Settings {
	out := Settings{GeneralSettings: st.GeneralSettings, AI: st.AISettings}
	out.AI.Keys = make(map[string]string, len(aiProviders))
	for _, slug := range aiProviders {
		out.AI.Keys[slug] = ""
		if c := st.Keys[slug]; c != "" {
			out.AI.Keys[slug] = "********"
			if key, err := s.openKey(c, slug); err == nil {
				out.AI.Keys[slug] = secrets.Mask(key)
			}
		}
	}
	return out
}

// Update calls patch on the current settings and stores what it changed,
// in one atomic read-modify-write, so that concurrent updates (also from
// other processes sharing the store) never lose each other's changes.
// Nothing is stored when a changed value is invalid; the error names the
// setting. API keys are encrypted with the configured keyring before they
// are stored. patch may be called more than once.
//
//	gen.Settings().Update(ctx, func(s *contentgen.Settings) { s.TextSource = "realtext" })
func (s *SettingsService) Update(ctx context.Context, patch func(*Settings)) (Settings, error) {
	return s.UpdateWith(ctx, nil, patch)
}

// UpdateWith is Update for the settings and, when ext is not nil, the own
// settings of an embedding program (see GetWith), which patch changes
// through ext. Both are validated by their tags and stored together.
func (s *SettingsService) UpdateWith(ctx context.Context, ext any, patch func(*Settings)) (Settings, error) {
	var out stored
	err := s.g.cfg.State.Update(ctx, stateSettings, func(old []byte) ([]byte, error) {
		st, err := decodeStored(old)
		if err != nil {
			return nil, err
		}
		var extBefore reflect.Value
		if ext != nil {
			if err := decodeExt(old, ext); err != nil {
				return nil, err
			}
			extBefore = reflect.New(reflect.TypeOf(ext).Elem()).Elem()
			extBefore.Set(reflect.ValueOf(ext).Elem())
		}
		before := s.public(&st)
		cur := before
		cur.AI.Keys = maps.Clone(before.AI.Keys)
		patch(&cur)
		v := validator{}
		s.checkChanged(&v, reflect.ValueOf(&before).Elem(), reflect.ValueOf(&cur).Elem())
		if ext != nil {
			s.checkChanged(&v, extBefore, reflect.ValueOf(ext).Elem())
		}
		if v.err != nil {
			return nil, v.err
		}
		st.GeneralSettings, st.AISettings = cur.GeneralSettings, cur.AI
		st.AISettings.Keys = nil // the masked keys; st.Keys holds the stored ones
		if err := s.applyKeys(&st, changedKeys(before.AI.Keys, cur.AI.Keys)); err != nil {
			return nil, err
		}
		out = st
		return mergeRecord(old, &st, ext)
	})
	if err != nil {
		return Settings{}, internal(err, "saving the settings")
	}
	return s.public(&out), nil
}

// changedKeys returns the entries of cur that differ from before, and ""
// for those patch removed.
func changedKeys(before, cur map[string]string) map[string]string {
	out := map[string]string{}
	for slug, key := range cur {
		if key != before[slug] {
			out[slug] = key
		}
	}
	for slug := range before {
		if _, ok := cur[slug]; !ok {
			out[slug] = ""
		}
	}
	return out
}

// mergeRecord encodes the stored record: old with the keys of st and ext
// replaced, so that the keys of others survive.
func mergeRecord(old []byte, parts ...any) ([]byte, error) {
	rec := map[string]json.RawMessage{}
	if old != nil {
		if err := json.Unmarshal(old, &rec); err != nil {
			return nil, internal(err, "decoding the settings")
		}
	}
	for _, p := range parts {
		if p == nil || reflect.ValueOf(p).IsNil() {
			continue
		}
		b, err := json.Marshal(p)
		if err != nil {
			return nil, internal(err, "encoding the settings")
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, internal(err, "encoding the settings")
		}
		maps.Copy(rec, m)
	}
	return json.Marshal(rec)
}

// setDefaults sets each field of the struct v from its default tag,
// descending into struct fields.
func setDefaults(v reflect.Value) {
	t := v.Type()
	for i := range t.NumField() {
		f, sf := v.Field(i), t.Field(i)
		if !sf.IsExported() {
			continue
		}
		if f.Kind() == reflect.Struct {
			setDefaults(f)
			continue
		}
		def, ok := sf.Tag.Lookup("default")
		if !ok {
			continue
		}
		var err error
		switch f.Kind() {
		case reflect.String:
			f.SetString(def)
		case reflect.Bool:
			var b bool
			b, err = strconv.ParseBool(def)
			f.SetBool(b)
		case reflect.Int, reflect.Int64:
			var n int64
			n, err = strconv.ParseInt(def, 10, 64)
			f.SetInt(n)
		case reflect.Float64:
			var x float64
			x, err = strconv.ParseFloat(def, 64)
			f.SetFloat(x)
		default:
			err = fmt.Errorf("unsupported kind %s", f.Kind())
		}
		if err != nil {
			panic(fmt.Sprintf("contentgen: the default of setting %s.%s: %v", t.Name(), sf.Name, err))
		}
	}
}

// checkChanged validates, by its setting tag, each field of the struct cur
// that differs from before, normalising it in place.
func (s *SettingsService) checkChanged(v *validator, before, cur reflect.Value) {
	t := cur.Type()
	for i := range t.NumField() {
		f, sf := cur.Field(i), t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if !sf.IsExported() || name == "-" {
			continue
		}
		if f.Kind() == reflect.Struct {
			s.checkChanged(v, before.Field(i), f)
			continue
		}
		if rule := sf.Tag.Get("setting"); rule != "" && !f.Equal(before.Field(i)) {
			if err := s.checkSetting(name, rule, f); err != nil {
				v.fail(err)
			}
		}
	}
}

// checkSetting checks the value f of the setting param against rule,
// normalising it.
func (s *SettingsService) checkSetting(param, rule string, f reflect.Value) error {
	oneOf := func(allowed ...string) error {
		if x := f.String(); !slices.Contains(allowed, x) {
			return invalid(param, "%s must be one of %v, got %q", param, allowed, x)
		}
		return nil
	}
	switch rule {
	case "locale":
		x := f.String()
		if x == "auto" {
			return nil
		}
		code, ok := s.g.cfg.Locales.Match(x)
		if !ok {
			return invalid(param, "%s must be \"auto\" or a supported locale code, got %q", param, x)
		}
		f.SetString(code)
	case "count":
		if n := f.Int(); n < 1 || n > int64(s.g.cfg.MaxCount) {
			return invalid(param, "%s must be between %d and %d, got %d", param, 1, s.g.cfg.MaxCount, n)
		}
	case "rate":
		if r := f.Float(); math.IsNaN(r) || r < 1 || r > maxHourlyRate {
			return invalid(param, "%s must be a number from 1 to %d", param, maxHourlyRate)
		}
	case "image_provider":
		return oneOf(providers.Slugs()...)
	case "ai_provider":
		// The AI settings' own name for it.
		param = "provider"
		return oneOf(aiProviders...)
	default:
		return oneOf(strings.Split(rule, "|")...)
	}
	return nil
}

// applyKeys encrypts and stores the API keys of keys; "" removes one.
func (s *SettingsService) applyKeys(st *stored, keys map[string]string) error {
	for _, slug := range slices.Sorted(maps.Keys(keys)) {
		param := slug + "_api_key"
		if !slices.Contains(aiProviders, slug) {
			return invalid(param, "%s: %q is not an AI provider; known: %v", param, slug, aiProviders)
		}
		key := strings.TrimSpace(keys[slug])
		if key == "" {
			delete(st.Keys, slug)
			continue
		}
		if len(key) > 512 || strings.IndexFunc(key, unicode.IsControl) >= 0 || strings.ContainsRune(key, ' ') {
			return invalid(param, "%s must be a single token of at most 512 printable characters", param)
		}
		kr := s.g.cfg.AIKeyring
		if kr == nil {
			return &Error{Code: CodeInternal, Param: param, Message: "API keys cannot be stored: the server has no encryption key configured"}
		}
		if st.Keys == nil {
			st.Keys = map[string]string{}
		}
		st.Keys[slug] = kr.SealString(key, keyPurpose, slug)
	}
	return nil
}

// Languages lists the locales valid as the locale of generation requests
// and the default one: the locale setting, with "auto" resolved to the
// site's language.
func (s *SettingsService) Languages(ctx context.Context) ([]locales.Locale, string, error) {
	st, err := s.load(ctx)
	if err != nil {
		return nil, "", err
	}
	def, err := s.g.resolveLocale(ctx, "", st)
	if err != nil {
		return nil, "", err
	}
	return s.g.cfg.Locales.List(), def, nil
}
