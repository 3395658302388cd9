package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/httpapi"
)

// allSettings are the settings GET /settings shows as general: the
// Generator's and the admin page's preferences.
type allSettings struct {
	contentgen.GeneralSettings
	httpapi.Preferences
}

func (a *app) settingsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "settings",
		Short: "Show every setting of the site, changing the ones given first",
		Long: `settings prints every setting of the site (those of GET /settings, and the AI
settings with keys masked), after changing the ones given. They are kept
with the site and apply to every later command and to the server:
--text-source realtext makes text in the locale's own language, about a
topic per post, instead of Latin placeholder text. --set changes any
setting by its name in the API, with a JSON value or a plain string.`,
		Example: `  contentgen settings --text-source realtext --locale de_DE
  contentgen settings --default-image-provider provider_local
  contentgen settings --set delete_related_media=false --set default_post_count=20
  contentgen settings --json`,
		Args: noArgs,
	}
	f := cmd.Flags()
	f.String("text-source", "", "lorem (Latin placeholder text) or realtext (the locale's own language, about a topic)")
	f.String("locale", "", "default locale of generated content, such as de_DE, or auto (the site's)")
	f.Float64("hourly-rate", 0, "hourly rate the time saved is valued at")
	f.String("default-image-provider", "", "provider_local, provider_keyword, provider_curated or provider_random")
	sets := f.StringArray("set", nil, "change a setting by its API name: name=value (repeatable)")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		patch := map[string]any{}
		for _, name := range []string{"text-source", "locale", "default-image-provider"} {
			if f.Changed(name) {
				patch[strings.ReplaceAll(name, "-", "_")], _ = f.GetString(name)
			}
		}
		if f.Changed("hourly-rate") {
			patch["hourly_rate"], _ = f.GetFloat64("hourly-rate")
		}
		for _, kv := range *sets {
			name, raw, ok := strings.Cut(kv, "=")
			if !ok || name == "" {
				return usageErr("--set: want name=value, got %q", kv)
			}
			var v any = raw
			if json.Valid([]byte(raw)) {
				_ = json.Unmarshal([]byte(raw), &v)
			}
			patch[name] = v
		}
		body, err := json.Marshal(patch)
		if err != nil {
			return err
		}
		// Names and types first, so that the update cannot fail half-way.
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(new(allSettings)); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				want := map[string]string{"int": "a whole number", "float64": "a number", "bool": "true or false", "string": "a string"}[te.Type.String()]
				if want == "" {
					want = te.Type.String()
				}
				return usageErr("--set %s: want %s, got %s", te.Field[strings.LastIndex(te.Field, ".")+1:], want, te.Value)
			}
			if strings.Contains(err.Error(), "unknown field") {
				return usageErr("--set: %v (contentgen settings lists the names)", strings.TrimPrefix(err.Error(), "json: "))
			}
			return usageErr("--set: %v", err)
		}
		return a.with(cmd, func(ctx context.Context, s *session) error {
			var prefs httpapi.Preferences
			st, err := s.gen.Settings().UpdateWith(ctx, &prefs, func(st *contentgen.Settings) {
				if len(patch) > 0 {
					_ = json.Unmarshal(body, &st.GeneralSettings)
					_ = json.Unmarshal(body, &prefs)
				}
			})
			if err != nil {
				return err
			}
			return a.printSettings(st, prefs)
		})
	}
	return cmd
}

// printSettings prints every setting, as one JSON object with --json.
func (a *app) printSettings(st contentgen.Settings, prefs httpapi.Preferences) error {
	raw, err := json.Marshal(allSettings{st.GeneralSettings, prefs})
	if err != nil {
		return err
	}
	general := map[string]any{}
	if err := json.Unmarshal(raw, &general); err != nil {
		return err
	}
	keys := map[string]string{}
	for slug, masked := range st.AI.Keys {
		keys[slug] = masked
	}
	ai := map[string]any{"enabled": st.AI.Enabled, "provider": st.AI.Provider, "secondary_enabled": st.AI.SecondaryEnabled, "keys": keys}
	if a.jsonOut {
		out := maps.Clone(general)
		out["ai"] = ai
		return a.writeJSON(map[string]any{"success": true, "settings": out})
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	for _, k := range slices.Sorted(maps.Keys(general)) {
		fmt.Fprintf(tw, "%s\t%v\n", k, general[k])
	}
	fmt.Fprintf(tw, "ai_enabled\t%t\n", st.AI.Enabled)
	fmt.Fprintf(tw, "ai_provider\t%s\n", st.AI.Provider)
	fmt.Fprintf(tw, "ai_secondary_enabled\t%t\n", st.AI.SecondaryEnabled)
	for _, slug := range slices.Sorted(maps.Keys(keys)) {
		v := keys[slug]
		if v == "" {
			v = "(none)"
		}
		fmt.Fprintf(tw, "%s_api_key\t%s\n", slug, v)
	}
	return tw.Flush()
}
