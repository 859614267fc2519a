package temporal

import "strings"

// Stored is what a DATE, DATETIME, TIMESTAMP or TIME column keeps of a value
// written into it.
type Stored struct {
	Value Value
	// Note: a DATE lost a time of day (MySQL's Note 1265).
	Note bool
	// Zero: the value is a zero date or has a zero part (only from the Zero
	// functions); sql_mode decides whether the column keeps it.
	Zero ZeroKind
}

// StoreTextZero is StoreText that also keeps zero dates and dates with zero
// parts, saying so in Stored.Zero. A TIMESTAMP's zero date is not moved
// between zones.
func StoreTextZero(s string, k Kind, fsp int, zone int) (Stored, bool) {
	if k == Time {
		return StoreText(s, k, fsp, zone)
	}
	p, ok := ParseDatetimeZero(s)
	if !ok || p.Trailing {
		return Stored{}, false
	}
	if z := p.Value.Zero(); z != NotZero {
		return storeZero(p.Value, k, fsp, z), true
	}
	return StoreText(s, k, fsp, zone)
}

// StoreNumberZero is StoreNumber that also keeps 0 as the zero date and dates
// with zero parts (see StoreTextZero).
func StoreNumberZero(text string, k Kind, fsp int) (Stored, bool) {
	if k == Time {
		return StoreNumber(text, k, fsp)
	}
	p, ok := FromNumberZero(text)
	if !ok {
		return Stored{}, false
	}
	if z := p.Value.Zero(); z != NotZero {
		return storeZero(p.Value, k, fsp, z), true
	}
	return StoreNumber(text, k, fsp)
}

// storeZero is what a DATE or DATETIME column keeps of a date with zero parts:
// its parts as they are, the fraction cut to fsp digits.
func storeZero(v Value, k Kind, fsp int, z ZeroKind) Stored {
	if k == Date {
		note := v.Kind == Datetime && (v.Hour|v.Minute|v.Second|v.Nano) != 0
		return Stored{Value: v.ToDate(), Note: note, Zero: z}
	}
	v.Kind = Datetime
	return Stored{Value: v.Truncate(fsp), Zero: z}
}

// ZeroText is the zero value of a DATE or DATETIME column with fsp fractional
// digits as it is stored and shown: '0000-00-00', '0000-00-00 00:00:00[.000]'.
func ZeroText(k Kind, fsp int) string {
	if k == Date {
		return Value{Kind: Date}.String(0)
	}
	return Value{Kind: Datetime}.String(fsp)
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
