package temporal

import (
	"strconv"
	"strings"
)

// Time zones binlite follows are offsets from UTC: the session's time_zone
// ('+05:30', or SYSTEM and the names of UTC, offset 0). TIMESTAMP values are
// stored in UTC and read in the session's zone, as MySQL does.

// ZoneKind says what a time_zone value is.
type ZoneKind uint8

// The kinds of time_zone value.
const (
	ZoneInvalid ZoneKind = iota // MySQL refuses it (1298)
	ZoneOffset                  // an offset binlite follows (SYSTEM and UTC are 0)
	ZoneNamed                   // a named zone from the zone database binlite lacks
)

// ParseZone reads a time_zone value: SYSTEM (binlite's system zone is UTC),
// the names of UTC, or [+|-][H]H:MM from -13:59 to +14:00. offset is in
// seconds east of UTC.
func ParseZone(s string) (offset int, kind ZoneKind) {
	s = strings.TrimSpace(s)
	switch strings.ToUpper(s) {
	case "SYSTEM", "UTC", "ETC/UTC", "GMT", "ETC/GMT", "UNIVERSAL", "ZULU", "ETC/UNIVERSAL", "ETC/ZULU":
		return 0, ZoneOffset
	}
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		h, m, ok := strings.Cut(s[1:], ":")
		if !ok || len(h) < 1 || len(h) > 2 || len(m) != 2 || strings.Trim(h+m, "0123456789") != "" {
			return 0, ZoneInvalid
		}
		hh, _ := strconv.Atoi(h)
		mm, _ := strconv.Atoi(m)
		off := hh*3600 + mm*60
		if mm > 59 {
			return 0, ZoneInvalid
		}
		if s[0] == '-' {
			if off > 13*3600+59*60 {
				return 0, ZoneInvalid
			}
			return -off, ZoneOffset
		}
		if off > 14*3600 {
			return 0, ZoneInvalid
		}
		return off, ZoneOffset
	}
	// Area/Location names (Europe/Paris) are the zone database's.
	if strings.Contains(s, "/") && strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/_+-") == "" &&
		(s[0] >= 'A' && s[0] <= 'Z' || s[0] >= 'a' && s[0] <= 'z') {
		return 0, ZoneNamed
	}
	return 0, ZoneInvalid
}

// FormatOffset spells an offset as MySQL shows one (+05:30, -08:00).
func FormatOffset(off int) string {
	sign := "+"
	if off < 0 {
		sign, off = "-", -off
	}
	return sign + strconv.Itoa(100 + off/3600)[1:] + ":" + strconv.Itoa(100 + off/60%60)[1:]
}

// Shift moves a DATETIME by secs seconds (a zone's offset); ok=false outside
// DATETIME's range.
func (v Value) Shift(secs int) (Value, bool) {
	if secs == 0 {
		return v, true
	}
	kind := v.Kind
	r, ok := FromMicros(v.Micros() + int64(secs)*1e6)
	if kind == Date {
		r.Kind = Datetime
	}
	return r, ok
}

// epochDay is 1970-01-01's day number.
var epochDay = DayNumber(1970, 1, 1)

// UnixMicros is a UTC DATETIME in microseconds since 1970-01-01.
func (v Value) UnixMicros() int64 { return v.Micros() - epochDay*86400e6 }

// FromUnixMicros is the UTC DATETIME us microseconds after 1970-01-01.
func FromUnixMicros(us int64) (Value, bool) { return FromMicros(us + epochDay*86400e6) }

// TimestampRange reports whether a UTC DATETIME is one a TIMESTAMP holds:
// 1970-01-01 00:00:01 to 2038-01-19 03:14:07.999999.
func (v Value) TimestampRange() bool {
	us := v.UnixMicros()
	return us >= 1e6 && us < (1<<31)*1e6
}
