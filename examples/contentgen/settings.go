package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/contentgen/contentgen/contentgen"
)

func (a *app) settingsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "settings",
		Short: "Show the site's settings, changing the ones given first",
		Long: `settings prints the general settings of the site, after changing the ones
whose flags are given. They are kept with the site and apply to every later
command and to the server: --text-source realtext makes text in the
locale's own language, about a topic per post, instead of Latin
placeholder text.`,
		Example: `  contentgen settings --text-source realtext --locale de_DE
  contentgen settings --json`,
		Args: noArgs,
	}
	f := cmd.Flags()
	f.String("text-source", "", "lorem (Latin placeholder text), realtext (the locale's own language, about a topic) or ai (written by the model of --ai-base-url, or of the AI settings)")
	f.String("locale", "", "default locale of generated content, such as de_DE, or site")
	f.Float64("hourly-rate", 0, "hourly rate the time saved is valued at")
	f.String("default-image-provider", "", "provider_local, provider_keyword, provider_curated or provider_random")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		patch := func(st *contentgen.Settings) {
			for name, dst := range map[string]*string{"text-source": &st.TextSource, "locale": &st.Locale, "default-image-provider": &st.DefaultImageProvider} {
				if f.Changed(name) {
					*dst, _ = f.GetString(name)
				}
			}
			if f.Changed("hourly-rate") {
				st.HourlyRate, _ = f.GetFloat64("hourly-rate")
			}
		}
		return a.with(cmd, func(ctx context.Context, s *session) error {
			st, err := s.gen.Settings().Update(ctx, patch)
			if err != nil {
				return err
			}
			if a.jsonOut {
				return a.writeJSON(map[string]any{"success": true, "settings": map[string]any{
					"text_source": st.TextSource, "locale": st.Locale, "hourly_rate": st.HourlyRate,
					"default_image_provider": st.DefaultImageProvider,
				}})
			}
			a.printf("text source:            %s\n", st.TextSource)
			a.printf("locale:                 %s\n", st.Locale)
			a.printf("hourly rate:            %g\n", st.HourlyRate)
			a.printf("default image provider: %s\n", st.DefaultImageProvider)
			return nil
		})
	}
	return cmd
}
