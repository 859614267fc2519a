package temporal

import (
	"strconv"
	"strings"
)

// Parsed is a value read from text or a number, with what MySQL notes about
// the reading.
type Parsed struct {
	Value
	// Frac is how many fractional digits the text wrote (at most 6 counted).
	Frac int
	// Trailing: text follows the value (MySQL reads the value and warns).
	Trailing bool
	// OutOfRange: a TIME beyond ±838:59:59, cut to the nearest end.
	OutOfRange bool
	// Offset is the seconds east of UTC a datetime's text gave
	// ('2024-01-01 10:00:00+05:30'); HasOffset says whether it gave one.
	Offset    int
	HasOffset bool
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// isPunct is C's ispunct for ASCII: the delimiters MySQL accepts between parts.
func isPunct(c byte) bool {
	return c > ' ' && c < 0x7f && !isDigit(c) && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z')
}

// ParseDatetime reads s as MySQL reads a DATE or DATETIME string: YYYY-MM-DD
// [HH:MM:SS[.fraction]] with any punctuation between parts, two-digit years
// (70-99 are 19xx, 00-69 20xx), the digits-only forms YYYYMMDD[HHMMSS] and
// YYMMDD[HHMMSS], a T between date and time, and a +HH:MM offset. The kind is
// Date when only a date is given. ok=false: not a valid date (MySQL 8.4's
// default sql_mode refuses zero dates and zero parts).
func ParseDatetime(s string) (Parsed, bool) { return parseDatetime(s, false, false) }

// ParseDatetimeZero is ParseDatetime that also reads the zero date
// ('0000-00-00') and dates with a zero month or day ('2024-00-15'), which
// MySQL keeps where sql_mode lacks NO_ZERO_DATE or NO_ZERO_IN_DATE (see
// Value.Zero).
func ParseDatetimeZero(s string) (Parsed, bool) { return parseDatetime(s, false, true) }

// parseDatetime is ParseDatetime; datetimeOnly refuses text with delimiters but
// no space, which ParseTime reads as a time instead; zero reads zero dates.
func parseDatetime(s string, datetimeOnly, zero bool) (Parsed, bool) {
	var p Parsed
	pos := 0
	for pos < len(s) && isSpace(s[pos]) {
		pos++
	}
	if pos == len(s) || !isDigit(s[pos]) {
		return p, false
	}
	j := pos
	for j < len(s) && (isDigit(s[j]) || s[j] == 'T') {
		j++
	}
	digits := j - pos
	// Digits only (or digits and a fraction): every field has a fixed width.
	compact := j == len(s) || s[j] == '.'
	yearLen := 4
	if compact && !(digits == 4 || digits == 8 || digits >= 14) {
		yearLen = 2
	}
	var parts, lens [8]int
	width := yearLen
	notZero := false
	foundDelim, foundSpace := false, false
	fields := 0
	last := pos
	extra := -1 // the seventh fractional digit, for rounding
	f := 0
	for ; f < 7 && pos < len(s) && isDigit(s[pos]); f++ {
		start := pos
		val := 0
		if compact || f == 6 {
			for n := 0; n < width && pos < len(s) && isDigit(s[pos]); n++ {
				val = val*10 + int(s[pos]-'0')
				pos++
			}
		} else {
			for pos < len(s) && isDigit(s[pos]) {
				val = val*10 + int(s[pos]-'0')
				pos++
				if val > 999999 {
					return p, false
				}
			}
		}
		parts[f], lens[f] = val, pos-start
		notZero = notZero || val != 0
		width = 2
		last = pos
		if pos == len(s) {
			f++
			break
		}
		if f == 2 && s[pos] == 'T' {
			pos++
			continue
		}
		if f == 5 {
			switch {
			case s[pos] == '.':
				pos++
				last = pos
				width = 6
			case s[pos] == '+' || s[pos] == '-':
				off, ok := parseOffset(s[pos:])
				if !ok {
					return p, false
				}
				p.Offset, p.HasOffset = off, true
				pos = len(s)
				last = pos
			}
			if pos < len(s) && isDigit(s[pos]) && width != 6 {
				f++
				break
			}
			continue
		}
		if f == 6 {
			if pos < len(s) && isDigit(s[pos]) {
				extra = int(s[pos] - '0')
				for pos < len(s) && isDigit(s[pos]) {
					pos++
				}
				last = pos
			}
			if pos < len(s) && (s[pos] == '+' || s[pos] == '-') {
				off, ok := parseOffset(s[pos:])
				if !ok {
					return p, false
				}
				p.Offset, p.HasOffset = off, true
				pos = len(s)
				last = pos
			}
		}
		for pos < len(s) && (isPunct(s[pos]) || isSpace(s[pos])) {
			if isSpace(s[pos]) {
				if f != 2 && f != 6 {
					return p, false
				}
				foundSpace = true
			}
			pos++
			foundDelim = true
		}
		if f == 6 {
			f++ // nothing (AM/PM) is read after the fraction
		}
		last = pos
	}
	fields = min(f, 7)
	if foundDelim && !foundSpace && datetimeOnly {
		return p, false
	}
	if !compact {
		yearLen = lens[0]
	}
	v := Value{Year: parts[0], Month: parts[1], Day: parts[2], Hour: parts[3], Minute: parts[4], Second: parts[5]}
	frac := parts[6]
	for n := lens[6]; n < 6; n++ {
		frac *= 10
	}
	v.Nano = frac * 1000
	if extra >= 0 {
		v.Nano += extra * 100
	}
	p.Frac = min(lens[6], 6)
	if yearLen == 2 && notZero {
		if v.Year < 70 {
			v.Year += 2000
		} else {
			v.Year += 1900
		}
	}
	v.Kind = Datetime
	if fields <= 3 {
		v.Kind = Date
	}
	if fields < 3 || !(v.DateValid() || zero && v.Zero() != NotZero) || v.Kind == Datetime && !v.clockValid() {
		return p, false
	}
	for q := last; q < len(s); q++ {
		if !isSpace(s[q]) {
			p.Trailing = true
			break
		}
	}
	p.Value = v
	return p, true
}

// parseOffset reads a time zone displacement +HH:MM (up to ±14:00; not -00:00)
// followed only by spaces, as MySQL reads one after a datetime.
func parseOffset(s string) (int, bool) {
	if len(s) < 6 || s[0] != '+' && s[0] != '-' || !isDigit(s[1]) || !isDigit(s[2]) || s[3] != ':' || !isDigit(s[4]) || !isDigit(s[5]) {
		return 0, false
	}
	h, m := int(s[1]-'0')*10+int(s[2]-'0'), int(s[4]-'0')*10+int(s[5]-'0')
	if m >= 60 || h*3600+m*60 > 14*3600 || s[0] == '-' && h == 0 && m == 0 {
		return 0, false
	}
	if strings.TrimLeft(s[6:], " \t\n\r") != "" {
		return 0, false
	}
	off := h*3600 + m*60
	if s[0] == '-' {
		off = -off
	}
	return off, true
}

// ParseTime reads s as MySQL reads a TIME string: [-][D ]HH:MM:SS[.fraction],
// HH:MM, [D ]HH, MM:SS is not a form (two parts are hours and minutes), a bare
// number as [H]HMMSS, or a whole datetime (its time of day is taken). A value
// beyond ±838:59:59 is cut to the nearest end (OutOfRange). ok=false: not a
// time (minutes or seconds above 59, no digits).
func ParseTime(s string) (Parsed, bool) {
	var p Parsed
	pos := 0
	for pos < len(s) && isSpace(s[pos]) {
		pos++
	}
	neg := false
	if pos < len(s) && s[pos] == '-' {
		neg = true
		pos++
	}
	if pos == len(s) {
		return p, false
	}
	if len(s)-pos >= 12 {
		if d, ok := parseDatetime(s[pos:], true, false); ok {
			d.Value = d.Value.ToTime()
			return d, true
		} else if looksLikeDatetime(s[pos:]) {
			return p, false
		}
	}
	start := pos
	var val uint64
	for pos < len(s) && isDigit(s[pos]) {
		val = val*10 + uint64(s[pos]-'0')
		pos++
		if val > 1<<32 {
			return p, false
		}
	}
	endDays := pos
	for pos < len(s) && isSpace(s[pos]) {
		pos++
	}
	var date [5]uint64 // days, hours, minutes, seconds, microseconds
	state := 0
	switch {
	case len(s)-pos > 1 && pos != endDays && isDigit(s[pos]):
		date[0], state = val, 1
	case len(s)-pos > 1 && s[pos] == ':' && isDigit(s[pos+1]):
		date[1], state = val, 2
		pos++
	default:
		date[1], date[2], date[3] = val/10000, val/100%100, val%100
		state = 4
	}
	for state < 4 {
		var n uint64
		for pos < len(s) && isDigit(s[pos]) {
			n = n*10 + uint64(s[pos]-'0')
			pos++
			if n > 1<<32 {
				return p, false
			}
		}
		date[state] = n
		state++
		if state == 4 || len(s)-pos < 2 || s[pos] != ':' || !isDigit(s[pos+1]) {
			break
		}
		pos++
	}
	nano := 0
	if len(s)-pos >= 2 && s[pos] == '.' && isDigit(s[pos+1]) {
		pos++
		digits := 0
		for pos < len(s) && isDigit(s[pos]) {
			switch {
			case digits < 6:
				nano = nano*10 + int(s[pos]-'0')
			case digits == 6:
				nano = nano*1000 + int(s[pos]-'0')*100
			}
			digits++
			pos++
		}
		for n := digits; n < 6; n++ {
			nano *= 10
		}
		if digits <= 6 {
			nano *= 1000
		}
		p.Frac = min(digits, 6)
	} else if len(s)-pos == 1 && s[pos] == '.' {
		pos++
	}
	if len(s)-pos > 1 && (s[pos] == 'e' || s[pos] == 'E') {
		return p, false
	}
	if date[2] >= 60 || date[3] >= 60 {
		return p, false
	}
	hours := date[1] + date[0]*24
	v := Value{Kind: Time, Neg: neg, Minute: int(date[2]), Second: int(date[3]), Nano: nano}
	if hours > MaxTimeHours || hours == MaxTimeHours && (v.Minute*60+v.Second)*1e9+v.Nano > (59*60+59)*1e9 {
		v.Hour, v.Minute, v.Second, v.Nano = MaxTimeHours, 59, 59, 0
		p.OutOfRange = true
	} else {
		v.Hour = int(hours)
	}
	for q := pos; q < len(s); q++ {
		if !isSpace(s[q]) {
			if pos == start {
				return p, false
			}
			p.Trailing = true
			break
		}
	}
	p.Value = v
	return p, true
}

// looksLikeDatetime: text whose date part is there but wrong (2024-02-30
// 10:00:00) is no time either.
func looksLikeDatetime(s string) bool {
	d, t, ok := strings.Cut(strings.TrimSpace(s), " ")
	return ok && strings.Count(d, "-") == 2 && strings.Contains(t, ":")
}

// splitNumber splits a number's text into its integer digits and the
// nanoseconds of its fraction (rounding on the seventh digit); ok=false for
// text that is not a plain decimal number.
func splitNumber(text string) (n int64, nano int, neg bool, ok bool) {
	text = strings.TrimSpace(text)
	if strings.ContainsAny(text, "eE") {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return 0, 0, false, false
		}
		text = strconv.FormatFloat(f, 'f', -1, 64)
	}
	if strings.HasPrefix(text, "-") {
		neg, text = true, text[1:]
	} else {
		text = strings.TrimPrefix(text, "+")
	}
	ip, fp, _ := strings.Cut(text, ".")
	if ip == "" {
		ip = "0"
	}
	v, err := strconv.ParseInt(ip, 10, 64)
	if err != nil || strings.Trim(fp, "0123456789") != "" {
		return 0, 0, false, false
	}
	fp = (fp + "0000000")[:7]
	f, _ := strconv.Atoi(fp[:6])
	nano = f*1000 + int(fp[6]-'0')*100
	return v, nano, neg, true
}

// FromNumber reads a number as MySQL reads one for a DATE or DATETIME:
// YYYYMMDD, YYMMDD, YYYYMMDDHHMMSS, YYMMDDHHMMSS, with a fraction of the second
// after the point. ok=false: not a valid date.
func FromNumber(text string) (Parsed, bool) { return fromNumber(text, false) }

// FromNumberZero is FromNumber that also reads 0 as the zero date and dates
// with a zero month or day (see ParseDatetimeZero).
func FromNumberZero(text string) (Parsed, bool) { return fromNumber(text, true) }

func fromNumber(text string, zero bool) (Parsed, bool) {
	n, nano, neg, ok := splitNumber(text)
	if !ok || neg {
		return Parsed{}, false
	}
	kind := Date
	switch {
	case n == 0 && zero && nano == 0:
		return Parsed{Value: Value{Kind: Date}}, true
	case n == 0:
		return Parsed{}, false
	case n >= 10000101000000:
		kind = Datetime
		if n > 99999999999999 {
			return Parsed{}, false
		}
	case n < 101:
		return Parsed{}, false
	case n <= 691231:
		n = (n + 20000000) * 1000000
	case n < 700101:
		return Parsed{}, false
	case n <= 991231:
		n = (n + 19000000) * 1000000
	case n < 10000101:
		return Parsed{}, false
	case n <= 99991231:
		n *= 1000000
	case n < 101000000:
		return Parsed{}, false
	default:
		kind = Datetime
		switch {
		case n <= 691231235959:
			n += 20000000000000
		case n < 700101000000:
			return Parsed{}, false
		case n <= 991231235959:
			n += 19000000000000
		}
	}
	date, clock := n/1000000, n%1000000
	v := Value{Kind: kind, Year: int(date / 10000), Month: int(date / 100 % 100), Day: int(date % 100),
		Hour: int(clock / 10000), Minute: int(clock / 100 % 100), Second: int(clock % 100)}
	if kind == Datetime {
		v.Nano = nano
	}
	if !(v.DateValid() || zero && v.Zero() != NotZero) || !v.clockValid() {
		return Parsed{}, false
	}
	p := Parsed{Value: v}
	if kind == Datetime {
		p.Frac = Value{Nano: nano}.FracDigits()
	}
	return p, true
}

// TimeFromNumber reads a number as MySQL reads one for a TIME: [H]HMMSS with a
// fraction of the second, a full YYYYMMDDHHMMSS datetime's time of day, and
// values beyond ±838:59:59 cut to the nearest end (OutOfRange).
func TimeFromNumber(text string) (Parsed, bool) {
	n, nano, neg, ok := splitNumber(text)
	if !ok {
		return Parsed{}, false
	}
	const maxValue = 8385959
	if n > maxValue {
		if !neg && n >= 10000000000 {
			if d, ok := FromNumber(text); ok && d.Kind == Datetime {
				d.Value = d.Value.ToTime()
				return d, true
			}
		}
		return Parsed{Value: Value{Kind: Time, Neg: neg, Hour: MaxTimeHours, Minute: 59, Second: 59}, OutOfRange: true}, true
	}
	if n%100 >= 60 || n/100%100 >= 60 {
		return Parsed{}, false
	}
	v := Value{Kind: Time, Neg: neg, Hour: int(n / 10000), Minute: int(n / 100 % 100), Second: int(n % 100), Nano: nano}
	p := Parsed{Value: v, Frac: Value{Nano: nano}.FracDigits()}
	if n == maxValue && nano >= 1000 {
		p.Value.Nano, p.OutOfRange = 0, true
	}
	return p, true
}
