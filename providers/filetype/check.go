package filetype

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
)

// ErrNotAllowed is matched (errors.Is) by every *RejectError.
var ErrNotAllowed = errors.New("filetype: file type not allowed")

// RejectError explains why Check refused a file.
type RejectError struct {
	// Filename is the name as given.
	Filename string
	// Ext is the extension of Filename without the dot, lower case.
	Ext string
	// Sniffed is the type detected from the content.
	Sniffed Type
	// Reason says what was wrong, for logs (not for end users).
	Reason string
}

// Error implements error.
func (e *RejectError) Error() string {
	return fmt.Sprintf("filetype: %q not allowed: %s", e.Filename, e.Reason)
}

// Is makes errors.Is(err, ErrNotAllowed) true.
func (e *RejectError) Is(target error) bool { return target == ErrNotAllowed }

// Policy is an allow-list of type names (see DefaultAllowed). Names of
// types that are never allowed (HTML, SVG, scripts, executables) have no
// effect when listed.
type Policy struct {
	// Allowed lists type names; empty means DefaultAllowed().
	Allowed []string
}

// Check decides with the default policy; see Policy.Check.
func Check(filename string, data []byte) (Type, error) {
	return (*Policy)(nil).Check(filename, data)
}

// Check returns the type to store data as when it is allowed: the sniffed
// type is on the allow-list, filename has an extension on it, and the two
// agree (see the package comment). Otherwise it returns a *RejectError.
// A nil *Policy uses DefaultAllowed.
func (p *Policy) Check(filename string, data []byte) (Type, error) {
	ext := strings.ToLower(strings.TrimPrefix(path.Ext(baseName(filename)), "."))
	sniffed := Detect(data)
	reject := func(format string, args ...any) (Type, error) {
		return Type{}, &RejectError{Filename: filename, Ext: ext, Sniffed: sniffed, Reason: fmt.Sprintf(format, args...)}
	}
	if sniffed.Name == NameEmpty {
		return reject("empty file")
	}
	if !p.allows(sniffed) {
		return reject("content is %s", sniffed.Name)
	}
	if ext == "" {
		return reject("no file extension")
	}
	byExt, ok := ByExtension(ext)
	if !ok || !p.allows(byExt) {
		return reject("extension .%s not allowed", ext)
	}
	if t, ok := agree(byExt, sniffed, data); ok {
		return t, nil
	}
	return reject("extension .%s does not match content (%s)", ext, sniffed.Name)
}

func (p *Policy) allows(t Type) bool {
	if t.Group == "" {
		return false
	}
	if p == nil || len(p.Allowed) == 0 {
		return true
	}
	return slices.Contains(p.Allowed, t.Name)
}

var (
	textFamily = []string{"txt", "csv", "tsv"}
	oleFamily  = []string{"doc", "xls", "ppt"}
	zipOffice  = []string{"docx", "xlsx", "pptx", "odt", "ods", "odp"}
)

// agree decides whether an extension's type and the sniffed type may go
// together, and which of them to store the file as.
func agree(byExt, sniffed Type, data []byte) (Type, bool) {
	switch {
	case byExt.Name == sniffed.Name:
		return byExt, true
	case byExt.Group == GroupImage && sniffed.Group == GroupImage:
		// A harmless mix-up; store it as what it really is.
		return sniffed, true
	case byExt.Name == "zip" && slices.Contains(zipOffice, sniffed.Name):
		return byExt, true
	case slices.Contains(textFamily, byExt.Name) && sniffed.Name == "txt":
		return byExt, true
	case slices.Contains(oleFamily, byExt.Name) && slices.Contains(oleFamily, sniffed.Name) && oleHasKind(data, byExt.Name):
		return byExt, true
	}
	return Type{}, false
}
