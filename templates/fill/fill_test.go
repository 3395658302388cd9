package fill_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/fields"
	"github.com/contentgen/contentgen/templates/fill"
)

func f64(v float64) *float64 { return &v }

func newFiller(seed uint64, opts *fill.Options) *fill.Filler {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	return fill.New(r, fill.NewLoremText(r), opts)
}

// pools is a Lookup over fixed ids per kind and target, with media URLs.
type pools map[string][]int64

func (p pools) IDs(_ context.Context, kind fill.RefKind, targets []string) ([]int64, error) {
	if len(targets) == 0 {
		return p[string(kind)], nil
	}
	var out []int64
	for _, t := range targets {
		out = append(out, p[string(kind)+":"+t]...)
	}
	return out, nil
}

// fillResolved fills fields and resolves their relations from sitePools.
func fillResolved(t testing.TB, g *fill.Filler, defs []fields.Field) map[string]any {
	t.Helper()
	v, err := g.Resolve(context.Background(), g.Fill(defs, nil), sitePools)
	if err != nil {
		t.Fatal(err)
	}
	return v.(map[string]any)
}

func (p pools) URL(_ context.Context, kind fill.RefKind, id int64) (string, error) {
	return "https://media.example.com/" + strconv.FormatInt(id, 10) + ".jpg", nil
}

var sitePools = pools{
	"post:author":    {11, 12, 13},
	"post:publisher": {21, 22},
	"post":           {11, 12, 13, 21, 22, 31},
	"term:genre":     {41, 42, 43, 44},
	"user:editor":    {51, 52},
	"user":           {51, 52, 53},
	"media":          {61, 62, 63, 64, 65, 66},
}

// phpLayout converts the PHP date formats used below to Go layouts.
func phpLayout(php string) string {
	r := strings.NewReplacer("d", "02", "m", "01", "Y", "2006", "H", "15", "i", "04", "s", "05", "g", "3", "a", "pm", "j", "2", "n", "1", "F", "January")
	return r.Replace(php)
}

func requireOnStep(t *testing.T, v, lo, step float64) {
	t.Helper()
	k := (v - lo) / step
	require.InDelta(t, math.Round(k), k, 1e-6, "%v is on the grid %v + k*%v", v, lo, step)
}

func asFloat(t *testing.T, v any) float64 {
	t.Helper()
	switch x := v.(type) {
	case int:
		return float64(x)
	case float64:
		return x
	}
	t.Fatalf("%T %v is not a number", v, v)
	return 0
}

func choiceValues(cs []fields.Choice) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Value
	}
	return out
}

var genreChoices = []fields.Choice{{Value: "crime", Label: "Crime"}, {Value: "fantasy", Label: "Fantasy"}, {Value: "history", Label: "History"}, {Value: "romance", Label: "Romance"}}

// TestFieldTypesRespectSettings generates each field type many times and
// checks every value against the field's own settings.
func TestFieldTypesRespectSettings(t *testing.T) {
	t.Parallel()
	cases := []struct {
		field fields.Field
		opts  fill.Options
		check func(t *testing.T, f *fields.Field, v any)
	}{
		{fields.Field{Name: "subtitle", Type: "text", MaxLength: 12}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			s := v.(string)
			require.NotEmpty(t, s)
			require.LessOrEqual(t, utf8.RuneCountInString(s), 12)
		}},
		{fields.Field{Name: "blurb", Type: "textarea", MaxLength: 280}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			require.NotEmpty(t, v)
			require.LessOrEqual(t, utf8.RuneCountInString(v.(string)), 280)
		}},
		{fields.Field{Name: "price", Type: "number", Min: f64(0.99), Max: f64(99.99), Step: f64(0.01), DetectedType: "price"}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			x := asFloat(t, v)
			require.GreaterOrEqual(t, x, 0.99)
			require.LessOrEqual(t, x, 99.99)
			requireOnStep(t, x, 0.99, 0.01)
		}},
		{fields.Field{Name: "pages", Type: "number", Min: f64(40), Max: f64(1200)}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			x, ok := v.(int)
			require.True(t, ok, "whole numbers are ints, got %T", v)
			require.GreaterOrEqual(t, x, 40)
			require.LessOrEqual(t, x, 1200)
		}},
		{fields.Field{Name: "rating", Type: "range", Min: f64(1), Max: f64(5), Step: f64(0.5)}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			x := asFloat(t, v)
			require.GreaterOrEqual(t, x, 1.0)
			require.LessOrEqual(t, x, 5.0)
			requireOnStep(t, x, 1, 0.5)
		}},
		{fields.Field{Name: "temperature", Type: "number", Min: f64(-40), Max: f64(-10), Step: f64(5)}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			x := asFloat(t, v)
			require.GreaterOrEqual(t, x, -40.0)
			require.LessOrEqual(t, x, -10.0)
			requireOnStep(t, x, -40, 5)
		}},
		{fields.Field{Name: "contact", Type: "email", MaxLength: 20}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			s := v.(string)
			require.Regexp(t, `^[a-z0-9.]+@example\.(com|org|net)$`, s)
			require.LessOrEqual(t, len(s), 20)
		}},
		{fields.Field{Name: "site", Type: "url"}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			u, err := url.Parse(v.(string))
			require.NoError(t, err)
			require.Equal(t, "https", u.Scheme)
			require.True(t, strings.HasSuffix(u.Host, "example.com") || strings.HasSuffix(u.Host, "example.org") || strings.HasSuffix(u.Host, "example.net"))
		}},
		{fields.Field{Name: "secret", Type: "password", MaxLength: 10}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			require.Len(t, v.(string), 10)
		}},
		{fields.Field{Name: "format", Type: "select", Choices: genreChoices}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			require.Contains(t, choiceValues(f.Choices), v)
		}},
		{fields.Field{Name: "formats", Type: "select", Multiple: true, Choices: genreChoices, ReturnFormat: "label"}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			list := v.([]any)
			require.NotEmpty(t, list)
			labels := []any{"Crime", "Fantasy", "History", "Romance"}
			seen := map[any]bool{}
			for _, e := range list {
				require.Contains(t, labels, e, "return format label gives labels")
				require.False(t, seen[e], "no choice twice")
				seen[e] = true
			}
		}},
		{fields.Field{Name: "genres", Type: "checkbox", Choices: genreChoices}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			list := v.([]any)
			require.NotEmpty(t, list)
			require.LessOrEqual(t, len(list), len(f.Choices))
			idx := -1
			for _, e := range list {
				i := slices.Index(choiceValues(f.Choices), e.(string))
				require.Greater(t, i, idx, "checked values keep the choices' order, without repeats")
				idx = i
			}
		}},
		{fields.Field{Name: "audience", Type: "radio", Choices: genreChoices, ReturnFormat: "array"}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			m := v.(map[string]any)
			i := slices.Index(choiceValues(f.Choices), m["value"].(string))
			require.GreaterOrEqual(t, i, 0)
			require.Equal(t, f.Choices[i].Label, m["label"])
		}},
		{fields.Field{Name: "audience", Type: "radio", Choices: genreChoices, ReturnFormat: "label"}, fill.Options{StorageFormat: true}, func(t *testing.T, f *fields.Field, v any) {
			require.Contains(t, choiceValues(f.Choices), v, "storage format keeps values whatever the return format")
		}},
		{fields.Field{Name: "agree", Type: "true_false", Required: true}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			require.Equal(t, true, v, "a required true_false must be checked")
		}},
		{fields.Field{Name: "in_print", Type: "true_false"}, fill.Options{StorageFormat: true}, func(t *testing.T, f *fields.Field, v any) {
			require.Contains(t, []any{0, 1}, v)
		}},
		{fields.Field{Name: "published", Type: "date_picker", ReturnFormat: "Y-m-d"}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			d, err := time.Parse("2006-01-02", v.(string))
			require.NoError(t, err)
			require.WithinDuration(t, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), d, 366*24*time.Hour)
		}},
		{fields.Field{Name: "published", Type: "date_picker"}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			_, err := time.Parse(phpLayout("d/m/Y"), v.(string))
			require.NoError(t, err, "ACF's default return format d/m/Y")
		}},
		{fields.Field{Name: "published", Type: "date_picker", ReturnFormat: "F j, Y"}, fill.Options{StorageFormat: true}, func(t *testing.T, f *fields.Field, v any) {
			require.Regexp(t, `^\d{8}$`, v, "ACF stores dates as Ymd")
		}},
		{fields.Field{Name: "born", Type: "date_picker", ReturnFormat: "Y-m-d", DetectedType: "birth_date"}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			d, err := time.Parse("2006-01-02", v.(string))
			require.NoError(t, err)
			age := 2025 - d.Year()
			require.GreaterOrEqual(t, age, 18)
			require.LessOrEqual(t, age, 82)
		}},
		{fields.Field{Name: "start", Type: "date_time_picker", ReturnFormat: "d.m.Y H:i"}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			_, err := time.Parse("02.01.2006 15:04", v.(string))
			require.NoError(t, err)
		}},
		{fields.Field{Name: "start", Type: "date_time_picker"}, fill.Options{StorageFormat: true}, func(t *testing.T, f *fields.Field, v any) {
			_, err := time.Parse(time.DateTime, v.(string))
			require.NoError(t, err)
		}},
		{fields.Field{Name: "doors", Type: "time_picker"}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			_, err := time.Parse("3:04 pm", v.(string))
			require.NoError(t, err, "default g:i a")
		}},
		{fields.Field{Name: "spine", Type: "color_picker"}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			require.Regexp(t, `^#[0-9a-f]{6}$`, v)
		}},
		{fields.Field{Name: "tint", Type: "color_picker", EnableOpacity: true}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			require.Regexp(t, `^rgba\(\d{1,3},\d{1,3},\d{1,3},(0\.\d|1)\)$`, v)
		}},
		{fields.Field{Name: "authors", Type: "relationship", PostTypes: []string{"author"}, Min: f64(1), Max: f64(2)}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			ids := v.([]int64)
			require.NotEmpty(t, ids)
			require.LessOrEqual(t, len(ids), 2)
			for _, id := range ids {
				require.Contains(t, sitePools["post:author"], id, "relations point at posts of the target type")
			}
		}},
		{fields.Field{Name: "publisher", Type: "post_object", PostTypes: []string{"publisher"}}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			require.Contains(t, sitePools["post:publisher"], v.(int64))
		}},
		{fields.Field{Name: "speakers", Type: "post_object", Multiple: true, PostTypes: []string{"author"}, Max: f64(3)}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			ids := v.([]int64)
			require.NotEmpty(t, ids)
			require.LessOrEqual(t, len(ids), 3)
			require.Len(t, slices.Compact(slices.Sorted(slices.Values(ids))), len(ids), "no id twice")
		}},
		{fields.Field{Name: "genre", Type: "taxonomy", Taxonomy: "genre", Multiple: true, Max: f64(2)}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			ids := v.([]int64)
			require.NotEmpty(t, ids)
			require.LessOrEqual(t, len(ids), 2)
			for _, id := range ids {
				require.Contains(t, sitePools["term:genre"], id)
			}
		}},
		{fields.Field{Name: "editor", Type: "user", Roles: []string{"editor"}}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			require.Contains(t, sitePools["user:editor"], v.(int64))
		}},
		{fields.Field{Name: "cover", Type: "image", ReturnFormat: "url"}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			require.Regexp(t, `^https://media\.example\.com/6\d\.jpg$`, v)
		}},
		{fields.Field{Name: "cover", Type: "image", ReturnFormat: "url"}, fill.Options{StorageFormat: true}, func(t *testing.T, f *fields.Field, v any) {
			require.Contains(t, sitePools["media"], v.(int64), "ACF stores attachment ids")
		}},
		{fields.Field{Name: "sample", Type: "file", ReturnFormat: "array"}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			m := v.(map[string]any)
			require.Contains(t, sitePools["media"], m["id"])
			require.NotEmpty(t, m["url"])
		}},
		{fields.Field{Name: "photos", Type: "gallery", Min: f64(2), Max: f64(4)}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			ids := v.([]int64)
			require.GreaterOrEqual(t, len(ids), 2)
			require.LessOrEqual(t, len(ids), 4)
		}},
		{fields.Field{Name: "schedule", Type: "repeater", Min: f64(1), Max: f64(3), SubFields: []fields.Field{
			{Name: "time", Type: "time_picker", ReturnFormat: "H:i"}, {Name: "speaker", Type: "post_object", PostTypes: []string{"author"}},
		}}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			rows := v.([]map[string]any)
			require.GreaterOrEqual(t, len(rows), 1)
			require.LessOrEqual(t, len(rows), 3)
			for _, row := range rows {
				require.Regexp(t, `^\d\d:\d\d$`, row["time"])
				require.Contains(t, sitePools["post:author"], row["speaker"], "relations inside rows are resolved too")
			}
		}},
		{fields.Field{Name: "organiser", Type: "group", SubFields: []fields.Field{
			{Name: "firma", Type: "text", DetectedType: "company"}, {Name: "fee", Type: "number", Min: f64(0), Max: f64(250)},
		}}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			m := v.(map[string]any)
			require.Len(t, m, 2)
			require.NotEmpty(t, m["firma"])
			x := asFloat(t, m["fee"])
			require.GreaterOrEqual(t, x, 0.0)
			require.LessOrEqual(t, x, 250.0)
		}},
		{fields.Field{Name: "tickets", Type: "link"}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			m := v.(map[string]any)
			require.NotEmpty(t, m["title"])
			require.True(t, strings.HasPrefix(m["url"].(string), "https://"))
			require.Contains(t, []any{"", "_blank"}, m["target"])
		}},
		{fields.Field{Name: "tickets", Type: "link", ReturnFormat: "url"}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			require.True(t, strings.HasPrefix(v.(string), "https://"))
		}},
		{fields.Field{Name: "venue", Type: "google_map"}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			m := v.(map[string]any)
			require.NotEmpty(t, m["address"])
			lat, lng := m["lat"].(float64), m["lng"].(float64)
			require.True(t, lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180)
		}},
		{fields.Field{Name: "review", Type: "wysiwyg"}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			require.True(t, strings.HasPrefix(v.(string), "<p>"))
			require.Equal(t, strings.Count(v.(string), "<p>"), strings.Count(v.(string), "</p>"))
		}},
		{fields.Field{Name: "mystery", Type: "oembed"}, fill.Options{}, func(t *testing.T, f *fields.Field, v any) {
			require.NotEmpty(t, v, "unknown types still get short text")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.field.Name+"/"+tc.field.Type+"/"+tc.field.ReturnFormat, func(t *testing.T) {
			t.Parallel()
			opts := tc.opts
			g := newFiller(uint64(len(tc.field.Name)), &opts)
			for range 200 {
				v, ok := g.Value(&tc.field, nil)
				require.True(t, ok)
				v, err := g.Resolve(context.Background(), v, sitePools)
				require.NoError(t, err)
				tc.check(t, &tc.field, v)
			}
		})
	}
}

func TestSemanticValues(t *testing.T) {
	t.Parallel()
	isbnOK := func(s string) bool {
		d := strings.ReplaceAll(s, "-", "")
		if len(d) != 13 {
			return false
		}
		sum := 0
		for i, c := range d {
			w := 1
			if i%2 == 1 {
				w = 3
			}
			sum += int(c-'0') * w
		}
		return sum%10 == 0
	}
	ibanOK := func(s string) bool {
		re := s[4:] + "1314" + s[2:4]
		rem := 0
		for _, c := range re {
			rem = (rem*10 + int(c-'0')) % 97
		}
		return rem == 1
	}
	checks := map[string]func(string) bool{
		"email":      regexp.MustCompile(`^[a-z0-9.]+@example\.(com|org|net)$`).MatchString,
		"phone":      regexp.MustCompile(`^\+(1 555-01\d\d|44 20 7946 0\d{3})$`).MatchString,
		"url":        regexp.MustCompile(`^https://www\.example\.(com|org|net)/[a-z-]+$`).MatchString,
		"postcode":   regexp.MustCompile(`^\d{5}$`).MatchString,
		"isbn":       isbnOK,
		"iban":       func(s string) bool { return strings.HasPrefix(s, "DE") && len(s) == 22 && ibanOK(s) },
		"ip_address": regexp.MustCompile(`^(192\.0\.2|198\.51\.100|203\.0\.113)\.\d{1,3}$`).MatchString,
		"sku":        regexp.MustCompile(`^[A-Z]{3}-\d{5}$`).MatchString,
		"color":      regexp.MustCompile(`^#[0-9a-f]{6}$`).MatchString,
		"date":       regexp.MustCompile(`^\d{4}-\d\d-\d\d$`).MatchString,
		"price":      regexp.MustCompile(`^\d{1,3}\.\d\d$`).MatchString,
		"latitude":   func(s string) bool { v, err := strconv.ParseFloat(s, 64); return err == nil && v >= -90 && v <= 90 },
		"first_name": func(s string) bool { return s != "" && !strings.Contains(s, " ") },
		"full_name":  func(s string) bool { return strings.Count(s, " ") >= 1 },
		"username":   regexp.MustCompile(`^[a-z0-9]+\.[a-z0-9]+\d+$`).MatchString,
	}
	g := newFiller(7, nil)
	for sem, ok := range checks {
		f := fields.Field{Name: "x", Type: "text", DetectedType: sem}
		for range 50 {
			v, set := g.Value(&f, nil)
			require.True(t, set)
			require.True(t, ok(v.(string)), "%s value %q", sem, v)
		}
	}
	// Numbers keep to the semantic's plausible range inside the field's.
	for range 100 {
		v, _ := g.Value(&fields.Field{Name: "stars", Type: "number", DetectedType: "rating", Max: f64(10)}, nil)
		x := asFloat(t, v)
		require.True(t, x >= 1 && x <= 5, "rating %v", x)
		v, _ = g.Value(&fields.Field{Name: "year", Type: "number", DetectedType: "year"}, nil)
		require.LessOrEqual(t, asFloat(t, v), 2025.0, "years are not in the future of FillOptions.Now")
	}
}

func TestModes(t *testing.T) {
	t.Parallel()
	optional := fields.Field{Name: "subtitle", Type: "text"}
	required := fields.Field{Name: "isbn", Type: "text", Required: true, DetectedType: "isbn"}
	none := &templates.FieldSetting{Mode: templates.ModeNone}
	g := newFiller(1, nil)

	_, ok := g.Value(&optional, none)
	require.False(t, ok, "mode none leaves an optional field unset")
	v, ok := g.Value(&required, none)
	require.True(t, ok, "a required field is filled even under none")
	require.NotEmpty(t, v)

	values := []any{"hardcover", "paperback", "ebook"}
	rotate := &templates.FieldSetting{Mode: templates.ModeChoose, Choose: &templates.ChooseOptions{Values: values, SelectionMode: templates.SelectionRotate}}
	var got []any
	for range 7 {
		v, ok := g.Value(&optional, rotate)
		require.True(t, ok)
		got = append(got, v)
	}
	require.Equal(t, []any{"hardcover", "paperback", "ebook", "hardcover", "paperback", "ebook", "hardcover"}, got, "rotation uses every value before repeating")

	random := &templates.FieldSetting{Mode: templates.ModeChoose, Choose: &templates.ChooseOptions{Values: values}}
	seen := map[any]int{}
	for range 300 {
		v, _ := g.Value(&optional, random)
		require.Contains(t, values, v)
		seen[v]++
	}
	require.Len(t, seen, 3, "random selection reaches every value")

	checkbox := fields.Field{Name: "genres", Type: "checkbox", Choices: genreChoices}
	v, _ = g.Value(&checkbox, &templates.FieldSetting{Mode: templates.ModeChoose, Choose: &templates.ChooseOptions{Values: []any{"crime"}}})
	require.Equal(t, []any{"crime"}, v, "a single chosen value is wrapped for list fields")

	emptyChoice := &templates.FieldSetting{Mode: templates.ModeChoose, Choose: &templates.ChooseOptions{Values: []any{""}}}
	v, _ = g.Value(&required, emptyChoice)
	require.NotEmpty(t, v, "a required field never ends up empty")

	words := &templates.FieldSetting{Mode: templates.ModeCreate, Create: &templates.CreateOptions{Method: templates.MethodWords, WordCountMin: 3, WordCountMax: 5}}
	paras := &templates.FieldSetting{Mode: templates.ModeCreate, Create: &templates.CreateOptions{Method: templates.MethodParagraphs, ParagraphCountMin: 2, ParagraphCountMax: 3}}
	num := &templates.FieldSetting{Mode: templates.ModeCreate, Create: &templates.CreateOptions{Min: f64(10), Max: f64(20), DecimalPlaces: 2}}
	html := &templates.FieldSetting{Mode: templates.ModeCreate, Create: &templates.CreateOptions{ParagraphCountMin: 4, ParagraphCountMax: 4, IncludeHTML: templates.Ptr(true), HTMLOptions: &templates.HTMLOptions{Headings: true, Lists: true}}}
	plain := &templates.FieldSetting{Mode: templates.ModeCreate, Create: &templates.CreateOptions{IncludeHTML: templates.Ptr(false)}}
	for range 100 {
		v, _ := g.Value(&required, words)
		n := len(strings.Fields(v.(string)))
		require.True(t, n >= 3 && n <= 5, "method words overrides the semantic type: %q", v)
		v, _ = g.Value(&fields.Field{Name: "bio", Type: "textarea"}, paras)
		p := len(strings.Split(v.(string), "\n\n"))
		require.True(t, p >= 2 && p <= 3, "%d paragraphs", p)
		v, _ = g.Value(&fields.Field{Name: "fee", Type: "number", Min: f64(0), Max: f64(100)}, num)
		x := asFloat(t, v)
		require.True(t, x >= 10 && x <= 20, "create min/max narrow the field's range: %v", x)
		require.Equal(t, x, math.Round(x*100)/100, "two decimal places")
		v, _ = g.Value(&fields.Field{Name: "body", Type: "wysiwyg"}, html)
		s := v.(string)
		require.Equal(t, 4, strings.Count(s, "<p>"))
		require.Contains(t, s, "<h2>")
		require.Contains(t, s, "<ul>")
		v, _ = g.Value(&fields.Field{Name: "body", Type: "wysiwyg"}, plain)
		require.NotContains(t, v.(string), "<")
	}
	// Options outside the field's own bounds are ignored, not obeyed.
	v, _ = g.Value(&fields.Field{Name: "fee", Type: "number", Min: f64(0), Max: f64(5)}, &templates.FieldSetting{Mode: templates.ModeCreate, Create: &templates.CreateOptions{Min: f64(50), Max: f64(60)}})
	require.LessOrEqual(t, asFloat(t, v), 5.0)
	// Without bounds of its own, a field takes the options' range even far
	// from the default one, and a lone minimum moves the range along.
	for range 50 {
		v, _ = g.Value(&fields.Field{Name: "fee", Type: "number"}, &templates.FieldSetting{Mode: templates.ModeCreate, Create: &templates.CreateOptions{Min: f64(1000), Max: f64(2000)}})
		x := asFloat(t, v)
		require.True(t, x >= 1000 && x <= 2000, "create min/max of an unbounded field: %v", x)
		v, _ = g.Value(&fields.Field{Name: "fee", Type: "number"}, &templates.FieldSetting{Mode: templates.ModeCreate, Create: &templates.CreateOptions{Min: f64(500)}})
		require.GreaterOrEqual(t, asFloat(t, v), 500.0)
	}
}

func TestRefsAndResolve(t *testing.T) {
	t.Parallel()
	g := newFiller(3, nil)
	defs := []fields.Field{
		{Name: "authors", Type: "relationship", PostTypes: []string{"author"}, Min: f64(2), Max: f64(2), Required: true},
		{Name: "publisher", Type: "post_object", PostTypes: []string{"publisher"}},
		{Name: "rows", Type: "repeater", Min: f64(2), Max: f64(2), SubFields: []fields.Field{{Name: "who", Type: "user"}}},
	}
	values := g.Fill(defs, nil)
	refs := fill.CollectRefs(values)
	require.Len(t, refs, 4)
	require.Equal(t, fill.Ref{Field: "authors", Kind: fill.RefPost, Targets: []string{"author"}, Count: 2, Multiple: true}, refs[0])
	require.Equal(t, fill.RefPost, refs[1].Kind)
	require.False(t, refs[1].Multiple)
	require.Equal(t, fill.RefUser, refs[2].Kind)

	rv, err := g.Resolve(context.Background(), values, sitePools)
	require.NoError(t, err)
	resolved := rv.(map[string]any)
	require.Len(t, resolved["authors"], 2)
	require.Contains(t, sitePools["post:publisher"], resolved["publisher"])
	require.Empty(t, fill.CollectRefs(resolved))

	// Too few existing objects: lists get what exists, singles nothing.
	empty := fill.LookupFunc(func(context.Context, fill.RefKind, []string) ([]int64, error) { return nil, nil })
	ov, err := g.Resolve(context.Background(), g.Fill(defs[:2], nil), empty)
	require.NoError(t, err)
	out := ov.(map[string]any)

	// A failing lookup is an error, not an empty value.
	broken := fill.LookupFunc(func(context.Context, fill.RefKind, []string) ([]int64, error) {
		return nil, errors.New("host down")
	})
	_, err = g.Resolve(context.Background(), g.Fill(defs[:2], nil), broken)
	require.EqualError(t, err, "host down")
	require.Equal(t, []int64{}, out["authors"])
	require.Nil(t, out["publisher"])
}

func TestFillIsDeterministic(t *testing.T) {
	t.Parallel()
	defs := benchFields()
	run := func(seed uint64) []map[string]any {
		g := newFiller(seed, &fill.Options{})
		out := make([]map[string]any, 20)
		for i := range out {
			out[i] = fillResolved(t, g, defs)
		}
		return out
	}
	require.Equal(t, run(42), run(42), "the same seed gives the same values")
	require.NotEqual(t, run(42), run(43))
}

func TestCoreFields(t *testing.T) {
	t.Parallel()
	g := newFiller(5, nil)
	cfg := templates.FieldConfig{CoreFields: map[string]templates.FieldSetting{
		"post_title":  {Mode: templates.ModeCreate, Create: &templates.CreateOptions{Method: templates.MethodWords, WordCountMin: 4, WordCountMax: 4}},
		"post_status": {Mode: templates.ModeChoose, Choose: &templates.ChooseOptions{Values: []any{"draft"}}},
		"post_author": {Mode: templates.ModeNone},
	}}
	out := g.Fill(fields.CoreFields(), cfg.CoreFields)
	require.Len(t, strings.Fields(out["post_title"].(string)), 4)
	require.Equal(t, "draft", out["post_status"])
	require.NotContains(t, out, "post_author")
	require.Contains(t, out["post_content"], "<p>")
	_, err := time.Parse(time.DateTime, out["post_date"].(string))
	require.NoError(t, err)
}

func TestAppendPHPDate(t *testing.T) {
	t.Parallel()
	at := time.Date(2024, 3, 5, 14, 7, 9, 0, time.UTC)
	cases := map[string]string{
		"d/m/Y":        "05/03/2024",
		"Ymd":          "20240305",
		"Y-m-d H:i:s":  "2024-03-05 14:07:09",
		"F j, Y g:i a": "March 5, 2024 2:07 pm",
		"D, jS M y":    "Tue, 5th Mar 24",
		`\Y\e\a\r: Y`:  "Year: 2024",
		"l N w z t L":  "Tuesday 2 2 64 31 1",
		"G:i A h":      "14:07 PM 02",
		"W o":          "10 2024",
		"U":            "1709647629",
		"u v":          "000000 000",
	}
	for format, want := range cases {
		require.Equal(t, want, string(fill.AppendPHPDate(nil, at, format)), format)
	}
}
