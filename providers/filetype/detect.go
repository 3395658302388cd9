package filetype

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"io"
	"net/http"
	"strings"
	"unicode/utf16"
)

// Detect returns the type of data judged from its content alone. It never
// fails: content it cannot place is NameUnknown, an empty slice NameEmpty.
func Detect(data []byte) Type {
	return lookup(detectName(data))
}

func detectName(b []byte) string {
	if len(b) == 0 {
		return NameEmpty
	}
	switch {
	case bytes.HasPrefix(b, []byte{0xff, 0xd8, 0xff}):
		return "jpeg"
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "png"
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return "gif"
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return "webp"
	case isBMP(b):
		return "bmp"
	case len(b) >= 12 && string(b[4:8]) == "ftyp" && (string(b[8:12]) == "avif" || string(b[8:12]) == "avis"):
		return "avif"
	case bytes.Contains(b[:min(len(b), 1024)], []byte("%PDF-")):
		return "pdf"
	case bytes.HasPrefix(b, []byte(`{\rtf`)):
		return "rtf"
	case bytes.HasPrefix(b, []byte{0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1}):
		return detectOLE(b)
	case bytes.HasPrefix(b, []byte("PK\x03\x04")), bytes.HasPrefix(b, []byte("PK\x05\x06")):
		return detectZip(b)
	case bytes.HasPrefix(b, []byte{0x1f, 0x8b}):
		return "gz"
	case bytes.HasPrefix(b, []byte{'7', 'z', 0xbc, 0xaf, 0x27, 0x1c}):
		return "7z"
	case bytes.HasPrefix(b, []byte("Rar!\x1a\x07")):
		return "rar"
	case len(b) >= 4 && string(b[:3]) == "BZh" && b[3] >= '1' && b[3] <= '9':
		return "bz2"
	case bytes.HasPrefix(b, []byte{0xfd, '7', 'z', 'X', 'Z', 0x00}):
		return "xz"
	case len(b) >= 262 && string(b[257:262]) == "ustar":
		return "tar"
	case isExecutable(b):
		return NameExecutable
	case bytes.HasPrefix(b, []byte("#!")):
		return NameScript
	}
	return detectText(b)
}

// isBMP checks the BMP signature and a known DIB header size, so that text
// starting with "BM" is not taken for a bitmap.
func isBMP(b []byte) bool {
	if len(b) < 26 || b[0] != 'B' || b[1] != 'M' {
		return false
	}
	switch binary.LittleEndian.Uint32(b[14:18]) {
	case 12, 40, 52, 56, 64, 108, 124:
		return true
	}
	return false
}

// isExecutable recognises PE (Windows), ELF, Mach-O, Java class and
// WebAssembly binaries.
func isExecutable(b []byte) bool {
	if len(b) >= 4 {
		switch string(b[:4]) {
		case "\x7fELF", "\xfe\xed\xfa\xce", "\xfe\xed\xfa\xcf", "\xce\xfa\xed\xfe", "\xcf\xfa\xed\xfe", "\xca\xfe\xba\xbe", "\x00asm":
			return true
		}
	}
	if len(b) >= 2 && b[0] == 'M' && b[1] == 'Z' {
		if len(b) >= 64 {
			off := int(binary.LittleEndian.Uint32(b[60:64]))
			if off > 0 && off+4 <= len(b) && string(b[off:off+4]) == "PE\x00\x00" {
				return true
			}
		}
		// A DOS program or a truncated PE: binary bytes give it away.
		return !looksText(b)
	}
	return false
}

// oleStreams are the stream names that identify OLE compound documents.
var oleStreams = [...]struct{ name, kind string }{
	{"WordDocument", "doc"},
	{"PowerPoint Document", "ppt"},
	{"Workbook", "xls"},
	{"Book", "xls"},
}

// detectOLE tells Word, PowerPoint and Excel files apart by the names in
// the compound file's directory (UTF-16LE); other compound files (MSI
// installers, for one) stay NameOLE.
func detectOLE(b []byte) string {
	for _, s := range oleStreams {
		if oleHas(b, s.name) {
			return s.kind
		}
	}
	return NameOLE
}

// oleHasKind reports whether a compound file has a stream of kind (doc,
// xls or ppt).
func oleHasKind(b []byte, kind string) bool {
	for _, s := range oleStreams {
		if s.kind == kind && oleHas(b, s.name) {
			return true
		}
	}
	return false
}

// oleHas searches for a directory entry name: UTF-16LE, NUL-terminated.
func oleHas(b []byte, name string) bool {
	u := utf16.Encode([]rune(name))
	pat := make([]byte, 0, 2*len(u)+2)
	for _, c := range u {
		pat = append(pat, byte(c), byte(c>>8))
	}
	pat = append(pat, 0, 0)
	return bytes.Contains(b, pat)
}

// detectZip opens a ZIP container and looks at its parts.
func detectZip(b []byte) string {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return "zip"
	}
	var contentTypes, word, xl, ppt, manifest, class bool
	for i, f := range zr.File {
		if i > 5000 {
			break
		}
		name := f.Name
		switch {
		case name == "mimetype" && i == 0:
			if kind := odfKind(f); kind != "" {
				return kind
			}
		case name == "[Content_Types].xml":
			contentTypes = true
		case strings.HasPrefix(name, "word/"):
			word = true
		case strings.HasPrefix(name, "xl/"):
			xl = true
		case strings.HasPrefix(name, "ppt/"):
			ppt = true
		case name == "META-INF/MANIFEST.MF":
			manifest = true
		case strings.HasSuffix(name, ".class"), name == "classes.dex":
			class = true
		}
	}
	switch {
	case contentTypes && word:
		return "docx"
	case contentTypes && xl:
		return "xlsx"
	case contentTypes && ppt:
		return "pptx"
	case manifest && class:
		return NameJar
	}
	return "zip"
}

// odfKind reads the stored mimetype entry of an OpenDocument file.
func odfKind(f *zip.File) string {
	if f.UncompressedSize64 > 128 {
		return ""
	}
	rc, err := f.Open()
	if err != nil {
		return ""
	}
	defer rc.Close()
	mt, err := io.ReadAll(io.LimitReader(rc, 128))
	if err != nil {
		return ""
	}
	switch strings.TrimSpace(string(mt)) {
	case "application/vnd.oasis.opendocument.text":
		return "odt"
	case "application/vnd.oasis.opendocument.spreadsheet":
		return "ods"
	case "application/vnd.oasis.opendocument.presentation":
		return "odp"
	}
	return ""
}

// markup are fragments that make text unsafe to serve: a browser that
// sniffs would render or run it, and a server might execute it.
var markup = [...]string{"<svg", "<?php", "<?=", "<script", "<html", "<!doctype html", "<iframe", "<object", "<embed", "<body", "<head"}

// detectText classifies what is left with net/http's sniffer (HTML and
// XML, SVG when it has an svg element) and a check for binary bytes:
// content without any is plain text, unless it carries markup or script.
func detectText(b []byte) string {
	ct := http.DetectContentType(b)
	head := strings.ToLower(string(b[:min(len(b), 8192)]))
	switch {
	case strings.HasPrefix(ct, "text/html"):
		return NameHTML
	case strings.HasPrefix(ct, "text/xml"), strings.HasPrefix(ct, "application/xml"):
		if strings.Contains(head, "<svg") {
			return NameSVG
		}
		return NameXML
	case strings.HasPrefix(ct, "text/plain"), looksText(b):
		for _, m := range markup {
			if strings.Contains(head, m) {
				switch {
				case m == "<svg":
					return NameSVG
				case strings.HasPrefix(m, "<?"), m == "<script":
					return NameScript
				}
				return NameHTML
			}
		}
		return "txt"
	}
	return NameUnknown
}

// looksText reports whether the first 8 KiB hold no bytes that never
// occur in text (the same set net/http's sniffer uses).
func looksText(b []byte) bool {
	for _, c := range b[:min(len(b), 8192)] {
		if c <= 0x08 || c == 0x0b || 0x0e <= c && c <= 0x1a || 0x1c <= c && c <= 0x1f {
			return false
		}
	}
	return true
}
