package catalog

import (
	"math"
	"strings"
)

// What a column keeps of a value written into it, where SQLite would keep
// something else: bytes for the binary string types (BINARY padded with NULs to
// its length), CHAR without its trailing spaces, FLOAT at single precision.

// IsBinary reports whether the type holds bytes.
func (ty Type) IsBinary() bool {
	switch ty.Base {
	case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob":
		return true
	}
	return false
}

// StoreText is what the column keeps of text s written into it: []byte for a
// binary type, s without trailing spaces for CHAR, else s unchanged (ok=false: the
// type keeps text as SQLite does).
func (ty Type) StoreText(s string) (v any, ok bool) {
	switch {
	case ty.Base == "binary":
		if n := ty.Length - len(s); n > 0 {
			s += strings.Repeat("\x00", n)
		}
		return []byte(s), true
	case ty.IsBinary():
		return []byte(s), true
	case ty.Base == "char":
		return strings.TrimRight(s, " "), true
	}
	return s, false
}

// StoreBytes is what the column keeps of bytes b written into it (BINARY pads).
func (ty Type) StoreBytes(b []byte) []byte {
	if ty.Base == "binary" && len(b) < ty.Length {
		return append(append([]byte(nil), b...), make([]byte, ty.Length-len(b))...)
	}
	return b
}

// StoreFloat is the number a FLOAT column keeps of f: single precision, rounded
// to FLOAT(M,D)'s D digits; ok=false for other types.
func (ty Type) StoreFloat(f float64) (float64, bool) {
	if ty.Base != "float" || math.Abs(f) > math.MaxFloat32 {
		return f, false // out of range: the value check refuses it (1264)
	}
	if ty.HasScale {
		p := math.Pow(10, float64(ty.Scale))
		f = math.Round(f*p) / p
	}
	return float64(float32(f)), true
}
