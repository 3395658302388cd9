package wphost

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// maxSlugBytes is the length WordPress keeps of a post slug (after
// percent-encoding): utf8_uri_encode's limit in sanitize_title.
const maxSlugBytes = 200

// accentFree spells the letters that WordPress's remove_accents turns into
// more than their base letter, or that have no decomposition.
var accentFree = strings.NewReplacer(
	"ß", "ss", "Æ", "AE", "æ", "ae", "Ø", "O", "ø", "o", "Œ", "OE", "œ", "oe",
	"Þ", "TH", "þ", "th", "Ð", "D", "ð", "d", "Đ", "D", "đ", "d", "Ł", "L", "ł", "l",
	"Ħ", "H", "ħ", "h", "ı", "i", "Ŋ", "N", "ŋ", "n", "Ŧ", "T", "ŧ", "t",
)

var (
	tagRe     = regexp.MustCompile(`<[^>]*>`)
	entityRe  = regexp.MustCompile(`&.+?;`)
	badPctRe  = regexp.MustCompile(`%([^0-9a-fA-F]|[0-9a-fA-F][^0-9a-fA-F]|[0-9a-fA-F]?$)`)
	notSlugRe = regexp.MustCompile(`[^%a-z0-9 _-]`)
	spacesRe  = regexp.MustCompile(`\s+`)
	dashesRe  = regexp.MustCompile(`-+`)
)

// sanitizeTitle makes a slug of a title as WordPress's sanitize_title
// does with its default filters (remove_accents, then
// sanitize_title_with_dashes): accents removed from Latin letters, tags
// and entities dropped, lower case, other non-ASCII characters
// percent-encoded up to 200 bytes, runs of spaces and dashes made one
// dash. It returns "" when nothing is left.
func sanitizeTitle(title string) string {
	s := removeAccents(title)
	s = tagRe.ReplaceAllString(s, "")
	// A % not starting an escaped octet goes.
	for badPctRe.MatchString(s) {
		s = badPctRe.ReplaceAllStringFunc(s, func(m string) string { return m[1:] })
	}
	s = strings.ToLower(s)
	s = uriEncode(s, maxSlugBytes)
	s = strings.ToLower(s)
	s = entityRe.ReplaceAllString(s, "")
	s = strings.ReplaceAll(s, ".", "-")
	s = notSlugRe.ReplaceAllString(s, "")
	s = spacesRe.ReplaceAllString(s, "-")
	s = dashesRe.ReplaceAllString(s, "-")
	return strings.Trim(s, "-")
}

// removeAccents turns accented Latin letters into plain ones.
func removeAccents(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	s = accentFree.Replace(s)
	d := norm.NFD.String(s)
	var b strings.Builder
	b.Grow(len(d))
	for _, r := range d {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(r)
	}
	return norm.NFC.String(b.String())
}

// uriEncode percent-encodes the non-ASCII characters of s and keeps at
// most limit bytes of the result, never cutting a character.
func uriEncode(s string, limit int) string {
	var b strings.Builder
	for _, r := range s {
		var piece string
		if r < utf8.RuneSelf {
			piece = string(r)
		} else {
			var buf [utf8.UTFMax]byte
			n := utf8.EncodeRune(buf[:], r)
			var p strings.Builder
			for _, c := range buf[:n] {
				p.WriteString("%" + strings.ToLower(strconv.FormatUint(uint64(c)|0x100, 16)[1:]))
			}
			piece = p.String()
		}
		if b.Len()+len(piece) > limit {
			break
		}
		b.WriteString(piece)
	}
	return b.String()
}

// truncateSlug cuts slug to at most n bytes without splitting an escaped
// octet, and drops trailing dashes, as _truncate_post_slug does.
func truncateSlug(slug string, n int) string {
	if len(slug) > n {
		cut := n
		// Back up to the start of a %XX triplet cut in two.
		for i := max(cut-2, 0); i < cut; i++ {
			if slug[i] == '%' {
				cut = i
				break
			}
		}
		slug = slug[:cut]
	}
	return strings.TrimRight(slug, "-")
}

// uniqueSlug returns base when taken does not hold it, else the first of
// base-2, base-3, ... that it does not hold, each cut so that it stays
// within 200 bytes, as wp_unique_post_slug and wp_unique_term_slug make
// them.
func uniqueSlug(base string, taken func(string) bool) string {
	if !taken(base) {
		return base
	}
	for n := 2; ; n++ {
		suffix := strconv.Itoa(n)
		alt := truncateSlug(base, maxSlugBytes-(len(suffix)+1)) + "-" + suffix
		if !taken(alt) {
			return alt
		}
	}
}

// slugBase returns the part of a slug before a numeric suffix "-N" that
// uniqueSlug may have added, for looking up clashes.
func slugBase(slug string) string {
	i := strings.LastIndexByte(slug, '-')
	if i <= 0 {
		return slug
	}
	if _, err := strconv.Atoi(slug[i+1:]); err != nil {
		return slug
	}
	return slug[:i]
}
