package fields_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/templates/fields"
)

type detectCase struct {
	name, label, fieldType, want string
}

// tunedNames are the names the synonym table was built and adjusted with.
var tunedNames = []detectCase{
	// English
	{"email", "", "text", "email"},
	{"billing_email", "", "text", "email"},
	{"email_address", "", "text", "email"},
	{"phone_number", "", "text", "phone"},
	{"mobile", "", "text", "phone"},
	{"website", "", "text", "url"},
	{"firstName", "", "text", "first_name"},
	{"last_name", "", "text", "last_name"},
	{"full_name", "", "text", "full_name"},
	{"name", "", "text", "full_name"},
	{"username", "", "text", "username"},
	{"company_name", "", "text", "company"},
	{"job_title", "", "text", "job_title"},
	{"street_address", "", "text", "address"},
	{"shipping_address_city", "", "text", "city"},
	{"zip_code", "", "text", "postcode"},
	{"postal_code", "", "text", "postcode"},
	{"state", "", "text", "state"},
	{"country", "", "text", "country"},
	{"lat", "", "number", "latitude"},
	{"lng", "", "number", "longitude"},
	{"price", "", "number", "price"},
	{"sale_price", "", "number", "price"},
	{"currency", "", "text", "currency"},
	{"rating", "", "range", "rating"},
	{"isbn_13", "", "text", "isbn"},
	{"sku", "", "text", "sku"},
	{"colour", "", "text", "color"},
	{"birthday", "", "date_picker", "birth_date"},
	{"release_year", "", "number", "year"},
	{"number_of_pages", "", "number", "quantity"},
	{"discount_percent", "", "number", "percentage"},
	{"weight", "", "number", "weight"},
	{"runtime", "", "number", "duration"},
	{"ip_address", "", "text", "ip_address"},
	{"iban", "", "text", "iban"},
	{"language", "", "text", "language"},
	{"book_title", "", "text", "title"},
	{"long_description", "", "textarea", "description"},
	{"field_5f8a1c2b", "Email", "text", "email"},
	// German
	{"vorname", "", "text", "first_name"},
	{"nachname", "", "text", "last_name"},
	{"telefonnummer", "", "text", "phone"},
	{"kundentelefon", "", "text", "phone"},
	{"Postleitzahl", "", "text", "postcode"},
	{"strasse", "", "text", "address"},
	{"stadt", "", "text", "city"},
	{"Preis (EUR)", "", "text", "price"},
	{"geburtsdatum", "", "date_picker", "birth_date"},
	{"firma", "", "text", "company"},
	{"breitengrad", "", "number", "latitude"},
	{"farbe", "", "color_picker", "color"},
	// French
	{"prenom", "", "text", "first_name"},
	{"nom", "", "text", "last_name"},
	{"courriel", "", "text", "email"},
	{"code_postal", "", "text", "postcode"},
	{"ville", "", "text", "city"},
	{"prix", "", "number", "price"},
	{"pays", "", "text", "country"},
	{"date_de_naissance", "", "date_picker", "birth_date"},
	// Spanish
	{"nombre", "", "text", "first_name"},
	{"apellido", "", "text", "last_name"},
	{"correo_electronico", "", "text", "email"},
	{"teléfono", "", "text", "phone"},
	{"ciudad", "", "text", "city"},
	{"código postal", "", "text", "postcode"},
	{"precio", "", "number", "price"},
	{"dirección", "", "text", "address"},
	// Italian
	{"cognome", "", "text", "last_name"},
	{"citta", "", "text", "city"},
	{"prezzo", "", "number", "price"},
	{"indirizzo", "", "text", "address"},
	{"valutazione", "", "number", "rating"},
	// Dutch
	{"voornaam", "", "text", "first_name"},
	{"achternaam", "", "text", "last_name"},
	{"woonplaats", "", "text", "city"},
	{"prijs", "", "number", "price"},
	{"telefoonnummer", "", "text", "phone"},
	// Portuguese
	{"sobrenome", "", "text", "last_name"},
	{"cidade", "", "text", "city"},
	{"preço", "", "number", "price"},
	{"endereço", "", "text", "address"},
	// Polish
	{"imie", "", "text", "first_name"},
	{"nazwisko", "", "text", "last_name"},
	{"numer_telefonu", "", "text", "phone"},
	{"miasto", "", "text", "city"},
	{"cena", "", "number", "price"},
	{"kod_pocztowy", "", "text", "postcode"},
	// Field types alone, and what must not be detected.
	{"contact", "", "email", "email"},
	{"when", "", "date_picker", "date"},
	{"product_name", "", "text", ""},
	{"notes_internal", "", "true_false", ""},
	{"related_books", "", "relationship", ""},
	{"email", "", "number", ""},
	{"price", "", "email", "email"},
}

// heldOutNames were written before running the detector on them and never
// used to adjust it: they measure how well detection generalises.
var heldOutNames = []detectCase{
	{"customer_email_address", "", "text", "email"},
	{"contactPhone", "", "text", "phone"},
	{"Handynummer", "", "text", "phone"},
	{"numero_cellulare", "", "text", "phone"},
	{"author_website_url", "", "url", "url"},
	{"given_name", "", "text", "first_name"},
	{"family_name", "", "text", "last_name"},
	{"Familienname", "", "text", "last_name"},
	{"wohnort", "", "text", "city"},
	{"localidad", "", "text", "city"},
	{"plaats", "", "text", "city"},
	{"billingZip", "", "text", "postcode"},
	{"CAP", "", "text", "postcode"},
	{"codigo_postal", "", "text", "postcode"},
	{"bundesland", "", "text", "state"},
	{"provincia", "", "text", "state"},
	{"land", "", "select", "country"},
	{"paese", "", "text", "country"},
	{"latitude", "", "text", "latitude"},
	{"longitud", "", "number", "longitude"},
	{"regular_price", "", "number", "price"},
	{"kosten", "", "number", "price"},
	{"koszt", "", "number", "price"},
	{"stars", "", "number", "rating"},
	{"bewertung", "", "range", "rating"},
	{"product_sku", "", "text", "sku"},
	{"artikelnummer", "", "text", "sku"},
	{"hex_color", "", "text", "color"},
	{"couleur", "", "color_picker", "color"},
	{"event_date", "", "date_picker", "date"},
	{"fecha", "", "date_picker", "date"},
	{"data_urodzenia", "", "date_picker", "birth_date"},
	{"baujahr", "", "number", "year"},
	{"anno", "", "number", "year"},
	{"stock_quantity", "", "number", "quantity"},
	{"aantal", "", "number", "quantity"},
	{"employer", "", "text", "company"},
	{"empresa", "", "text", "company"},
	{"beroep", "", "text", "job_title"},
	{"kurzbeschreibung", "", "textarea", "description"},
	{"opis", "", "textarea", "description"},
	{"x1", "Adresse e-mail", "text", "email"},
	{"f_17", "Número de teléfono", "text", "phone"},
	{"gewicht_kg", "", "number", "weight"},
	{"duree", "", "number", "duration"},
	{"headline", "", "text", "title"},
	{"subtitle", "", "text", "title"},
	{"isbn10", "", "text", "isbn"},
	{"publisher_name", "", "text", ""},
	{"is_featured", "", "true_false", ""},
	{"acf_contact_mail", "", "text", "email"},
	{"tel_fixe", "", "text", "phone"},
	{"codigoPostal", "", "text", "postcode"},
	{"emailAdresse", "", "text", "email"},
	{"Geburtstag", "", "date_picker", "birth_date"},
	{"orario_apertura", "", "time_picker", "time"},
	{"vat_number", "", "text", ""},
	{"lieu", "", "text", "city"},
	{"wojewodztwo", "", "text", "state"},
	{"miejscowosc", "", "text", "city"},
	{"rua", "", "text", "address"},
	{"ulica", "", "text", "address"},
	{"unit_price", "", "number", "price"},
	{"avg_rating", "", "number", "rating"},
	{"ean13", "", "text", "sku"},
	{"dataNascimento", "", "date_picker", "birth_date"},
	{"kleur", "", "text", "color"},
	{"hauteur_cm", "", "number", "dimension"},
	{"streetName", "", "text", "address"},
	{"ordernummer", "", "text", ""},
}

func detect(c detectCase) fields.Detection {
	f := fields.Field{Key: "field_" + c.name, Name: c.name, Label: c.label, Type: c.fieldType}
	return fields.Detect(&f)
}

func TestDetectTunedNames(t *testing.T) {
	t.Parallel()
	langs := 0
	for _, c := range tunedNames {
		t.Run(c.name+"/"+c.fieldType, func(t *testing.T) {
			d := detect(c)
			require.Equal(t, c.want, d.Type, "detection %+v", d)
			if c.want == "" {
				require.Zero(t, d.Confidence)
				return
			}
			require.GreaterOrEqual(t, d.Confidence, fields.MinConfidence)
			require.LessOrEqual(t, d.Confidence, 1.0)
			require.True(t, fields.IsSemanticType(d.Type))
			require.True(t, fields.SemanticFits(d.Type, c.fieldType), "a detection always fits the field type")
		})
		langs++
	}
	require.GreaterOrEqual(t, langs, 60)
}

func TestDetectHeldOutNames(t *testing.T) {
	t.Parallel()
	var misses []string
	for _, c := range heldOutNames {
		d := detect(c)
		if d.Type != c.want {
			misses = append(misses, c.name+" ("+c.label+") => "+d.Type+", want "+c.want)
		}
	}
	hit := float64(len(heldOutNames)-len(misses)) / float64(len(heldOutNames))
	t.Logf("held-out accuracy %.0f%% (%d of %d); misses: %q", 100*hit, len(heldOutNames)-len(misses), len(heldOutNames), misses)
	require.GreaterOrEqual(t, hit, 0.8, "detection generalises to names it was not tuned on")
}

func TestDetectConfidenceOrder(t *testing.T) {
	t.Parallel()
	exact := detect(detectCase{"email", "", "text", ""})
	partial := detect(detectCase{"billing_email", "", "text", ""})
	compound := detect(detectCase{"kundenemail", "", "text", ""})
	require.Equal(t, "email", compound.Type)
	require.Greater(t, exact.Confidence, partial.Confidence, "a whole-name match is surer than a part")
	require.Greater(t, partial.Confidence, compound.Confidence, "a separate word is surer than part of a compound")
	agreeing := fields.Detect(&fields.Field{Name: "email", Label: "E-Mail-Adresse", Type: "text"})
	require.Equal(t, "email", agreeing.Type)
	require.GreaterOrEqual(t, agreeing.Confidence, exact.Confidence, "name and label agreeing never lower confidence")

	fromInstructions := fields.Detect(&fields.Field{Name: "contact", Instructions: "The customer's phone number", Type: "text"})
	require.Equal(t, "phone", fromInstructions.Type)
	require.Equal(t, "instructions", fromInstructions.Source)
	require.Less(t, fromInstructions.Confidence, exact.Confidence)
}

func TestSemanticTypes(t *testing.T) {
	t.Parallel()
	types := fields.SemanticTypes()
	require.GreaterOrEqual(t, len(types), 30)
	seen := map[string]bool{}
	for _, s := range types {
		require.False(t, seen[s], "duplicate %s", s)
		seen[s] = true
		require.True(t, fields.IsSemanticType(s))
		require.True(t, fields.SemanticFits(s, fields.TypeText), "%s fits a text field", s)
	}
	require.False(t, fields.IsSemanticType("shoe_size"))
	types[0] = "mutated"
	require.Equal(t, "email", fields.SemanticTypes()[0], "callers get a copy")

	// An AI detector's answer is checked before use.
	require.False(t, fields.SemanticFits("email", fields.TypeNumber))
	require.True(t, fields.SemanticFits("price", fields.TypeRange))
	require.False(t, fields.SemanticFits("nonsense", fields.TypeText))
}

func TestDetectFieldsAndCache(t *testing.T) {
	t.Parallel()
	defs := []fields.Field{
		{Key: "f1", Name: "email", Type: "text"},
		{Key: "f2", Name: "price", Type: "number", DetectedType: "rating"},
		{Key: "f3", Name: "schedule", Type: "repeater", SubFields: []fields.Field{{Key: "f4", Name: "stadt", Type: "text"}}},
	}
	out := fields.DetectFields(defs)
	require.Equal(t, "email", out[0].DetectedType)
	require.Equal(t, "rating", out[1].DetectedType, "a detection already made is kept")
	require.Equal(t, "city", out[2].SubFields[0].DetectedType)
	require.Empty(t, defs[0].DetectedType, "the input is not modified")

	var cache fields.DetectionCache
	got := cache.Detect("event", defs)
	require.Equal(t, out, got)
	require.Len(t, cache.Get("event"), 3, "detections are cached per field key")
	cache.Put("event", map[string]fields.Detection{"f1": {Type: "url", Confidence: 0.9, Source: "ai_one"}})
	require.Equal(t, "url", cache.Detect("event", defs)[0].DetectedType, "cached answers win")
	cache.Detect("book", defs[:1])
	require.Equal(t, 3, cache.Clear("event"))
	require.Equal(t, 0, cache.Clear("event"))
	require.Equal(t, 1, cache.ClearAll())
	require.Empty(t, cache.Get("book"))
}
