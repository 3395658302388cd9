package fields

import "slices"

// Semantic types: what a field means, as detection reports it in
// detected_type and value generation understands it.
const (
	SemEmail       = "email"
	SemPhone       = "phone"
	SemURL         = "url"
	SemFirstName   = "first_name"
	SemLastName    = "last_name"
	SemFullName    = "full_name"
	SemUsername    = "username"
	SemCompany     = "company"
	SemJobTitle    = "job_title"
	SemAddress     = "address"
	SemCity        = "city"
	SemPostcode    = "postcode"
	SemState       = "state"
	SemCountry     = "country"
	SemLatitude    = "latitude"
	SemLongitude   = "longitude"
	SemPrice       = "price"
	SemCurrency    = "currency"
	SemRating      = "rating"
	SemISBN        = "isbn"
	SemSKU         = "sku"
	SemColor       = "color"
	SemDate        = "date"
	SemBirthDate   = "birth_date"
	SemDateTime    = "datetime"
	SemTime        = "time"
	SemYear        = "year"
	SemAge         = "age"
	SemQuantity    = "quantity"
	SemPercentage  = "percentage"
	SemWeight      = "weight"
	SemDimension   = "dimension"
	SemDuration    = "duration"
	SemIPAddress   = "ip_address"
	SemIBAN        = "iban"
	SemLanguage    = "language"
	SemTitle       = "title"
	SemDescription = "description"
)

// semKind says which field types a semantic type fits.
type semKind uint8

const (
	kindText semKind = iota
	kindNumber
	kindDate
	kindColor
)

// semanticTypes lists every semantic type with its kind, in the order
// SemanticTypes reports them; on equal evidence earlier types win.
var semanticTypes = []struct {
	name string
	kind semKind
}{
	{SemEmail, kindText}, {SemPhone, kindText}, {SemURL, kindText},
	{SemFirstName, kindText}, {SemLastName, kindText}, {SemFullName, kindText},
	{SemUsername, kindText}, {SemCompany, kindText}, {SemJobTitle, kindText},
	{SemAddress, kindText}, {SemCity, kindText}, {SemPostcode, kindText},
	{SemState, kindText}, {SemCountry, kindText},
	{SemLatitude, kindNumber}, {SemLongitude, kindNumber}, {SemPrice, kindNumber},
	{SemCurrency, kindText}, {SemRating, kindNumber}, {SemISBN, kindText}, {SemSKU, kindText},
	{SemColor, kindColor}, {SemBirthDate, kindDate}, {SemDateTime, kindDate}, {SemDate, kindDate},
	{SemTime, kindDate}, {SemYear, kindNumber}, {SemAge, kindNumber}, {SemQuantity, kindNumber},
	{SemPercentage, kindNumber}, {SemWeight, kindNumber}, {SemDimension, kindNumber},
	{SemDuration, kindNumber}, {SemIPAddress, kindText}, {SemIBAN, kindText},
	{SemLanguage, kindText}, {SemTitle, kindText}, {SemDescription, kindText},
}

// SemanticTypes returns every semantic type detection can report and
// value generation understands, in a stable order. An AI detector's
// answers can be checked against it (see also IsSemanticType).
func SemanticTypes() []string {
	out := make([]string, len(semanticTypes))
	for i, s := range semanticTypes {
		out[i] = s.name
	}
	return out
}

// IsSemanticType reports whether s is one of SemanticTypes.
func IsSemanticType(s string) bool {
	_, ok := semKindOf(s)
	return ok
}

func semKindOf(s string) (semKind, bool) {
	for _, t := range semanticTypes {
		if t.name == s {
			return t.kind, true
		}
	}
	return 0, false
}

func semRank(s string) int {
	return slices.IndexFunc(semanticTypes, func(t struct {
		name string
		kind semKind
	}) bool {
		return t.name == s
	})
}

// SemanticFits reports whether a field of fieldType can hold values of
// semantic type sem: numbers fit number, range and text fields; dates fit
// the pickers and text; text fits text, textarea and choice fields (a few
// numeric-looking ones such as postcode and phone also fit number fields).
// Use it to check an AI detector's answer before trusting it.
func SemanticFits(sem, fieldType string) bool {
	kind, ok := semKindOf(sem)
	if !ok {
		return false
	}
	switch fieldType {
	case TypeText, TypeSelect, TypeRadio, TypeCheckbox:
		return true
	case TypeTextarea:
		return kind == kindText
	case TypeWYSIWYG:
		return sem == SemDescription
	case TypeEmail:
		return sem == SemEmail
	case TypeURL:
		return sem == SemURL
	case TypeNumber, TypeRange:
		return kind == kindNumber || sem == SemPostcode || sem == SemPhone || sem == SemISBN
	case TypeDatePicker:
		return sem == SemDate || sem == SemBirthDate
	case TypeDateTimePicker:
		return kind == kindDate && sem != SemTime
	case TypeTimePicker:
		return sem == SemTime
	case TypeColorPicker:
		return sem == SemColor
	}
	return false
}

// synonyms maps each semantic type to names and phrases that mean it, in
// English, German, French, Spanish, Italian, Dutch, Portuguese and Polish.
// Phrases are written naturally; they are normalised like field names
// (lower case, accents folded, words split), and multi-word phrases also
// match written together ("first name" matches "firstname"). A leading "="
// marks a word that only counts when it is the whole name, because inside
// longer names it means something else ("name" in "product_name").
var synonyms = map[string][]string{
	SemEmail: {
		"email", "e mail", "mail", "email address", "e mail address", "mail address",
		"emailadresse", "e mail adresse", "mailadresse", "courriel", "adresse email", "adresse mail", "adresse electronique",
		"correo", "correo electronico", "correo electrónico", "posta elettronica", "indirizzo email",
		"e mailadres", "emailadres", "mailadres", "endereco de email", "endereço de e-mail", "adres email", "adres e mail",
	},
	SemPhone: {
		"phone", "telephone", "phone number", "tel", "mobile", "mobile phone", "cell", "cell phone", "cellphone", "fax", "contact number",
		"telefon", "telefonnummer", "handy", "handynummer", "mobilnummer", "rufnummer", "mobiltelefon",
		"téléphone", "numero de telephone", "portable", "numero de portable",
		"telefono", "teléfono", "movil", "móvil", "celular", "numero de telefono", "cellulare", "numero di telefono",
		"telefoon", "telefoonnummer", "mobiel", "mobiel nummer", "telemovel", "telemóvel",
		"numer telefonu", "komorka", "komórka", "telefon komorkowy",
	},
	SemURL: {
		"url", "website", "web site", "homepage", "home page", "link", "web", "site", "webseite", "internetseite", "webadresse",
		"site web", "site internet", "lien", "sitio web", "pagina web", "página web", "enlace", "sito", "sito web", "collegamento",
		"webpagina", "websiteadres", "site da web", "strona", "strona www", "strona internetowa", "www",
	},
	SemFirstName: {
		"first name", "firstname", "given name", "forename", "fname", "vorname", "prenom", "prénom", "nombre de pila",
		"=nombre", "primer nombre", "=nome", "voornaam", "primeiro nome", "imie", "imię",
	},
	SemLastName: {
		"last name", "lastname", "surname", "family name", "lname", "nachname", "familienname", "=nom", "nom de famille",
		"apellido", "apellidos", "cognome", "achternaam", "familienaam", "sobrenome", "apelido", "nazwisko",
	},
	SemFullName: {
		"=name", "full name", "fullname", "display name", "contact name", "contact person", "author name", "person name",
		"voller name", "vollstandiger name", "vollständiger name", "ansprechpartner", "nom complet", "nombre completo",
		"nome completo", "volledige naam", "=naam", "imie i nazwisko", "imię i nazwisko",
	},
	SemUsername: {
		"username", "user name", "login", "user login", "nickname", "handle", "benutzername", "nom d utilisateur", "identifiant",
		"nombre de usuario", "usuario", "nome utente", "gebruikersnaam", "nome de usuario", "nome de usuário", "nazwa uzytkownika", "nazwa użytkownika",
	},
	SemCompany: {
		"company", "company name", "organization", "organisation", "employer", "business name", "brand", "manufacturer",
		"firma", "firmenname", "unternehmen", "hersteller", "arbeitgeber", "entreprise", "societe", "société", "marque", "fabricant",
		"empresa", "compania", "compañía", "marca", "fabricante", "azienda", "societa", "società", "ditta", "produttore",
		"bedrijf", "bedrijfsnaam", "merk", "fabrikant", "nazwa firmy", "producent", "przedsiebiorstwo", "przedsiębiorstwo",
	},
	SemJobTitle: {
		"job title", "job", "position", "occupation", "profession", "role title", "beruf", "berufsbezeichnung", "stelle", "jobtitel",
		"poste", "metier", "métier", "fonction", "puesto", "cargo", "profesion", "profesión", "professione", "mansione", "qualifica",
		"functie", "beroep", "funcao", "função", "profissao", "profissão", "stanowisko", "zawod", "zawód",
	},
	SemAddress: {
		"address", "street", "street address", "address line", "address line 1", "address1", "addr", "billing address", "shipping address",
		"adresse", "anschrift", "strasse", "straße", "hausnummer", "rue", "adresse postale", "direccion", "dirección", "calle", "domicilio",
		"indirizzo", "via", "adres", "straat", "straatnaam", "endereco", "endereço", "rua", "morada", "ulica",
	},
	SemCity: {
		"city", "town", "locality", "place", "stadt", "ort", "wohnort", "ville", "localite", "localité", "ciudad", "localidad", "poblacion",
		"citta", "città", "comune", "localita", "località", "stad", "plaats", "woonplaats", "cidade", "miasto", "miejscowosc", "miejscowość",
	},
	SemPostcode: {
		"postcode", "post code", "postal code", "zip", "zip code", "zipcode", "postleitzahl", "plz", "code postal", "cp",
		"codigo postal", "código postal", "cap", "codice postale", "kod pocztowy",
	},
	SemState: {
		"state", "province", "region", "county", "bundesland", "kanton", "provinz", "departement", "département",
		"provincia", "estado", "comunidad", "regione", "provincie", "wojewodztwo", "województwo",
	},
	SemCountry: {
		"country", "nation", "land", "country name", "pays", "pais", "país", "paese", "nazione", "kraj", "panstwo", "państwo",
	},
	SemLatitude: {"latitude", "lat", "breitengrad", "latitud", "latitudine", "breedtegraad", "szerokosc geograficzna", "szerokość geograficzna"},
	SemLongitude: {
		"longitude", "lng", "lon", "long", "laengengrad", "längengrad", "longitud", "longitudine", "lengtegraad",
		"dlugosc geograficzna", "długość geograficzna",
	},
	SemPrice: {
		"price", "cost", "fee", "amount", "regular price", "sale price", "msrp", "preis", "kosten", "betrag", "gebuhr", "gebühr", "verkaufspreis",
		"prix", "tarif", "cout", "coût", "montant", "precio", "coste", "importe", "tarifa", "prezzo", "costo", "importo", "tariffa",
		"prijs", "bedrag", "preco", "preço", "custo", "valor", "cena", "koszt", "kwota", "oplata", "opłata",
	},
	SemCurrency: {"currency", "wahrung", "währung", "devise", "monnaie", "moneda", "divisa", "valuta", "munt", "moeda", "waluta"},
	SemRating: {
		"rating", "stars", "star rating", "score", "review score", "grade", "bewertung", "sterne", "evaluation", "évaluation", "etoiles", "étoiles",
		"valoracion", "valoración", "puntuacion", "puntuación", "calificacion", "calificación", "estrellas", "valutazione", "voto", "stelle", "punteggio",
		"beoordeling", "waardering", "sterren", "avaliacao", "avaliação", "classificacao", "classificação", "estrelas", "ocena", "gwiazdki",
	},
	SemISBN:  {"isbn", "isbn13", "isbn 13", "isbn10", "isbn 10"},
	SemSKU:   {"sku", "article number", "item number", "product code", "part number", "artikelnummer", "art nr", "artnr", "reference", "référence", "ref", "codigo de producto", "referencia", "codice articolo", "artikelnr", "codigo do produto", "numer katalogowy", "kod produktu", "ean", "gtin", "upc"},
	SemColor: {"color", "colour", "farbe", "couleur", "colore", "kleur", "cor", "kolor", "hex color", "background color"},
	SemDate: {
		"date", "day", "event date", "start date", "end date", "published", "publication date", "release date", "datum", "termin",
		"veroffentlichung", "erscheinungsdatum", "jour", "date de publication", "fecha", "dia", "día", "fecha de publicacion", "=data",
		"giorno", "data di pubblicazione", "dag", "publicatiedatum", "data de publicacao", "data publikacji", "dzien", "dzień",
	},
	SemBirthDate: {
		"birthday", "birth date", "date of birth", "dob", "birthdate", "born", "geburtstag", "geburtsdatum", "date de naissance", "anniversaire",
		"fecha de nacimiento", "cumpleanos", "cumpleaños", "data di nascita", "compleanno", "geboortedatum", "verjaardag",
		"data de nascimento", "aniversario", "aniversário", "data urodzenia", "urodziny",
	},
	SemDateTime: {"datetime", "date time", "timestamp", "zeitpunkt", "date et heure", "fecha y hora", "data e ora", "datum en tijd", "data e hora", "data i godzina"},
	SemTime: {
		"time", "start time", "end time", "opening time", "hour", "uhrzeit", "zeit", "heure", "horaire", "hora", "horario", "ora", "orario",
		"tijd", "tijdstip", "uur", "godzina", "czas",
	},
	SemYear: {
		"year", "release year", "publication year", "year published", "founded", "jahr", "baujahr", "erscheinungsjahr", "annee", "année",
		"ano", "año", "anno", "jaar", "bouwjaar", "rok", "rok wydania",
	},
	SemAge: {"age", "alter", "edad", "eta", "età", "leeftijd", "idade", "wiek"},
	SemQuantity: {
		"quantity", "qty", "stock", "count", "number of", "inventory", "pages", "page count", "menge", "anzahl", "bestand", "lagerbestand", "seiten", "seitenzahl",
		"quantite", "quantité", "nombre de", "pages", "cantidad", "existencias", "paginas", "páginas", "quantita", "quantità", "giacenza", "pagine",
		"aantal", "voorraad", "paginas", "quantidade", "estoque", "ilosc", "ilość", "liczba", "stron", "liczba stron",
	},
	SemPercentage: {"percentage", "percent", "pct", "prozent", "prozentsatz", "pourcentage", "porcentaje", "percentuale", "percentagem", "porcentagem", "procent", "odsetek", "discount", "rabatt", "remise", "descuento", "sconto", "korting", "desconto", "rabat"},
	SemWeight:     {"weight", "mass", "gewicht", "poids", "peso", "massa", "waga", "kg"},
	SemDimension:  {"width", "height", "length", "depth", "size", "breite", "lange", "länge", "szerokosc", "szerokość", "hohe", "höhe", "tiefe", "grosse", "größe", "largeur", "hauteur", "longueur", "profondeur", "taille", "ancho", "alto", "altura", "largo", "profundidad", "tamano", "tamaño", "larghezza", "altezza", "lunghezza", "profondita", "dimensione", "breedte", "hoogte", "lengte", "diepte", "grootte", "largura", "comprimento", "tamanho", "wysokosc", "wysokość", "dlugosc", "długość", "glebokosc", "rozmiar"},
	SemDuration:   {"duration", "runtime", "running time", "minutes", "dauer", "laufzeit", "spieldauer", "duree", "durée", "duracion", "duración", "durata", "duur", "speelduur", "duracao", "duração", "czas trwania"},
	SemIPAddress:  {"ip", "ip address", "ipaddress", "ip adresse", "adresse ip", "direccion ip", "indirizzo ip", "ip adres", "endereco ip", "adres ip"},
	SemIBAN:       {"iban", "bank account", "account number", "kontonummer", "bankverbindung", "compte bancaire", "cuenta bancaria", "conto bancario", "rekeningnummer", "conta bancaria", "numer konta", "rachunek bankowy"},
	SemLanguage:   {"language", "lang", "locale", "sprache", "langue", "idioma", "lingua", "taal", "jezyk", "język"},
	SemTitle:      {"title", "headline", "heading", "subtitle", "titel", "uberschrift", "überschrift", "titre", "sous titre", "titulo", "título", "subtitulo", "titolo", "sottotitolo", "kop", "koptekst", "ondertitel", "tytul", "tytuł", "naglowek", "nagłówek", "podtytul"},
	SemDescription: {
		"description", "summary", "bio", "biography", "about", "notes", "details", "overview", "synopsis", "abstract", "excerpt",
		"beschreibung", "zusammenfassung", "notizen", "biografie", "resume", "résumé", "biographie", "descripcion", "descripción", "resumen", "biografia",
		"descrizione", "riassunto", "sommario", "note", "beschrijving", "samenvatting", "omschrijving", "descricao", "descrição", "resumo", "sinopse",
		"opis", "streszczenie", "notatki", "uwagi",
	},
}
