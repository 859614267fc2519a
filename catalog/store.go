package catalog

import (
	"math"

	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/binlite/binlite/collation"
	"github.com/binlite/binlite/temporal"
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
// binary type, s without trailing spaces for CHAR, the members as defined for ENUM
// and SET, else s unchanged (ok=false: the type keeps text as SQLite does).
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
	case ty.Base == "enum":
		if m, ok := ty.enumMember(s); ok {
			return m, true
		}
	case ty.Base == "set":
		if v, ok := ty.setMembers(s); ok {
			return v, true
		}
	case ty.Base == "year":
		// A string '0' or '00' is 2000, unlike the number 0.
		if norm, ok := normaliseLiteral(ty, s); ok && len(strings.TrimSpace(s)) <= 2 {
			if norm == "0000" {
				norm = "2000"
			}
			return norm, true
		}
	case ty.Base == "date" || ty.Base == "datetime" || ty.Base == "timestamp" || ty.Base == "time":
		// The column's own form ('2024-3-5' is 2024-03-05, DATETIME(6) has six
		// digits, read as MySQL reads it: '24-1-2', '3:4' for a TIME); what is
		// not a valid value stays for the value check to refuse. A TIMESTAMP's
		// zone is the writer's business (it stores UTC).
		k, fsp := ty.temporalKind()
		if st, ok := temporal.StoreText(s, k, fsp, 0); ok {
			return st.Value.String(fsp), true
		}
	}
	return s, false
}

// StoreTemporalNumber is the text a DATE, DATETIME, TIMESTAMP or TIME column
// keeps of a number (20240101, 123000 for a TIME); ok=false for other types or
// a number that is no value of the type.
func (ty Type) StoreTemporalNumber(n string) (string, bool) {
	k, fsp := ty.temporalKind()
	if k == temporal.None {
		return n, false
	}
	st, ok := temporal.StoreNumber(n, k, fsp)
	if !ok {
		return n, false
	}
	return st.Value.String(fsp), true
}

// temporalKind is the kind of value a temporal type holds and its digits.
func (ty Type) temporalKind() (temporal.Kind, int) {
	switch ty.Base {
	case "date":
		return temporal.Date, 0
	case "datetime", "timestamp":
		return temporal.Datetime, ty.Scale
	case "time":
		return temporal.Time, ty.Scale
	}
	return temporal.None, 0
}

// StoreNumber is the number text a DECIMAL column keeps of s: rounded half away
// from zero to the column's scale, as MySQL stores it (1.005 in DECIMAL(5,2) is
// 1.01); ok=false for other types, or a value the column cannot hold (the value
// check refuses it).
//
// A YEAR column takes a number the way MySQL does: 1 to 69 are 2001 to 2069, 70
// to 99 are 1970 to 1999, 0 is 0000.
func (ty Type) StoreNumber(s string) (string, bool) {
	switch ty.Base {
	case "decimal":
		return normaliseLiteral(ty, s)
	case "year":
		n, err := strconv.Atoi(strings.TrimSpace(s))
		switch {
		case err != nil:
		case n == 0:
			return "0", true
		case n >= 1 && n <= 69:
			return strconv.Itoa(2000 + n), true
		case n >= 70 && n <= 99:
			return strconv.Itoa(1900 + n), true
		}
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
		// Rounded on the double's exact value, as MySQL rounds it: 1.2345 is
		// 1.23449999... and keeps 1.234 (f*1000 would round up to 1234.5 first).
		if r, err := strconv.ParseFloat(strconv.FormatFloat(f, 'f', ty.Scale, 64), 64); err == nil {
			f = r
		}
	}
	return float64(float32(f)), true
}

// Truncates reports whether storing text in as stored loses information MySQL
// notes (Note 1265): a DECIMAL rounded to its scale, a DATE given a time of day.
func (ty Type) Truncates(in, stored string) bool {
	switch ty.Base {
	case "decimal":
		a, _, err1 := apd.NewFromString(strings.TrimSpace(in))
		b, _, err2 := apd.NewFromString(stored)
		return err1 == nil && err2 == nil && a.Cmp(b) != 0
	case "date":
		_, clock, ok := strings.Cut(strings.TrimSpace(in), " ")
		return ok && strings.Trim(clock, "0:.") != ""
	}
	return false
}

// enumMember is the ENUM member that s names under the column's collation ('A'
// and 'a ' are member 'a' in a _ci column), as MySQL stores it.
func (ty Type) enumMember(s string) (string, bool) {
	c, ok := collation.Lookup(ty.Collation)
	if !ok {
		return "", false
	}
	for _, m := range ty.Elems {
		if c.Compare(m, s) == 0 {
			return m, true
		}
	}
	return "", false
}

// setMembers is the SET value that s names: each member as defined, once, in the
// definition's order, as MySQL stores it ('b,A,a' is 'a,b').
func (ty Type) setMembers(s string) (string, bool) {
	c, ok := collation.Lookup(ty.Collation)
	if !ok || s == "" {
		return "", false
	}
	in := make([]bool, len(ty.Elems))
	for _, part := range strings.Split(s, ",") {
		found := false
		for i, m := range ty.Elems {
			if c.Compare(m, part) == 0 {
				in[i], found = true, true
				break
			}
		}
		if !found {
			return "", false // not a member: the value check refuses it
		}
	}
	var out []string
	for i, m := range ty.Elems {
		if in[i] {
			out = append(out, m)
		}
	}
	return strings.Join(out, ","), true
}
