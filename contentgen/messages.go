package contentgen

import (
	"context"
	"fmt"
	"strings"
)

// Messages are the human-readable summaries of the service in one
// language. The admin_locale setting chooses it ("auto" follows the site
// language); English and German are available, other languages fall back
// to English. Messages the specification fixes (the upload failures, for
// example) are not translated.
type Messages struct {
	// Lang is "en" or "de".
	Lang string
}

// Messages returns the messages in the language of the admin_locale
// setting.
func (g *Generator) Messages(ctx context.Context) Messages {
	s, err := g.Settings(ctx)
	if err != nil {
		return Messages{Lang: "en"}
	}
	return g.messagesFor(ctx, s)
}

func (g *Generator) messagesFor(ctx context.Context, s Settings) Messages {
	code := s.AdminLocale
	if code == "" || code == "auto" {
		site, err := g.host.Site(ctx)
		if err != nil {
			return Messages{Lang: "en"}
		}
		code = site.Locale
	}
	return MessagesFor(code)
}

// MessagesFor returns the messages for a locale code such as "de_DE".
func MessagesFor(locale string) Messages {
	lang, _, _ := strings.Cut(strings.ReplaceAll(strings.ToLower(locale), "-", "_"), "_")
	if lang == "de" {
		return Messages{Lang: "de"}
	}
	return Messages{Lang: "en"}
}

func (m Messages) de() bool { return m.Lang == "de" }

// count formats n with the singular or plural noun.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// PostsGenerated summarises a posts run.
func (m Messages) PostsGenerated(n int) string {
	if m.de() {
		return count(n, "Beitrag", "Beiträge") + " erfolgreich erstellt."
	}
	return "Successfully generated " + count(n, "post", "posts") + "."
}

// TermsGenerated summarises a terms run.
func (m Messages) TermsGenerated(n int, taxonomy string) string {
	if m.de() {
		return fmt.Sprintf("%s in %s erfolgreich erstellt.", count(n, "Begriff", "Begriffe"), taxonomy)
	}
	return fmt.Sprintf("Successfully generated %s in %s.", count(n, "term", "terms"), taxonomy)
}

// UsersGenerated summarises a users run.
func (m Messages) UsersGenerated(n int) string {
	if m.de() {
		return count(n, "Benutzer", "Benutzer") + " erfolgreich erstellt."
	}
	return "Successfully generated " + count(n, "user", "users") + "."
}

// CommentsGenerated summarises a comments run.
func (m Messages) CommentsGenerated(n, posts int) string {
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

func (m Messages) typeName(n int, typ string) string {
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
func (m Messages) Deleted(n int, typ string, trashed bool) string {
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
func (m Messages) PostsDeleted(n, related int) string {
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

// CleanedUp summarises CleanupAll.
func (m Messages) CleanedUp(s CleanupStats) string {
	if m.de() {
		return fmt.Sprintf("%d Beiträge, %d Begriffe, %d Benutzer und %d Mediendateien entfernt; Verlauf geleert.", s.Posts, s.Terms, s.Users, s.Media)
	}
	return fmt.Sprintf("Removed %d posts, %d terms, %d users and %d media items; history cleared.", s.Posts, s.Terms, s.Users, s.Media)
}

// HistoryEntryDeleted summarises DeleteHistoryEntry.
func (m Messages) HistoryEntryDeleted(contentDeleted bool) string {
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
func (m Messages) HistoryEntryNotFound(id string) string {
	if m.de() {
		return fmt.Sprintf("Verlaufseintrag %q nicht gefunden.", id)
	}
	return fmt.Sprintf("History entry %q not found.", id)
}

// HistoryCleared confirms DELETE /history/clear.
func (m Messages) HistoryCleared() string {
	if m.de() {
		return "Verlauf geleert; die generierten Inhalte bleiben erhalten."
	}
	return "History cleared; the generated content remains."
}

// OrphansRemoved confirms POST /history/cleanup.
func (m Messages) OrphansRemoved(n int) string {
	if m.de() {
		return count(n, "verwaister Verlaufseintrag", "verwaiste Verlaufseinträge") + " entfernt."
	}
	return count(n, "orphaned history entry", "orphaned history entries") + " removed."
}

// TimeSavedReset confirms DELETE /time-saved.
func (m Messages) TimeSavedReset() string {
	if m.de() {
		return "Zeitersparnis zurückgesetzt."
	}
	return "Time savings reset."
}

// SettingsSaved confirms POST /settings and POST /settings/ai.
func (m Messages) SettingsSaved() string {
	if m.de() {
		return "Einstellungen gespeichert."
	}
	return "Settings saved."
}

// DetectionsCleared confirms the clearing of cached field detections.
func (m Messages) DetectionsCleared(n int) string {
	if m.de() {
		return count(n, "zwischengespeicherte Felderkennung", "zwischengespeicherte Felderkennungen") + " gelöscht."
	}
	return "Cleared " + count(n, "cached field detection", "cached field detections") + "."
}

// ImagesDownloaded summarises POST /media/download.
func (m Messages) ImagesDownloaded(n, of int) string {
	if m.de() {
		return fmt.Sprintf("%d von %d Bildern heruntergeladen.", n, of)
	}
	return fmt.Sprintf("Downloaded %d of %d images.", n, of)
}

// FileUploaded confirms an upload.
func (m Messages) FileUploaded() string {
	if m.de() {
		return "Datei hochgeladen."
	}
	return "File uploaded."
}

// NotLoggedIn is the message of 401 rest_not_logged_in.
func (m Messages) NotLoggedIn() string {
	if m.de() {
		return "Sie sind nicht angemeldet."
	}
	return "You are not currently logged in."
}

// BadCredentials is the message of 401 for wrong credentials.
func (m Messages) BadCredentials() string {
	if m.de() {
		return "Die Anmeldedaten sind ungültig."
	}
	return "The credentials are not valid."
}

// Forbidden is the message of 403 rest_forbidden.
func (m Messages) Forbidden() string {
	if m.de() {
		return "Sie haben keine Berechtigung für diese Aktion."
	}
	return "Sorry, you are not allowed to do that."
}

// NoRoute is the message of 404 for unknown routes.
func (m Messages) NoRoute() string {
	if m.de() {
		return "Keine Route entspricht der URL und der Anfragemethode."
	}
	return "No route was found matching the URL and request method."
}
