package httpapi_test

import (
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/httpapi"
	"github.com/contentgen/contentgen/providers"
)

// specGeneralSettings are the general settings the specification lists.
var specGeneralSettings = []string{
	"admin_locale", "locale", "default_post_count", "default_term_count", "default_user_count",
	"delete_history_on_deactivate", "delete_media_with_posts", "auto_select_default_template",
	"delete_related_media", "delete_related_terms", "delete_related_authors", "delete_related_comments",
	"default_image_provider", "telemetry_enabled", "save_and_generate_auto_run", "child_generate_behavior",
	"hourly_rate", "text_source",
}

// settingField is a setting as its definition describes it.
type settingField struct {
	name, rule string
	kind       reflect.Kind
}

// settingFields lists the settings defined by the fields of struct t.
func settingFields(t reflect.Type) []settingField {
	var out []settingField
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, settingField{name, f.Tag.Get("setting"), f.Type.Kind()})
		}
	}
	return out
}

// otherValue returns a valid value of the setting that differs from cur.
func otherValue(t *testing.T, f settingField, cur any) any {
	t.Helper()
	switch f.kind {
	case reflect.Bool:
		return !cur.(bool)
	case reflect.Int, reflect.Float64:
		return cur.(float64) + 1
	}
	var options []string
	switch f.rule {
	case "locale":
		options = []string{"de_DE", "fr_FR"}
	case "image_provider":
		options = providers.Slugs()
	default:
		options = strings.Split(f.rule, "|")
	}
	for _, o := range options {
		if o != cur {
			return o
		}
	}
	t.Fatalf("setting %s: no value other than %v to try", f.name, cur)
	return nil
}

// Every general setting, the Generator's and the admin page's, answers on
// GET /settings, changes alone through POST /settings, is echoed, and is
// read back from the store by a new API over it.
func TestEverySettingRoundTrips(t *testing.T) {
	t.Parallel()
	state := memhost.NewStateStore()
	withState := func(c *contentgen.Config) { c.State = state }
	e := newEnvWith(t, withState, nil)

	fields := append(settingFields(reflect.TypeFor[contentgen.GeneralSettings]()), settingFields(reflect.TypeFor[httpapi.Preferences]())...)
	var names []string
	for _, f := range fields {
		names = append(names, f.name)
	}
	require.Subset(t, names, specGeneralSettings, "every setting of the specification is defined")

	general := func(e *env) map[string]any {
		status, body := e.do("GET", "/settings", nil, asAdmin)
		require.Equal(t, http.StatusOK, status, body)
		return body["settings"].(map[string]any)["general"].(map[string]any)
	}
	want := general(e)
	got := slices.Sorted(func(yield func(string) bool) {
		for k := range want {
			if !yield(k) {
				return
			}
		}
	})
	require.ElementsMatch(t, names, got, "GET /settings answers with exactly the defined settings")

	for _, f := range fields {
		v := otherValue(t, f, want[f.name])
		status, body := e.do("POST", "/settings", map[string]any{f.name: v}, asAdmin)
		require.Equal(t, http.StatusOK, status, "%s: %v", f.name, body)
		want[f.name] = v
		require.Equal(t, want, body["settings"], "POST /settings echoes %s and keeps the others", f.name)
	}
	require.Equal(t, want, general(e))
	require.Equal(t, want, general(newEnvWith(t, withState, nil)), "a new API over the same store reads every setting back")
}

// A POST /settings with one invalid value stores none of the others, the
// admin page's preferences included.
func TestSettingsUpdateIsAllOrNothing(t *testing.T) {
	t.Parallel()
	e := newEnvWith(t, nil, nil)
	status, body := e.do("POST", "/settings", map[string]any{"child_generate_behavior": "parent_chain", "default_post_count": 0}, asAdmin)
	require.Equal(t, http.StatusBadRequest, status, body)
	require.Contains(t, body["message"], "default_post_count")
	status, body = e.do("POST", "/settings", map[string]any{"child_generate_behavior": "sometimes", "hourly_rate": 90}, asAdmin)
	require.Equal(t, http.StatusBadRequest, status, body)
	require.Contains(t, body["message"], "child_generate_behavior")

	_, body = e.do("GET", "/settings", nil, asAdmin)
	general := body["settings"].(map[string]any)["general"].(map[string]any)
	require.Equal(t, "ask", general["child_generate_behavior"])
	require.EqualValues(t, 5, general["default_post_count"])
	require.EqualValues(t, 75, general["hourly_rate"])
}
