// Package filetype decides whether an uploaded file may be stored, from
// its bytes and its name together.
//
// Detect sniffs the real type from the content: magic numbers for images
// (JPEG, PNG, GIF, WebP, BMP, AVIF), PDF, RTF, OLE compound files (doc,
// xls, ppt, told apart by their stream names), ZIP containers (docx, xlsx,
// pptx told apart by their parts, odt, ods, odp by their mimetype entry),
// archives (zip, gzip, 7z, rar, tar, bzip2, xz) and executables, and
// net/http.DetectContentType for text, HTML and XML.
//
// Check (or Policy.Check) accepts a file only when the sniffed type is on
// the allow-list, the extension is on it too, and the two agree: an image
// may carry another image extension (the stored extension is corrected,
// see Filename), a docx may be called .zip, and plain text may be .txt,
// .csv or .tsv; anything else — a script renamed .png, a PNG renamed .exe,
// HTML or SVG under any name — is refused with a *RejectError that
// matches ErrNotAllowed. HTML, SVG, XML, scripts and executables are never
// allowed, because a browser or a server would run them.
//
// SanitizeFilename makes a name safe to store: no directories, no leading
// dots, ASCII only, no inner extensions a web server might act on, and a
// length cap. GroupOf and GroupMIMETypes implement the file_type filter of
// GET /media/files (pdf, document, spreadsheet, archive).
package filetype
