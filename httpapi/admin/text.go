package admin

// text holds the words of the server-rendered parts of the page in one
// language; the rest is translated by the page's script.
type text struct {
	Title, LogIn, UserName, Password, LogOut, Loading, NoScript string
	// Messages by key: errors and notices of the login form.
	Messages map[string]string
}

// texts are the words by language.
var texts = map[string]text{
	"en": {
		Title: "contentgen admin", LogIn: "Log in", UserName: "User name", Password: "Password",
		LogOut: "Log out", Loading: "Loading…", NoScript: "The admin page needs JavaScript.",
		Messages: map[string]string{
			"badForm":        "The form could not be read. Please try again.",
			"staleForm":      "The login form has expired. Please try again.",
			"missing":        "Enter your user name and password.",
			"throttled":      "Too many failed logins. Please wait a moment and try again.",
			"badCredentials": "Unknown user name or wrong password.",
			"forbidden":      "This user may not manage the site.",
			"expired":        "Your session has expired. Please log in again.",
			"loggedOut":      "You are logged out.",
		},
	},
	"de": {
		Title: "contentgen-Verwaltung", LogIn: "Anmelden", UserName: "Benutzername", Password: "Passwort",
		LogOut: "Abmelden", Loading: "Wird geladen …", NoScript: "Die Verwaltungsseite benötigt JavaScript.",
		Messages: map[string]string{
			"badForm":        "Das Formular konnte nicht gelesen werden. Bitte erneut versuchen.",
			"staleForm":      "Das Anmeldeformular ist abgelaufen. Bitte erneut versuchen.",
			"missing":        "Bitte Benutzername und Passwort eingeben.",
			"throttled":      "Zu viele fehlgeschlagene Anmeldungen. Bitte kurz warten und erneut versuchen.",
			"badCredentials": "Unbekannter Benutzername oder falsches Passwort.",
			"forbidden":      "Dieser Benutzer darf die Website nicht verwalten.",
			"expired":        "Ihre Sitzung ist abgelaufen. Bitte erneut anmelden.",
			"loggedOut":      "Sie sind abgemeldet.",
		},
	},
}
