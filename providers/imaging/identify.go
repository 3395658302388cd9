package imaging

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	_ "image/gif"  // GIF decoding for Identify and Renditions.
	_ "image/jpeg" // JPEG decoding for Identify and Renditions.
	_ "image/png"  // PNG decoding for Identify and Renditions.
)

// Format names returned in Info.Format.
const (
	JPEG = "jpeg"
	PNG  = "png"
	GIF  = "gif"
	WebP = "webp"
)

var (
	// ErrFormat means the bytes are not an image in a supported format.
	ErrFormat = errors.New("imaging: not a supported image")
	// ErrUnsupported means the image was recognised but cannot be decoded
	// here (WebP).
	ErrUnsupported = errors.New("imaging: image format cannot be decoded")
	// ErrTooManyPixels means the image is larger than the decoding limit.
	ErrTooManyPixels = errors.New("imaging: image has too many pixels")
)

// Info describes an identified image.
type Info struct {
	// Format is JPEG, PNG, GIF or WebP.
	Format string
	// MIMEType is the media type, such as "image/jpeg".
	MIMEType string
	// Ext is the usual file extension without the dot, such as "jpg".
	Ext string
	// Width and Height are the pixel size read from the image header.
	Width, Height int
}

// FormatInfo returns the MIME type and extension of a format name, and
// false for an unknown format.
func FormatInfo(format string) (mimeType, ext string, ok bool) {
	switch format {
	case JPEG:
		return "image/jpeg", "jpg", true
	case PNG:
		return "image/png", "png", true
	case GIF:
		return "image/gif", "gif", true
	case WebP:
		return "image/webp", "webp", true
	}
	return "", "", false
}

// Identify reads the header of data and returns its format and size. It
// decodes only the image configuration, so it is cheap for big images.
// It returns an error wrapping ErrFormat when data is not a JPEG, PNG, GIF
// or WebP image, or when the header claims an empty size.
func Identify(data []byte) (Info, error) {
	if w, h, ok := webpSize(data); ok {
		return newInfo(WebP, w, h)
	}
	if isWebP(data) {
		return Info{}, fmt.Errorf("%w: malformed WebP header", ErrFormat)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return Info{}, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	return newInfo(format, cfg.Width, cfg.Height)
}

func newInfo(format string, w, h int) (Info, error) {
	mt, ext, ok := FormatInfo(format)
	if !ok {
		return Info{}, fmt.Errorf("%w: format %q", ErrFormat, format)
	}
	if w <= 0 || h <= 0 {
		return Info{}, fmt.Errorf("%w: empty %s image (%dx%d)", ErrFormat, format, w, h)
	}
	return Info{Format: format, MIMEType: mt, Ext: ext, Width: w, Height: h}, nil
}

func isWebP(b []byte) bool {
	return len(b) >= 12 && string(b[0:4]) == "RIFF" && string(b[8:12]) == "WEBP"
}

// webpSize parses the canvas size of a WebP file from its first chunk
// (VP8, VP8L or VP8X).
func webpSize(b []byte) (w, h int, ok bool) {
	if !isWebP(b) || len(b) < 30 {
		return 0, 0, false
	}
	switch string(b[12:16]) {
	case "VP8X":
		w = 1 + (int(b[24]) | int(b[25])<<8 | int(b[26])<<16)
		h = 1 + (int(b[27]) | int(b[28])<<8 | int(b[29])<<16)
		return w, h, true
	case "VP8L":
		if b[20] != 0x2f {
			return 0, 0, false
		}
		bits := binary.LittleEndian.Uint32(b[21:25])
		return int(bits&0x3fff) + 1, int(bits>>14&0x3fff) + 1, true
	case "VP8 ":
		if b[23] != 0x9d || b[24] != 0x01 || b[25] != 0x2a {
			return 0, 0, false
		}
		w = int(binary.LittleEndian.Uint16(b[26:28]) & 0x3fff)
		h = int(binary.LittleEndian.Uint16(b[28:30]) & 0x3fff)
		return w, h, w > 0 && h > 0
	}
	return 0, 0, false
}
