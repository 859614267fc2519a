package catalog

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// normaliseTemporal checks a DATE/DATETIME/TIMESTAMP/TIME default and spells it as
// MySQL shows it (fractional digits to the column's precision). Zero dates are
// refused: MySQL 8.4's default sql_mode has NO_ZERO_DATE and NO_ZERO_IN_DATE.
func normaliseTemporal(ty Type, s string) (string, bool) {
	s = strings.TrimSpace(s)
	if ty.Base == "time" {
		return normaliseTime(s, ty.Scale)
	}
	datePart, timePart, _ := strings.Cut(s, " ")
	if !strings.Contains(datePart, "-") && len(datePart) >= 8 && timePart == "" {
		// YYYYMMDD[HHMMSS[.frac]]
		digits, frac, _ := strings.Cut(datePart, ".")
		if _, err := strconv.Atoi(digits); err != nil {
			return "", false
		}
		switch len(digits) {
		case 8:
			datePart = digits[:4] + "-" + digits[4:6] + "-" + digits[6:8]
		case 14:
			datePart = digits[:4] + "-" + digits[4:6] + "-" + digits[6:8]
			timePart = digits[8:10] + ":" + digits[10:12] + ":" + digits[12:14]
			if frac != "" {
				timePart += "." + frac
			}
		default:
			return "", false
		}
	}
	d, err := time.Parse("2006-1-2", datePart)
	if err != nil {
		return "", false
	}
	if ty.Base == "timestamp" && (d.Year() < 1970 || d.Year() > 2038) {
		return "", false
	}
	out := d.Format("2006-01-02")
	if ty.Base == "date" {
		// A time of day is dropped (a write notes it: Type.Truncates), but it
		// must be a time.
		if timePart != "" {
			hms, _, _ := strings.Cut(timePart, ".")
			if _, err := time.Parse("15:4:5", hms); err != nil {
				return "", false
			}
		}
		return out, true
	}
	if timePart == "" {
		return out + " 00:00:00" + fraction("", ty.Scale), true
	}
	hms, frac, _ := strings.Cut(timePart, ".")
	clock, err := time.Parse("15:4:5", hms)
	if err != nil || len(frac) > 9 || strings.Trim(frac, "0123456789") != "" {
		return "", false
	}
	// Extra fractional digits round (23:59:59.9996 in DATETIME(3) is the next day).
	ns := 0
	if frac != "" {
		ns, _ = strconv.Atoi((frac + "000000000")[:9])
	}
	t := time.Date(d.Year(), d.Month(), d.Day(), clock.Hour(), clock.Minute(), clock.Second(), ns, time.UTC)
	t = t.Round(time.Second / time.Duration(pow10(ty.Scale)))
	layout := "2006-01-02 15:04:05"
	if ty.Scale > 0 {
		layout += "." + strings.Repeat("0", ty.Scale)
	}
	return t.Format(layout), true
}

func pow10(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}

func normaliseTime(s string, fsp int) (string, bool) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	hms, frac, _ := strings.Cut(s, ".")
	parts := strings.Split(hms, ":")
	var h, m, sec int
	var err error
	switch len(parts) {
	case 3:
		if h, err = strconv.Atoi(parts[0]); err == nil {
			if m, err = strconv.Atoi(parts[1]); err == nil {
				sec, err = strconv.Atoi(parts[2])
			}
		}
	case 2:
		if h, err = strconv.Atoi(parts[0]); err == nil {
			m, err = strconv.Atoi(parts[1])
		}
	case 1:
		var n int
		if n, err = strconv.Atoi(parts[0]); err == nil {
			h, m, sec = n/10000, n/100%100, n%100
		}
	}
	if err != nil || m > 59 || sec > 59 || h > 838 {
		return "", false
	}
	sign := ""
	if neg {
		sign = "-"
	}
	return fmt.Sprintf("%s%02d:%02d:%02d", sign, h, m, sec) + fraction(frac, fsp), true
}

// fraction pads or cuts fractional-second digits to fsp (MySQL rounds; a default
// with more digits than the column holds is rare enough to cut).
func fraction(frac string, fsp int) string {
	if fsp == 0 {
		return ""
	}
	for len(frac) < fsp {
		frac += "0"
	}
	return "." + frac[:fsp]
}

// TemporalLiteral checks and normalises the string of a DATE '...', TIME '...' or
// TIMESTAMP '...' literal (kind "date", "time" or "datetime"), keeping as many
// fractional digits as the literal has.
func TemporalLiteral(kind, s string) (string, bool) {
	fsp := 0
	if _, frac, ok := strings.Cut(strings.TrimSpace(s), "."); ok {
		fsp = min(len(frac), 6)
	}
	return normaliseTemporal(Type{Base: kind, Scale: fsp}, s)
}
