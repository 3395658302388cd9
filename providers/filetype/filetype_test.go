package filetype_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/png"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/providers/filetype"
)

func pngBytes(t testing.TB) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 4, 4))))
	return buf.Bytes()
}

func zipOf(t testing.TB, files ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i < len(files); i += 2 {
		var w interface{ Write([]byte) (int, error) }
		var err error
		if files[i] == "mimetype" {
			w, err = zw.CreateHeader(&zip.FileHeader{Name: "mimetype", Method: zip.Store})
		} else {
			w, err = zw.Create(files[i])
		}
		require.NoError(t, err)
		_, err = w.Write([]byte(files[i+1]))
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// ole builds the start of a compound file with directory entry names.
func ole(names ...string) []byte {
	b := []byte{0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1}
	b = append(b, make([]byte, 504)...)
	for _, n := range names {
		entry := make([]byte, 128)
		for i, c := range utf16.Encode([]rune(n)) {
			binary.LittleEndian.PutUint16(entry[2*i:], c)
		}
		b = append(b, entry...)
	}
	return b
}

func tarOf(t testing.TB) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	require.NoError(t, tw.WriteHeader(&tar.Header{Name: "a.txt", Mode: 0o644, Size: 2}))
	_, err := tw.Write([]byte("hi"))
	require.NoError(t, err)
	require.NoError(t, tw.Close())
	return buf.Bytes()
}

func pe() []byte {
	b := make([]byte, 256)
	copy(b, "MZ")
	binary.LittleEndian.PutUint32(b[60:], 128)
	copy(b[128:], "PE\x00\x00")
	return b
}

func bmp() []byte {
	b := make([]byte, 64)
	copy(b, "BM")
	binary.LittleEndian.PutUint32(b[14:], 40)
	return b
}

func samples(t testing.TB) map[string][]byte {
	return map[string][]byte{
		"jpeg":       {0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 'J', 'F', 'I', 'F'},
		"png":        pngBytes(t),
		"gif":        []byte("GIF89a\x01\x00\x01\x00"),
		"webp":       []byte("RIFF\x10\x00\x00\x00WEBPVP8X"),
		"bmp":        bmp(),
		"avif":       []byte("\x00\x00\x00\x1cftypavif\x00\x00\x00\x00"),
		"pdf":        []byte("%PDF-1.7\n1 0 obj"),
		"rtf":        []byte(`{\rtf1\ansi Hello}`),
		"doc":        ole("Root Entry", "WordDocument", "1Table"),
		"xls":        ole("Root Entry", "Workbook"),
		"ppt":        ole("Root Entry", "PowerPoint Document"),
		"ole":        ole("Root Entry", "\u4840\u3b3f"),
		"docx":       zipOf(t, "[Content_Types].xml", "<Types/>", "word/document.xml", "<w:document/>"),
		"xlsx":       zipOf(t, "[Content_Types].xml", "<Types/>", "xl/workbook.xml", "<workbook/>"),
		"pptx":       zipOf(t, "[Content_Types].xml", "<Types/>", "ppt/presentation.xml", "<p/>"),
		"odt":        zipOf(t, "mimetype", "application/vnd.oasis.opendocument.text", "content.xml", "<c/>"),
		"ods":        zipOf(t, "mimetype", "application/vnd.oasis.opendocument.spreadsheet", "content.xml", "<c/>"),
		"zip":        zipOf(t, "notes.txt", "hello"),
		"jar":        zipOf(t, "META-INF/MANIFEST.MF", "Main-Class: X", "X.class", "\xca\xfe\xba\xbe"),
		"gz":         {0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0},
		"7z":         {'7', 'z', 0xbc, 0xaf, 0x27, 0x1c, 0, 4},
		"rar":        []byte("Rar!\x1a\x07\x01\x00"),
		"bz2":        []byte("BZh91AY&SY"),
		"xz":         {0xfd, '7', 'z', 'X', 'Z', 0, 0, 4},
		"tar":        tarOf(t),
		"executable": pe(),
		"elf":        []byte("\x7fELF\x02\x01\x01\x00\x00\x00"),
		"macho":      {0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1},
		"shebang":    []byte("#!/bin/sh\nrm -rf /\n"),
		"php":        []byte("<?php system($_GET['c']); ?>"),
		"html":       []byte("<!DOCTYPE html><html><script>alert(1)</script></html>"),
		"svg":        []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`),
		"bare svg":   []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`),
		"xml":        []byte(`<?xml version="1.0"?><note>hi</note>`),
		"txt":        []byte("Just some notes.\nSecond line.\n"),
		"csv":        []byte("name;price\nÄpfel;1,20\n"),
		"csv BM":     []byte("BMW,Audi\n1,2\n"),
		"text MZ":    []byte("MZ,Mainz\n"),
		"binary":     {0x00, 0x01, 0x02, 0x03, 0x04, 0xff, 0xfe},
		"empty":      {},
	}
}

func TestDetect(t *testing.T) {
	t.Parallel()
	want := map[string]string{
		"jpeg": "jpeg", "png": "png", "gif": "gif", "webp": "webp", "bmp": "bmp", "avif": "avif",
		"pdf": "pdf", "rtf": "rtf", "doc": "doc", "xls": "xls", "ppt": "ppt", "ole": filetype.NameOLE,
		"docx": "docx", "xlsx": "xlsx", "pptx": "pptx", "odt": "odt", "ods": "ods", "zip": "zip", "jar": filetype.NameJar,
		"gz": "gz", "7z": "7z", "rar": "rar", "bz2": "bz2", "xz": "xz", "tar": "tar",
		"executable": filetype.NameExecutable, "elf": filetype.NameExecutable, "macho": filetype.NameExecutable,
		"shebang": filetype.NameScript, "php": filetype.NameScript, "html": filetype.NameHTML,
		"svg": filetype.NameSVG, "bare svg": filetype.NameSVG, "xml": filetype.NameXML,
		"txt": "txt", "csv": "txt", "csv BM": "txt", "text MZ": "txt",
		"binary": filetype.NameUnknown, "empty": filetype.NameEmpty,
	}
	s := samples(t)
	require.Len(t, want, len(s))
	for name, data := range s {
		require.Equal(t, want[name], filetype.Detect(data).Name, name)
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	s := samples(t)
	tests := []struct {
		name     string
		filename string
		data     []byte
		want     string // type name stored, or "" for a rejection
		reason   string
	}{
		{"png", "photo.png", s["png"], "png", ""},
		{"upper-case extension", "PHOTO.PNG", s["png"], "png", ""},
		{"jpeg alias", "photo.jpeg", s["jpeg"], "jpeg", ""},
		{"png named jpg is stored as png", "photo.jpg", s["png"], "png", ""},
		{"pdf", "Rechnung.pdf", s["pdf"], "pdf", ""},
		{"docx", "brief.docx", s["docx"], "docx", ""},
		{"docx named zip", "brief.zip", s["docx"], "zip", ""},
		{"xlsx", "zahlen.xlsx", s["xlsx"], "xlsx", ""},
		{"ods", "tabelle.ods", s["ods"], "ods", ""},
		{"doc", "alt.doc", s["doc"], "doc", ""},
		{"xls", "alt.xls", s["xls"], "xls", ""},
		{"csv", "export.csv", s["csv"], "csv", ""},
		{"csv starting with BM", "cars.csv", s["csv BM"], "csv", ""},
		{"text", "readme.txt", s["txt"], "txt", ""},
		{"tar.gz", "backup.tar.gz", s["gz"], "gz", ""},
		{"tgz", "backup.tgz", s["gz"], "gz", ""},
		{"tar", "backup.tar", s["tar"], "tar", ""},
		{"7z", "a.7z", s["7z"], "7z", ""},
		{"rar", "a.rar", s["rar"], "rar", ""},
		{"script renamed png", "cat.png", s["php"], "", "content is script"},
		{"shell renamed jpg", "cat.jpg", s["shebang"], "", "content is script"},
		{"png renamed exe", "setup.exe", s["png"], "", "extension .exe not allowed"},
		{"exe renamed pdf", "invoice.pdf", s["executable"], "", "content is executable"},
		{"html renamed txt", "notes.txt", s["html"], "", "content is html"},
		{"svg", "logo.svg", s["svg"], "", "content is svg"},
		{"svg renamed png", "logo.png", s["bare svg"], "", "content is svg"},
		{"xml", "feed.xml", s["xml"], "", "content is xml"},
		{"text renamed png", "image.png", s["txt"], "", "does not match"},
		{"zip renamed docx", "brief.docx", s["zip"], "", "does not match"},
		{"jar renamed zip", "lib.zip", s["jar"], "", "content is jar"},
		{"pdf renamed doc", "brief.doc", s["pdf"], "", "does not match"},
		{"word renamed xls", "table.xls", s["doc"], "", "does not match"},
		{"unknown compound file", "setup.doc", s["ole"], "", "content is ole"},
		{"binary", "data.txt", s["binary"], "", "content is unknown"},
		{"empty", "empty.txt", s["empty"], "", "empty file"},
		{"no extension", "README", s["txt"], "", "no file extension"},
		{"double extension", "shell.php.png", s["php"], "", "content is script"},
		{"path in name", "../../etc/notes.txt", s["txt"], "txt", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := filetype.Check(tt.filename, tt.data)
			if tt.want != "" {
				require.NoError(t, err)
				require.Equal(t, tt.want, got.Name)
				require.NotEmpty(t, got.MIMEType)
				require.NotEmpty(t, got.Group)
				return
			}
			require.ErrorIs(t, err, filetype.ErrNotAllowed)
			var re *filetype.RejectError
			require.ErrorAs(t, err, &re)
			require.Contains(t, re.Reason, tt.reason)
		})
	}
}

func TestPolicy(t *testing.T) {
	t.Parallel()
	s := samples(t)
	images := &filetype.Policy{Allowed: []string{"jpeg", "png", "html"}}
	_, err := images.Check("a.png", s["png"])
	require.NoError(t, err)
	_, err = images.Check("a.pdf", s["pdf"])
	require.ErrorIs(t, err, filetype.ErrNotAllowed)
	_, err = images.Check("a.html", s["html"])
	require.ErrorIs(t, err, filetype.ErrNotAllowed, "html is never allowed, even when listed")
	for _, name := range filetype.DefaultAllowed() {
		require.NotContains(t, []string{filetype.NameHTML, filetype.NameSVG, filetype.NameScript, filetype.NameExecutable}, name)
	}
}

func TestSanitizeFilename(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"photo.jpg":                       "photo.jpg",
		"Urlaub am Meer.JPG":              "Urlaub-am-Meer.jpg",
		"../../etc/passwd":                "passwd",
		`C:\Users\me\Bericht.docx`:        "Bericht.docx",
		".htaccess":                       "htaccess",
		"...hidden.txt":                   "hidden.txt",
		"shell.php.png":                   "shell_php.png",
		"backup.tar.gz":                   "backup.tar.gz",
		"Größe & Übersicht.pdf":           "Grosse-Ubersicht.pdf",
		"crème brûlée.png":                "creme-brulee.png",
		"résumé\x00\x07.pdf":              "resume.pdf",
		"name\u202egnp.exe":               "namegnp.exe",
		"日本語.txt":                         "file.txt",
		"con.txt":                         "file-con.txt",
		"":                                "file",
		"....":                            "file",
		"a---b___c.txt":                   "a-b_c.txt",
		"trailing dots...":                "trailing-dots",
		"report.final.version2.pdf":       "report_final_version2.pdf",
		strings.Repeat("a", 300) + ".png": strings.Repeat("a", filetype.MaxFilenameLength-4) + ".png",
	}
	for in, want := range tests {
		require.Equal(t, want, filetype.SanitizeFilename(in), "%q", in)
	}
}

func TestFilename(t *testing.T) {
	t.Parallel()
	jpeg, _ := filetype.ByExtension("jpg")
	gz, _ := filetype.ByExtension("gz")
	tests := []struct {
		name string
		t    filetype.Type
		want string
	}{
		{"photo.jpeg", jpeg, "photo.jpeg"},
		{"photo.png", jpeg, "photo.jpg"},
		{"photo", jpeg, "photo.jpg"},
		{"photo.final", jpeg, "photo_final.jpg"},
		{"dump.tgz", gz, "dump.tgz"},
		{"../x.php", jpeg, "x.jpg"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, filetype.Filename(tt.name, tt.t), tt.name)
	}
}

func TestGroups(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"application/pdf":    filetype.GroupPDF,
		"Application/PDF; x": filetype.GroupPDF,
		"application/msword": filetype.GroupDocument,
		"application/vnd.openxmlformats-officedocument.wordprocessingml.document": filetype.GroupDocument,
		"text/plain; charset=utf-8": filetype.GroupDocument,
		"application/vnd.ms-excel":  filetype.GroupSpreadsheet,
		"text/csv":                  filetype.GroupSpreadsheet,
		"application/vnd.oasis.opendocument.spreadsheet": filetype.GroupSpreadsheet,
		"application/zip":              filetype.GroupArchive,
		"application/x-zip-compressed": filetype.GroupArchive,
		"application/x-rar-compressed": filetype.GroupArchive,
		"image/jpeg":                   filetype.GroupImage,
		"image/heic":                   filetype.GroupImage,
		"image/svg+xml":                "",
		"text/html":                    "",
		"application/octet-stream":     "",
	}
	for mt, want := range tests {
		require.Equal(t, want, filetype.GroupOf(mt), mt)
	}
	require.Equal(t, []string{"pdf", "document", "spreadsheet", "archive"}, filetype.Groups())
	for _, g := range filetype.Groups() {
		mts := filetype.GroupMIMETypes(g)
		require.NotEmpty(t, mts, g)
		for _, mt := range mts {
			require.Equal(t, g, filetype.GroupOf(mt), "%s in %s", mt, g)
		}
	}
	require.Contains(t, filetype.GroupMIMETypes(filetype.GroupArchive), "application/x-rar-compressed")
	require.Nil(t, filetype.GroupMIMETypes("video"))
}

func FuzzSanitizeFilename(f *testing.F) {
	for _, s := range []string{"a.png", "../../x", ".htaccess", "Größe.pdf", "a.tar.gz", "con", "\x00", "...."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := filetype.SanitizeFilename(in)
		if out == "" || len(out) > filetype.MaxFilenameLength {
			t.Fatalf("%q -> %q: bad length", in, out)
		}
		if strings.ContainsAny(out, `/\`) || strings.HasPrefix(out, ".") || strings.HasPrefix(out, "-") {
			t.Fatalf("%q -> %q: unsafe", in, out)
		}
		for i := 0; i < len(out); i++ {
			c := out[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
				t.Fatalf("%q -> %q: character %q", in, out, c)
			}
		}
		if again := filetype.SanitizeFilename(out); again != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", in, out, again)
		}
	})
}

func FuzzCheck(f *testing.F) {
	for name, data := range samples(f) {
		f.Add(strings.ReplaceAll(name, " ", "")+".bin", data)
	}
	f.Add("x.png", []byte("\x89PNG\r\n\x1a\n"))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		typ, err := filetype.Check(name, data)
		if err != nil {
			return
		}
		if typ.Group == "" || !utf8.ValidString(typ.MIMEType) {
			t.Fatalf("accepted %q as %+v", name, typ)
		}
		sniffed := filetype.Detect(data)
		if sniffed.Group == "" {
			t.Fatalf("accepted %q whose content is %s", name, sniffed.Name)
		}
	})
}

func ExampleCheck() {
	script := []byte("<?php echo 'hi'; ?>")
	_, err := filetype.Check("avatar.png", script)
	fmt.Println(err)

	t, err := filetype.Check("Quartalszahlen.csv", []byte("Monat;Umsatz\nJan;100\n"))
	fmt.Println(t.MIMEType, t.Group, err)
	// Output:
	// filetype: "avatar.png" not allowed: content is script
	// text/csv spreadsheet <nil>
}
