package httpapi

import (
	"context"
	"fmt"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
)

// messages are the human-readable summaries of the API in one language.
// The admin_locale setting chooses it ("auto" follows the site language);
// English and German are available, other languages fall back to
// English. Messages the specification fixes (the upload failures, for
// example) are not translated.
type messages struct {
	// lang is "en" or "de".
	lang string
}

// messagesFor returns the messages for a locale code such as "de_DE".
func messagesFor(locale string) messages {
	lang, _, _ := strings.Cut(strings.ReplaceAll(strings.ToLower(locale), "-", "_"), "_")
	if lang == "de" {
		return messages{lang: "de"}
	}
	return messages{lang: "en"}
}

// messages returns the messages in the language of the admin_locale
// setting, and remembers the language for the answers that must not read
// the settings (those to unauthenticated requests).
func (a *API) messages(ctx context.Context) messages {
	m := messages{lang: "en"}
	if p, err := LoadPreferences(ctx, a.g); err == nil {
		m = a.messagesOf(ctx, p.AdminLocale)
	}
	a.lang.Store(&m.lang)
	return m
}

// messagesOf returns the messages of code, an admin_locale value.
func (a *API) messagesOf(ctx context.Context, code string) messages {
	if code == "" || code == "auto" {
		site, err := a.g.Content().Site(ctx)
		if err != nil {
			return messages{lang: "en"}
		}
		code = site.Locale
	}
	m := messagesFor(code)
	a.lang.Store(&m.lang)
	return m
}

// lastMessages returns the messages in the language last seen, without
// reading anything.
func (a *API) lastMessages() messages {
	if l := a.lang.Load(); l != nil {
		return messages{lang: *l}
	}
	return messages{lang: "en"}
}

func (m messages) de() bool { return m.lang == "de" }

// count formats n with the singular or plural noun.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// PostsGenerated summarises a posts run.
func (m messages) PostsGenerated(n int) string {
	if m.de() {
		return count(n, "Beitrag", "Beiträge") + " erfolgreich erstellt."
	}
	return "Successfully generated " + count(n, "post", "posts") + "."
}

// AIText is what a run with the ai text source adds to its message: the
// posts the provider wrote and the tokens spent; "" for other runs.
func (m messages) AIText(s *contentgen.AITextStats) string {
	if s == nil {
		return ""
	}
	if m.de() {
		return fmt.Sprintf(" KI-Text: %s von %s, %d von %d Tokens.", count(s.Posts, "Beitrag", "Beiträge"), s.Provider, s.Tokens, s.TokenBudget)
	}
	return fmt.Sprintf(" AI text: %s by %s, %d of %d tokens.", count(s.Posts, "post", "posts"), s.Provider, s.Tokens, s.TokenBudget)
}

// TermsGenerated summarises a terms run.
func (m messages) TermsGenerated(n int, taxonomy string) string {
	if m.de() {
		return fmt.Sprintf("%s in %s erfolgreich erstellt.", count(n, "Begriff", "Begriffe"), taxonomy)
	}
	return fmt.Sprintf("Successfully generated %s in %s.", count(n, "term", "terms"), taxonomy)
}

// UsersGenerated summarises a users run.
func (m messages) UsersGenerated(n int) string {
	if m.de() {
		return count(n, "Benutzer", "Benutzer") + " erfolgreich erstellt."
	}
	return "Successfully generated " + count(n, "user", "users") + "."
}

// CommentsGenerated summarises a comments run.
func (m messages) CommentsGenerated(n, posts int) string {
	if m.de() {
		return fmt.Sprintf("%s zu %s erfolgreich erstellt.", count(n, "Kommentar", "Kommentare"), count(posts, "Beitrag", "Beiträgen"))
	}
	return fmt.Sprintf("Successfully generated %s on %s.", count(n, "comment", "comments"), count(posts, "post", "posts"))
}

var typeNames = map[string][2][2]string{
	"post":    {{"post", "posts"}, {"Beitrag", "Beiträge"}},
	"term":    {{"term", "terms"}, {"Begriff", "Begriffe"}},
	"user":    {{"user", "users"}, {"Benutzer", "Benutzer"}},
	"comment": {{"comment", "comments"}, {"Kommentar", "Kommentare"}},
}

func (m messages) typeName(n int, typ string) string {
	names, ok := typeNames[typ]
	if !ok {
		return count(n, typ, typ+"s")
	}
	i := 0
	if m.de() {
		i = 1
	}
	return count(n, names[i][0], names[i][1])
}

// Deleted summarises a delete of generated items of one type.
func (m messages) Deleted(n int, typ string, trashed bool) string {
	switch {
	case m.de() && trashed:
		return fmt.Sprintf("%s (generiert) in den Papierkorb verschoben.", m.typeName(n, typ))
	case m.de():
		return fmt.Sprintf("%s (generiert) gelöscht.", m.typeName(n, typ))
	case trashed:
		return fmt.Sprintf("Moved %s to the trash.", strings.Replace(m.typeName(n, typ), " ", " generated ", 1))
	}
	return fmt.Sprintf("Deleted %s.", strings.Replace(m.typeName(n, typ), " ", " generated ", 1))
}

// PostsDeleted summarises a chunked posts delete.
func (m messages) PostsDeleted(n, related int) string {
	if m.de() {
		s := m.typeName(n, "post") + " (generiert) gelöscht"
		if related > 0 {
			s += fmt.Sprintf(", dazu %s", count(related, "zugehöriges Element", "zugehörige Elemente"))
		}
		return s + "."
	}
	s := "Deleted " + strings.Replace(m.typeName(n, "post"), " ", " generated ", 1)
	if related > 0 {
		s += " and " + count(related, "related item", "related items")
	}
	return s + "."
}

// CleanedUp summarises a cleanup of everything generated.
func (m messages) CleanedUp(s contentgen.Removed) string {
	if m.de() {
		return fmt.Sprintf("%d Beiträge, %d Begriffe, %d Benutzer und %d Mediendateien entfernt; Verlauf geleert.", s.Posts, s.Terms, s.Users, s.Media)
	}
	return fmt.Sprintf("Removed %d posts, %d terms, %d users and %d media items; history cleared.", s.Posts, s.Terms, s.Users, s.Media)
}

// HistoryEntryDeleted summarises HistoryService.Delete.
func (m messages) HistoryEntryDeleted(contentDeleted bool) string {
	switch {
	case m.de() && contentDeleted:
		return "Verlaufseintrag und Inhalt gelöscht."
	case m.de():
		return "Verlaufseintrag gelöscht."
	case contentDeleted:
		return "History entry and its content deleted."
	}
	return "History entry deleted."
}

// HistoryEntryNotFound is the message of an unknown history entry.
func (m messages) HistoryEntryNotFound(id string) string {
	if m.de() {
		return fmt.Sprintf("Verlaufseintrag %q nicht gefunden.", id)
	}
	return fmt.Sprintf("History entry %q not found.", id)
}

// HistoryCleared confirms DELETE /history/clear.
func (m messages) HistoryCleared() string {
	if m.de() {
		return "Verlauf geleert; die generierten Inhalte bleiben erhalten."
	}
	return "History cleared; the generated content remains."
}

// OrphansRemoved confirms POST /history/cleanup.
func (m messages) OrphansRemoved(n int) string {
	if m.de() {
		return count(n, "verwaister Verlaufseintrag", "verwaiste Verlaufseinträge") + " entfernt."
	}
	return count(n, "orphaned history entry", "orphaned history entries") + " removed."
}

// TimeSavedReset confirms DELETE /time-saved.
func (m messages) TimeSavedReset() string {
	if m.de() {
		return "Zeitersparnis zurückgesetzt."
	}
	return "Time savings reset."
}

// SettingsSaved confirms POST /settings and POST /settings/ai.
func (m messages) SettingsSaved() string {
	if m.de() {
		return "Einstellungen gespeichert."
	}
	return "Settings saved."
}

// DetectionsCleared confirms the clearing of cached field detections.
func (m messages) DetectionsCleared(n int) string {
	if m.de() {
		return count(n, "zwischengespeicherte Felderkennung", "zwischengespeicherte Felderkennungen") + " gelöscht."
	}
	return "Cleared " + count(n, "cached field detection", "cached field detections") + "."
}

// ImagesDownloaded summarises POST /media/download.
func (m messages) ImagesDownloaded(n, of int) string {
	if m.de() {
		return fmt.Sprintf("%d von %d Bildern heruntergeladen.", n, of)
	}
	return fmt.Sprintf("Downloaded %d of %d images.", n, of)
}

// FileUploaded confirms an upload.
func (m messages) FileUploaded() string {
	if m.de() {
		return "Datei hochgeladen."
	}
	return "File uploaded."
}

// NotLoggedIn is the message of 401 rest_not_logged_in.
func (m messages) NotLoggedIn() string {
	if m.de() {
		return "Sie sind nicht angemeldet."
	}
	return "You are not currently logged in."
}

// BadCredentials is the message of 401 for wrong credentials.
func (m messages) BadCredentials() string {
	if m.de() {
		return "Die Anmeldedaten sind ungültig."
	}
	return "The credentials are not valid."
}

// TooManyAttempts is the message of 429 too_many_attempts; seconds is
// the Retry-After value, "" when unknown.
func (m messages) TooManyAttempts(seconds string) string {
	switch {
	case m.de() && seconds == "1":
		return "Zu viele fehlgeschlagene Anmeldungen. Versuchen Sie es in 1 Sekunde erneut."
	case m.de() && seconds != "":
		return "Zu viele fehlgeschlagene Anmeldungen. Versuchen Sie es in " + seconds + " Sekunden erneut."
	case m.de():
		return "Zu viele fehlgeschlagene Anmeldungen. Versuchen Sie es später erneut."
	case seconds == "1":
		return "Too many failed logins. Try again in 1 second."
	case seconds != "":
		return "Too many failed logins. Try again in " + seconds + " seconds."
	}
	return "Too many failed logins. Try again later."
}

// Forbidden is the message of 403 rest_forbidden.
func (m messages) Forbidden() string {
	if m.de() {
		return "Sie haben keine Berechtigung für diese Aktion."
	}
	return "Sorry, you are not allowed to do that."
}

// CrossOrigin is the message of 403 cross_origin_request.
func (m messages) CrossOrigin() string {
	if m.de() {
		return "Anfragen von einer anderen Website werden nicht angenommen."
	}
	return "Requests from another site are not accepted."
}

// UnsupportedMediaType is the message of 415 unsupported_media_type.
func (m messages) UnsupportedMediaType() string {
	if m.de() {
		return "Der Anfrageinhalt muss als Content-Type application/json gesendet werden."
	}
	return "The request body must be sent as Content-Type application/json."
}

// NoRoute is the message of 404 for unknown routes.
func (m messages) NoRoute() string {
	if m.de() {
		return "Keine Route entspricht der URL und der Anfragemethode."
	}
	return "No route was found matching the URL and request method."
}

// TemplateSaved confirms the creation (created true) or an update of a
// template.
func (m messages) TemplateSaved(name string, created bool) string {
	switch {
	case m.de() && created:
		return fmt.Sprintf("Vorlage %q erstellt.", name)
	case m.de():
		return fmt.Sprintf("Vorlage %q gespeichert.", name)
	case created:
		return fmt.Sprintf("Template %q created.", name)
	}
	return fmt.Sprintf("Template %q updated.", name)
}

// TemplateDeleted confirms the deletion of a template and its variants.
func (m messages) TemplateDeleted(variants int) string {
	if m.de() {
		if variants > 0 {
			return fmt.Sprintf("Vorlage gelöscht, dazu %s.", count(variants, "Variante", "Varianten"))
		}
		return "Vorlage gelöscht."
	}
	if variants > 0 {
		return fmt.Sprintf("Template deleted with %s.", count(variants, "variant", "variants"))
	}
	return "Template deleted."
}

// TemplateDefault confirms that a template became its post type's
// default.
func (m messages) TemplateDefault(name, postType string) string {
	if m.de() {
		return fmt.Sprintf("%q ist jetzt die Standardvorlage für %s.", name, postType)
	}
	return fmt.Sprintf("%q is now the default template of %s.", name, postType)
}

// TemplateDuplicated confirms a duplicate.
func (m messages) TemplateDuplicated(name string) string {
	if m.de() {
		return fmt.Sprintf("Vorlage als %q dupliziert.", name)
	}
	return fmt.Sprintf("Template duplicated as %q.", name)
}

// VariantCreated confirms a new variant.
func (m messages) VariantCreated(name string) string {
	if m.de() {
		return fmt.Sprintf("Variante %q erstellt.", name)
	}
	return fmt.Sprintf("Variant %q created.", name)
}

// TemplatesImported summarises an import.
func (m messages) TemplatesImported(imported, failed int) string {
	if m.de() {
		return fmt.Sprintf("%s importiert, %d fehlgeschlagen.", count(imported, "Vorlage", "Vorlagen"), failed)
	}
	return fmt.Sprintf("Imported %s, %d failed.", count(imported, "template", "templates"), failed)
}

// SyncSeen confirms POST /sync/mark-seen.
func (m messages) SyncSeen() string {
	if m.de() {
		return "Feldänderungen als gesehen markiert."
	}
	return "Field changes marked as seen."
}

// variationProfiles describes the variation profiles.
func (m messages) variationProfiles() map[string]variationProfile {
	return map[string]variationProfile{
		contentgen.ProfileRandom: {
			Name:        "Random",
			Description: "Each post is fully populated, partially populated or minimal at random, with content length varying from one to ten paragraphs.",
		},
		contentgen.ProfileMinimal: {
			Name:        "Minimal",
			Description: "Title and one or two short paragraphs; no excerpt, no featured image, at most one term per taxonomy and few comments.",
		},
		contentgen.ProfilePartial: {
			Name:        "Partial",
			Description: "Excerpt, featured image, terms and comments are each present on about half of the posts; two to five paragraphs.",
		},
	}
}

// variationProfile describes a variation profile.
type variationProfile struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}
