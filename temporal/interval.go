package temporal

import (
	"math"
	"strconv"
	"strings"
)

// Unit is an INTERVAL unit (DATE_ADD, TIMESTAMPDIFF, EXTRACT), by MySQL's name.
type Unit string

// The units; composite ones are written as several parts ('1:30' MINUTE_SECOND).
const (
	Microsecond       Unit = "MICROSECOND"
	Second            Unit = "SECOND"
	Minute            Unit = "MINUTE"
	Hour              Unit = "HOUR"
	Day               Unit = "DAY"
	Week              Unit = "WEEK"
	Month             Unit = "MONTH"
	Quarter           Unit = "QUARTER"
	Year              Unit = "YEAR"
	SecondMicrosecond Unit = "SECOND_MICROSECOND"
	MinuteMicrosecond Unit = "MINUTE_MICROSECOND"
	MinuteSecond      Unit = "MINUTE_SECOND"
	HourMicrosecond   Unit = "HOUR_MICROSECOND"
	HourSecond        Unit = "HOUR_SECOND"
	HourMinute        Unit = "HOUR_MINUTE"
	DayMicrosecond    Unit = "DAY_MICROSECOND"
	DaySecond         Unit = "DAY_SECOND"
	DayMinute         Unit = "DAY_MINUTE"
	DayHour           Unit = "DAY_HOUR"
	YearMonth         Unit = "YEAR_MONTH"
)

// unitParts are the fields a unit's value names, most significant first.
var unitParts = map[Unit][]string{
	Microsecond: {"us"}, Second: {"s"}, Minute: {"m"}, Hour: {"h"}, Day: {"d"}, Week: {"w"},
	Month: {"mon"}, Quarter: {"q"}, Year: {"y"},
	SecondMicrosecond: {"s", "us"}, MinuteMicrosecond: {"m", "s", "us"}, MinuteSecond: {"m", "s"},
	HourMicrosecond: {"h", "m", "s", "us"}, HourSecond: {"h", "m", "s"}, HourMinute: {"h", "m"},
	DayMicrosecond: {"d", "h", "m", "s", "us"}, DaySecond: {"d", "h", "m", "s"}, DayMinute: {"d", "h", "m"},
	DayHour: {"d", "h"}, YearMonth: {"y", "mon"},
}

// ParseUnit names a unit ("day", "DAY_SECOND"); ok=false for another word.
func ParseUnit(s string) (Unit, bool) {
	u := Unit(strings.ToUpper(s))
	_, ok := unitParts[u]
	return u, ok
}

// DateOnly reports whether the unit counts days or longer: a DATE plus such an
// interval stays a DATE.
func (u Unit) DateOnly() bool {
	switch u {
	case Day, Week, Month, Quarter, Year, YearMonth:
		return true
	}
	return false
}

// HasMicros reports whether the unit names microseconds (its result has six
// fractional digits).
func (u Unit) HasMicros() bool { return strings.HasSuffix(string(u), "MICROSECOND") }

// Interval is an INTERVAL's amount, split in MySQL's fields.
type Interval struct {
	Neg                                      bool
	Years, Months, Days, Hours, Minutes, Sec int64
	Micros                                   int64
}

// ParseInterval reads an INTERVAL's value (a number or a string) in unit u as
// MySQL does: a simple unit takes a number (rounded to an integer, SECOND
// keeps its fraction), a composite unit takes its parts from the digit groups
// of the text, the leftmost ones left out when fewer are given. ok=false: the
// value is no interval (MySQL gives NULL).
func ParseInterval(text string, u Unit) (Interval, bool) { return parseInterval(text, u, false) }

// ParseIntervalText is ParseInterval of a string value: a simple unit other
// than SECOND takes its integer part, as MySQL reads a string as an integer.
func ParseIntervalText(text string, u Unit) (Interval, bool) { return parseInterval(text, u, true) }

func parseInterval(text string, u Unit, isText bool) (Interval, bool) {
	var iv Interval
	parts, ok := unitParts[u]
	if !ok {
		return iv, false
	}
	text = strings.TrimSpace(text)
	if len(parts) == 1 {
		f, err := strconv.ParseFloat(numberText(text), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return iv, false
		}
		if f < 0 {
			iv.Neg, f = true, -f
		}
		if u == Second {
			// Whole seconds and microseconds, from the decimal text where it is exact.
			s, us := splitSeconds(numberText(text))
			iv.Sec, iv.Micros = s, us
			return iv, true
		}
		n := int64(math.Floor(f + 0.5))
		if isText {
			n = int64(f)
		}
		if f > 1e18 {
			return iv, false
		}
		iv.set(parts[0], n)
		return iv, true
	}
	i := 0
	for i < len(text) && isSpace(text[i]) {
		i++
	}
	if i < len(text) && text[i] == '-' {
		iv.Neg = true
		i++
	}
	var vals []int64
	var lens []int
	for i < len(text) {
		for i < len(text) && !isDigit(text[i]) {
			i++
		}
		if i == len(text) {
			break
		}
		var n int64
		start := i
		for i < len(text) && isDigit(text[i]) {
			if n < 1e15 {
				n = n*10 + int64(text[i]-'0')
			}
			i++
		}
		vals, lens = append(vals, n), append(lens, i-start)
		if len(vals) == len(parts) {
			break
		}
	}
	if len(vals) == 0 {
		return iv, false
	}
	// Fewer parts than the unit has: the given ones are the rightmost.
	off := len(parts) - len(vals)
	for k, n := range vals {
		name := parts[off+k]
		if name == "us" && off+k == len(parts)-1 && len(vals) > 1 {
			// A microsecond part is a fraction: '1.5' SECOND_MICROSECOND is 1.500000.
			for l := lens[k]; l < 6; l++ {
				n *= 10
			}
		}
		iv.set(name, n)
	}
	return iv, true
}

// numberText is the leading number of s (MySQL reads '5 days' as 5).
func numberText(s string) string {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := 0
	for i < len(s) && isDigit(s[i]) {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
			digits++
		}
	}
	if digits == 0 {
		return "0"
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '-' || s[j] == '+') {
			j++
		}
		k := j
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		if k > j {
			i = k
		}
	}
	return s[:i]
}

// splitSeconds splits a non-negative number of seconds into whole seconds and
// microseconds (rounded on the seventh digit).
func splitSeconds(text string) (int64, int64) {
	text = strings.TrimLeft(text, "+-")
	if strings.ContainsAny(text, "eE") {
		f, _ := strconv.ParseFloat(text, 64)
		text = strconv.FormatFloat(f, 'f', 7, 64)
	}
	ip, fp, _ := strings.Cut(text, ".")
	s, _ := strconv.ParseInt(ip, 10, 64)
	fp = (fp + "0000000")[:7]
	us, _ := strconv.ParseInt(fp[:6], 10, 64)
	if fp[6] >= '5' {
		us++
	}
	return s, us
}

// micros is the interval's day-and-time part in microseconds, unsigned.
func (iv Interval) micros() (int64, bool) {
	const limit = math.MaxInt64 / 4
	total := big(iv.Days, 86400e6)
	for _, t := range [][2]int64{{iv.Hours, 3600e6}, {iv.Minutes, 60e6}, {iv.Sec, 1e6}, {iv.Micros, 1}} {
		total += big(t[0], t[1])
	}
	return total, total >= 0 && total < limit
}

func big(n, unit int64) int64 {
	if n > math.MaxInt64/4/unit {
		return math.MaxInt64 / 4
	}
	return n * unit
}

// AddInterval adds iv (subtracts with sub) to a DATE or DATETIME value v as
// MySQL's DATE_ADD does: months and years keep the day, cut to the month's
// last (2024-01-31 + 1 MONTH is 2024-02-29); anything shorter counts
// microseconds. The kind stays v's (a DATE plus hours is made a DATETIME by
// the caller). ok=false: the result is outside 0000-01-01 to 9999-12-31 (MySQL
// gives NULL with warning 1441).
func AddInterval(v Value, iv Interval, sub bool) (Value, bool) {
	neg := iv.Neg != sub
	if iv.Years != 0 || iv.Months != 0 {
		months := iv.Years*12 + iv.Months
		if neg {
			months = -months
		}
		total := int64(v.Year)*12 + int64(v.Month-1) + months
		if total < 0 || total >= 10000*12 {
			return Value{}, false
		}
		v.Year, v.Month = int(total/12), int(total%12)+1
		v.Day = min(v.Day, DaysInMonth(v.Year, v.Month))
		return v, true
	}
	d, ok := iv.micros()
	if !ok {
		return Value{}, false
	}
	if neg {
		d = -d
	}
	kind := v.Kind
	r, ok := FromMicros(v.Micros() + d)
	if !ok {
		return Value{}, false
	}
	if kind == Date {
		r = r.ToDate()
	}
	return r, true
}

// AddTimeInterval adds iv to a TIME value: ok=false for months or years, or a
// result beyond TIME's range.
func AddTimeInterval(v Value, iv Interval, sub bool) (Value, bool) {
	if iv.Years != 0 || iv.Months != 0 {
		return Value{}, false
	}
	d, ok := iv.micros()
	if !ok {
		return Value{}, false
	}
	if iv.Neg != sub {
		d = -d
	}
	r := FromTimeMicros(v.TimeMicros() + d)
	if r.timeMicrosAbs() > maxTimeMicros {
		return Value{}, false
	}
	return r, true
}

// set gives the interval's part named part (us, s, m, h, d, w, mon, q, y) n units.
func (iv *Interval) set(part string, n int64) {
	switch part {
	case "us":
		iv.Micros = n
	case "s":
		iv.Sec = n
	case "m":
		iv.Minutes = n
	case "h":
		iv.Hours = n
	case "d":
		iv.Days = n
	case "w":
		iv.Days = n * 7
	case "mon":
		iv.Months = n
	case "q":
		iv.Months = n * 3
	case "y":
		iv.Years = n
	}
}
