package filetype

import (
	"path"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/contentgen/contentgen/internal/ascii"
)

// MaxFilenameLength is the longest name SanitizeFilename returns, in
// bytes (all ASCII).
const MaxFilenameLength = 100

// baseName returns the last element of a path written with / or \.
func baseName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// SanitizeFilename returns a safe file name for storage and URLs:
//   - only the last path element is kept (no directories, no "..");
//   - letters lose their accents (é to e, ß to ss), other characters that
//     are not ASCII letters, digits, '-', '_' or '.' become '-';
//   - no leading dots or dashes, no trailing dots;
//   - dots inside the base name become '_', so that "shell.php.png" cannot
//     be taken for PHP by a web server ("archive.tar.gz" is kept);
//   - the extension is lower-cased, Windows device names get a prefix, and
//     the result is at most MaxFilenameLength bytes.
//
// An empty result becomes "file".
func SanitizeFilename(name string) string {
	name = baseName(name)
	var b strings.Builder
	for _, r := range norm.NFD.String(name) {
		switch {
		case r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.'):
			b.WriteRune(r)
		case unicode.Is(unicode.Mn, r), unicode.IsControl(r), unicode.Is(unicode.Cf, r):
		default:
			if s, ok := ascii.Letter(r); ok {
				b.WriteString(s)
			} else {
				b.WriteByte('-')
			}
		}
	}
	s := strings.TrimRight(b.String(), ".-_")

	// Split off the extension. A name that is only a dot and a word
	// (".htaccess") is a base name, not an extension.
	base, ext := s, ""
	if i := strings.LastIndexByte(s, '.'); i > 0 {
		base, ext = s[:i], strings.ToLower(s[i+1:])
	}
	if len(ext) > 10 || strings.ContainsAny(ext, "-_") {
		base, ext = s, ""
	}
	base = collapse(base)
	tar := ""
	if (ext == "gz" || ext == "bz2" || ext == "xz") && strings.HasSuffix(strings.ToLower(base), ".tar") {
		base, tar = base[:len(base)-4], ".tar"
	}
	base = strings.Trim(strings.ReplaceAll(strings.TrimLeft(base, ".-_"), ".", "_"), "-_")
	if base == "" {
		base = "file"
	}
	if reserved(base) {
		base = "file-" + base
	}
	suffix := tar
	if ext != "" {
		suffix += "." + ext
	}
	if len(base)+len(suffix) > MaxFilenameLength {
		base = strings.TrimRight(base[:max(MaxFilenameLength-len(suffix), 1)], "-_")
		if base == "" {
			base = "file"
		}
	}
	return base + suffix
}

// Filename sanitises name and makes its extension fit t: a name whose
// extension already stands for t keeps it (".jpeg" for a JPEG), otherwise
// t.Ext replaces it ("photo.png" holding a JPEG becomes "photo.jpg").
func Filename(name string, t Type) string {
	s := SanitizeFilename(name)
	ext := strings.TrimPrefix(path.Ext(s), ".")
	if e, ok := ByExtension(ext); ok && e.Name == t.Name {
		return s
	}
	if t.Ext == "" {
		return s
	}
	base := strings.TrimSuffix(s, path.Ext(s))
	if _, known := ByExtension(ext); !known && ext != "" {
		base = strings.ReplaceAll(s, ".", "_")
	}
	return SanitizeFilename(base + "." + t.Ext)
}

// collapse shortens each run of separators ('-', '_', '.') to one: a dot
// when the run has one, otherwise its first character.
func collapse(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c != '-' && c != '_' && c != '.' {
			b.WriteByte(c)
			i++
			continue
		}
		j, sep := i, c
		for ; j < len(s) && (s[j] == '-' || s[j] == '_' || s[j] == '.'); j++ {
			if s[j] == '.' {
				sep = '.'
			}
		}
		b.WriteByte(sep)
		i = j
	}
	return b.String()
}

// reserved reports Windows device names, which cannot be files there.
func reserved(base string) bool {
	switch strings.ToLower(base) {
	case "con", "prn", "aux", "nul",
		"com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8", "com9",
		"lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9":
		return true
	}
	return false
}
