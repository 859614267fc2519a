package temporal

import "strings"

// Stored is what a DATE, DATETIME, TIMESTAMP or TIME column keeps of a value
// written into it.
type Stored struct {
	Value Value
	// Note: a DATE lost a time of day (MySQL's Note 1265).
	Note bool
}

// StoreText is what a column of kind k with fsp fractional digits keeps of
// text s, as MySQL converts it: read by the kind's rules, a DATE's time of day
// dropped, a DATETIME's missing time midnight, extra fractional digits
// rounded. A datetime with its own offset (+05:30) is moved to zone (the
// session's offset). ok=false: MySQL refuses the value in strict mode (1292).
func StoreText(s string, k Kind, fsp int, zone int) (Stored, bool) {
	if k == Time {
		p, ok := ParseTime(s)
		if !ok || p.OutOfRange || p.Trailing {
			return Stored{}, false
		}
		v, ok := p.Value.Round(fsp)
		return Stored{Value: v}, ok
	}
	p, ok := ParseDatetime(s)
	if !ok || p.Trailing {
		return Stored{}, false
	}
	if p.HasOffset {
		if p.Value, ok = p.Value.Shift(zone - p.Offset); !ok {
			return Stored{}, false
		}
	}
	return storeDatetime(p.Value, k, fsp)
}

// StoreNumber is what a column of kind k keeps of a number written into it
// (text of an integer or decimal): 20240101, 20240101123000.5, 123000 for a
// TIME. ok=false: MySQL refuses it.
func StoreNumber(text string, k Kind, fsp int) (Stored, bool) {
	if k == Time {
		p, ok := TimeFromNumber(text)
		if !ok || p.OutOfRange {
			return Stored{}, false
		}
		v, ok := p.Value.Round(fsp)
		return Stored{Value: v}, ok
	}
	p, ok := FromNumber(text)
	if !ok {
		return Stored{}, false
	}
	return storeDatetime(p.Value, k, fsp)
}

// StoreValue is what a column of kind k keeps of a value of another (or the
// same) temporal kind; today is the date a TIME is taken on.
func StoreValue(v Value, k Kind, fsp int, today Value) (Stored, bool) {
	if k == Time {
		r, ok := v.ToTime().Round(fsp)
		return Stored{Value: r}, ok && r.Valid()
	}
	if v.Kind == Time {
		var ok bool
		if v, ok = v.ToDatetime(today); !ok {
			return Stored{}, false
		}
	}
	return storeDatetime(v, k, fsp)
}

func storeDatetime(v Value, k Kind, fsp int) (Stored, bool) {
	if k == Date {
		note := v.Kind == Datetime && (v.Hour|v.Minute|v.Second|v.Nano) != 0
		return Stored{Value: v.ToDate(), Note: note}, v.DateValid()
	}
	v.Kind = Datetime
	r, ok := v.Round(fsp)
	return Stored{Value: r}, ok && r.Valid()
}

// Key is the text a DATE or DATETIME value compares by against a column of
// kind k (Date or Datetime) with fsp fractional digits, as SQLite compares text:
// the column's own spelling when the value is one the column could hold, with
// further digits only where the value has them (a DATE column's value and a
// later time of the same day compare as MySQL compares them: the date is
// less). Comparing the column's text with keys orders values as MySQL does.
func Key(v Value, k Kind, fsp int) string {
	if v.Kind == Time {
		return ""
	}
	if r, ok := v.Round(MaxFsp); ok {
		v = r
	}
	if k == Date && (v.Kind == Date || (v.Hour|v.Minute|v.Second|v.Nano) == 0) {
		return v.ToDate().String(0)
	}
	d := v
	d.Kind = Datetime
	if k == Date {
		fsp = 0
	}
	s := d.String(MaxFsp)
	head, frac := s[:19], s[20:]
	extra := strings.TrimRight(frac[fsp:], "0")
	frac = frac[:fsp] + extra
	if frac == "" {
		return head
	}
	return head + "." + frac
}
