package filetype

import (
	"slices"
	"strings"
)

// Groups of file types. The last four are the values of the file_type
// filter of GET /media/files.
const (
	GroupImage       = "image"
	GroupPDF         = "pdf"
	GroupDocument    = "document"
	GroupSpreadsheet = "spreadsheet"
	GroupArchive     = "archive"
)

// Type is a file type.
type Type struct {
	// Name is a short identifier such as "jpeg", "docx" or "html".
	Name string
	// MIMEType is the media type to store and serve the file with.
	MIMEType string
	// Ext is the canonical extension without the dot.
	Ext string
	// Group is one of the Group constants, empty for types that are never
	// allowed.
	Group string
}

// Names of types that Detect can return but that are never allowed.
const (
	NameHTML       = "html"
	NameSVG        = "svg"
	NameXML        = "xml"
	NameScript     = "script"
	NameExecutable = "executable"
	NameJar        = "jar"
	NameOLE        = "ole"
	NameUnknown    = "unknown"
	NameEmpty      = "empty"
)

// table lists the known types; aliases lists further extensions.
var table = [...]struct {
	Type
	aliases []string
}{
	{Type{"jpeg", "image/jpeg", "jpg", GroupImage}, []string{"jpeg", "jpe"}},
	{Type{"png", "image/png", "png", GroupImage}, nil},
	{Type{"gif", "image/gif", "gif", GroupImage}, nil},
	{Type{"webp", "image/webp", "webp", GroupImage}, nil},
	{Type{"bmp", "image/bmp", "bmp", GroupImage}, nil},
	{Type{"avif", "image/avif", "avif", GroupImage}, nil},
	{Type{"pdf", "application/pdf", "pdf", GroupPDF}, nil},
	{Type{"doc", "application/msword", "doc", GroupDocument}, nil},
	{Type{"docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "docx", GroupDocument}, nil},
	{Type{"odt", "application/vnd.oasis.opendocument.text", "odt", GroupDocument}, nil},
	{Type{"rtf", "application/rtf", "rtf", GroupDocument}, nil},
	{Type{"ppt", "application/vnd.ms-powerpoint", "ppt", GroupDocument}, []string{"pps"}},
	{Type{"pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation", "pptx", GroupDocument}, nil},
	{Type{"odp", "application/vnd.oasis.opendocument.presentation", "odp", GroupDocument}, nil},
	{Type{"txt", "text/plain", "txt", GroupDocument}, []string{"text"}},
	{Type{"xls", "application/vnd.ms-excel", "xls", GroupSpreadsheet}, nil},
	{Type{"xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx", GroupSpreadsheet}, nil},
	{Type{"ods", "application/vnd.oasis.opendocument.spreadsheet", "ods", GroupSpreadsheet}, nil},
	{Type{"csv", "text/csv", "csv", GroupSpreadsheet}, nil},
	{Type{"tsv", "text/tab-separated-values", "tsv", GroupSpreadsheet}, nil},
	{Type{"zip", "application/zip", "zip", GroupArchive}, nil},
	{Type{"gz", "application/gzip", "gz", GroupArchive}, []string{"tgz"}},
	{Type{"7z", "application/x-7z-compressed", "7z", GroupArchive}, nil},
	{Type{"rar", "application/vnd.rar", "rar", GroupArchive}, nil},
	{Type{"tar", "application/x-tar", "tar", GroupArchive}, nil},
	{Type{"bz2", "application/x-bzip2", "bz2", GroupArchive}, []string{"tbz2"}},
	{Type{"xz", "application/x-xz", "xz", GroupArchive}, []string{"txz"}},
	// Never allowed.
	{Type{NameHTML, "text/html", "html", ""}, []string{"htm", "xhtml", "shtml"}},
	{Type{NameSVG, "image/svg+xml", "svg", ""}, []string{"svgz"}},
	{Type{NameXML, "text/xml", "xml", ""}, nil},
	{Type{NameScript, "text/x-script", "sh", ""}, []string{"php", "phtml", "php3", "php4", "php5", "phar", "js", "mjs", "cgi", "pl", "py", "rb", "bat", "cmd", "ps1", "vbs", "jsp", "asp", "aspx", "hta"}},
	{Type{NameExecutable, "application/x-executable", "exe", ""}, []string{"dll", "so", "com", "scr", "msi", "bin", "elf", "dylib", "class", "wasm", "apk"}},
	{Type{NameJar, "application/java-archive", "jar", ""}, nil},
	{Type{NameOLE, "application/x-ole-storage", "", ""}, nil},
	{Type{NameUnknown, "application/octet-stream", "", ""}, nil},
	{Type{NameEmpty, "application/octet-stream", "", ""}, nil},
}

// mimeAliases maps other spellings of MIME types to the table's.
var mimeAliases = [...][2]string{
	{"image/jpg", "image/jpeg"},
	{"image/pjpeg", "image/jpeg"},
	{"image/x-ms-bmp", "image/bmp"},
	{"text/rtf", "application/rtf"},
	{"application/x-rtf", "application/rtf"},
	{"text/comma-separated-values", "text/csv"},
	{"application/csv", "text/csv"},
	{"application/x-zip-compressed", "application/zip"},
	{"application/x-gzip", "application/gzip"},
	{"application/x-rar-compressed", "application/vnd.rar"},
	{"application/x-rar", "application/vnd.rar"},
	{"application/x-bzip", "application/x-bzip2"},
}

// lookup returns the table entry named name.
func lookup(name string) Type {
	for _, e := range table {
		if e.Name == name {
			return e.Type
		}
	}
	return Type{Name: NameUnknown, MIMEType: "application/octet-stream"}
}

// ByExtension returns the type an extension (with or without the dot, any
// case) stands for, and false for an extension it does not know.
func ByExtension(ext string) (Type, bool) {
	ext = strings.ToLower(strings.TrimPrefix(ext, "."))
	if ext == "" {
		return Type{}, false
	}
	for _, e := range table {
		if e.Ext == ext || slices.Contains(e.aliases, ext) {
			return e.Type, true
		}
	}
	return Type{}, false
}

// ByMIMEType returns the type of a media type (parameters and case are
// ignored), and false for one it does not know.
func ByMIMEType(mimeType string) (Type, bool) {
	mt := normalizeMIME(mimeType)
	for _, e := range table {
		if e.MIMEType == mt && e.Group != "" {
			return e.Type, true
		}
	}
	return Type{}, false
}

func normalizeMIME(mimeType string) string {
	mt, _, _ := strings.Cut(mimeType, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	for _, a := range mimeAliases {
		if a[0] == mt {
			return a[1]
		}
	}
	return mt
}

// DefaultAllowed returns the names of the types a content platform
// accepts by default: images, PDF, office documents and presentations,
// spreadsheets, plain text and archives. The slice is new on every call.
func DefaultAllowed() []string {
	var names []string
	for _, e := range table {
		if e.Group != "" {
			names = append(names, e.Name)
		}
	}
	return names
}

// Groups returns the values of the file_type filter of GET /media/files.
func Groups() []string {
	return []string{GroupPDF, GroupDocument, GroupSpreadsheet, GroupArchive}
}

// GroupOf returns the group of a MIME type (GroupImage, GroupPDF,
// GroupDocument, GroupSpreadsheet or GroupArchive), or "" when it belongs
// to none. Parameters, case and common alias spellings are accepted, and
// any image/* type counts as GroupImage.
func GroupOf(mimeType string) string {
	if t, ok := ByMIMEType(mimeType); ok {
		return t.Group
	}
	if strings.HasPrefix(normalizeMIME(mimeType), "image/") && normalizeMIME(mimeType) != "image/svg+xml" {
		return GroupImage
	}
	return ""
}

// GroupMIMETypes returns the MIME types of a group, including alias
// spellings, for filtering stored media by mime type; nil for an unknown
// group.
func GroupMIMETypes(group string) []string {
	var out []string
	for _, e := range table {
		if e.Group == group && group != "" {
			out = append(out, e.MIMEType)
		}
	}
	if out == nil {
		return nil
	}
	for _, a := range mimeAliases {
		if slices.Contains(out, a[1]) {
			out = append(out, a[0])
		}
	}
	return out
}
