package temporal

import (
	"strconv"
	"strings"
)

// Kind is a temporal value's MySQL type.
type Kind uint8

// The kinds of value. TIMESTAMP values are Datetime: a TIMESTAMP is a DATETIME
// read in a time zone.
const (
	None Kind = iota
	Date
	Datetime
	Time
)

// String names the kind as MySQL's messages do.
func (k Kind) String() string {
	switch k {
	case Date:
		return "date"
	case Datetime:
		return "datetime"
	case Time:
		return "time"
	}
	return "none"
}

// Value is one DATE, DATETIME or TIME value, kept in parts as MySQL keeps it.
// A TIME's hours may exceed 23 (up to 838); Neg is its sign. Nano holds the
// fraction of the second to nanoseconds, so that a value read from text with
// more than six digits rounds as MySQL rounds it (Round).
type Value struct {
	Kind                 Kind
	Neg                  bool
	Year, Month, Day     int
	Hour, Minute, Second int
	Nano                 int
}

// MySQL's ranges.
const (
	// MaxTimeHours is TIME's largest hour: values run from -838:59:59 to 838:59:59.
	MaxTimeHours  = 838
	maxTimeMicros = (MaxTimeHours*3600 + 59*60 + 59) * 1e6
	// MaxFsp is the most fractional digits a value keeps.
	MaxFsp = 6
	// maxDayNumber is 9999-12-31's day number.
	maxDayNumber = 3652424
)

var daysInMonth = [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

// IsLeap is MySQL's leap year rule (year 0 is not a leap year).
func IsLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0 && y != 0) }

// DaysInMonth is the number of days of month m (1-12) of year y.
func DaysInMonth(y, m int) int {
	if m == 2 && IsLeap(y) {
		return 29
	}
	return daysInMonth[m-1]
}

// DateValid reports whether the value's date exists, with no zero part: MySQL
// 8.4's default sql_mode (NO_ZERO_DATE, NO_ZERO_IN_DATE, strict) refuses others.
func (v Value) DateValid() bool {
	return v.Year >= 0 && v.Year <= 9999 && v.Month >= 1 && v.Month <= 12 &&
		v.Day >= 1 && v.Day <= DaysInMonth(v.Year, v.Month)
}

// ZeroKind says whether a date is MySQL's zero date or has a zero part.
type ZeroKind uint8

// The kinds of zero.
const (
	// NotZero: a date with no zero part (valid or not).
	NotZero ZeroKind = iota
	// ZeroDate: '0000-00-00', which NO_ZERO_DATE refuses.
	ZeroDate
	// ZeroInDate: a zero month or day in a date that is not all zero
	// ('2024-00-15', '2024-02-00'), which NO_ZERO_IN_DATE refuses.
	ZeroInDate
)

// Zero is what kind of zero the value's date is: MySQL keeps both kinds where
// sql_mode lets it, spelled as they are. A date with a zero part otherwise in
// range (month up to 12, day up to 31, the day within its month where both are
// given) is ZeroInDate.
func (v Value) Zero() ZeroKind {
	switch {
	case v.Kind == Time:
		return NotZero
	case v.Year == 0 && v.Month == 0 && v.Day == 0:
		return ZeroDate
	case v.Month != 0 && v.Day != 0:
		return NotZero
	case v.Year < 0 || v.Year > 9999 || v.Month < 0 || v.Month > 12 || v.Day < 0 || v.Day > 31:
		return NotZero
	}
	return ZeroInDate
}

// clockValid reports whether a DATETIME's time of day is one.
func (v Value) clockValid() bool {
	return v.Hour >= 0 && v.Hour <= 23 && v.Minute >= 0 && v.Minute <= 59 &&
		v.Second >= 0 && v.Second <= 59 && v.Nano >= 0 && v.Nano < 1e9
}

// Valid reports whether the value is one its kind holds.
func (v Value) Valid() bool {
	switch v.Kind {
	case Date:
		return v.DateValid()
	case Datetime:
		return v.DateValid() && v.clockValid()
	case Time:
		return v.Minute >= 0 && v.Minute <= 59 && v.Second >= 0 && v.Second <= 59 &&
			v.Nano >= 0 && v.Nano < 1e9 && v.Hour >= 0 && v.timeMicrosAbs() <= maxTimeMicros
	}
	return false
}

// DayNumber is MySQL's TO_DAYS of a date: days since year 0 (0001-01-01 is
// 366), counted by the Gregorian rules back to year 0, which is not a leap
// year.
func DayNumber(y, m, d int) int64 {
	if y == 0 && m == 0 {
		return 0
	}
	yy := int64(y)
	n := 365*yy + 31*int64(m-1) + int64(d)
	if m <= 2 {
		yy-- // January and February count with the previous year's leap days
	} else {
		n -= (int64(m)*4 + 23) / 10
	}
	return n + yy/4 - (yy/100+1)*3/4
}

// FromDayNumber is the date of MySQL day number n (FROM_DAYS); ok=false
// outside 0001-01-01 (366) to 9999-12-31.
func FromDayNumber(n int64) (y, m, d int, ok bool) {
	if n < 366 || n > maxDayNumber {
		return 0, 0, 0, false
	}
	z := n - 719528 + 719468
	era := z
	if era < 0 {
		era -= 146096
	}
	era /= 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	yy := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	dd := doy - (153*mp+2)/5 + 1
	mm := mp + 3
	if mm > 12 {
		mm -= 12
	}
	if mm <= 2 {
		yy++
	}
	return int(yy), int(mm), int(dd), true
}

// DayNumber is the value's date as MySQL's TO_DAYS counts it.
func (v Value) DayNumber() int64 { return DayNumber(v.Year, v.Month, v.Day) }

// Weekday is the date's day of the week, 0 for Monday (MySQL's WEEKDAY).
func (v Value) Weekday() int { return int((v.DayNumber() + 5) % 7) }

// timeMicrosAbs is a TIME's magnitude in microseconds (the fraction cut).
func (v Value) timeMicrosAbs() int64 {
	return ((int64(v.Hour)*60+int64(v.Minute))*60+int64(v.Second))*1e6 + int64(v.Nano/1000)
}

// TimeMicros is a TIME value in signed microseconds.
func (v Value) TimeMicros() int64 {
	if v.Neg {
		return -v.timeMicrosAbs()
	}
	return v.timeMicrosAbs()
}

// FromTimeMicros is the TIME of us microseconds (no range check).
func FromTimeMicros(us int64) Value {
	v := Value{Kind: Time}
	if us < 0 {
		v.Neg, us = true, -us
	}
	v.Nano = int(us%1e6) * 1000
	s := us / 1e6
	v.Second, v.Minute, v.Hour = int(s%60), int(s/60%60), int(s/3600)
	return v
}

// ClockMicros is a DATETIME's time of day in microseconds.
func (v Value) ClockMicros() int64 {
	return ((int64(v.Hour)*60+int64(v.Minute))*60+int64(v.Second))*1e6 + int64(v.Nano/1000)
}

// Micros is a DATE or DATETIME value as microseconds since MySQL's day 0.
func (v Value) Micros() int64 { return v.DayNumber()*86400e6 + v.ClockMicros() }

// FromMicros is the DATETIME at us microseconds since day 0; ok=false outside
// 0001-01-01 to 9999-12-31.
func FromMicros(us int64) (Value, bool) {
	if us < 0 {
		return Value{}, false
	}
	y, m, d, ok := FromDayNumber(us / 86400e6)
	if !ok {
		return Value{}, false
	}
	c := us % 86400e6
	s := c / 1e6
	return Value{Kind: Datetime, Year: y, Month: m, Day: d, Hour: int(s / 3600), Minute: int(s / 60 % 60), Second: int(s % 60), Nano: int(c%1e6) * 1000}, true
}

// Round rounds the fraction of the second to fsp digits, half up, as MySQL
// stores a value with more digits than its column keeps (a DATETIME's
// 23:59:59.9996 at three digits is the next day). ok=false: the rounded value
// is out of its kind's range.
func (v Value) Round(fsp int) (Value, bool) {
	unit := 1
	for range 9 - fsp {
		unit *= 10
	}
	n := (v.Nano + unit/2) / unit * unit
	if n < 1e9 {
		v.Nano = n
		return v, true
	}
	switch v.Kind {
	case Time:
		r := FromTimeMicros(v.TimeMicros()/1e6*1e6 + sign(v.Neg)*1e6)
		r.Neg = v.Neg
		return r, r.timeMicrosAbs() <= maxTimeMicros
	case Datetime:
		w := v
		w.Nano = 0
		r, ok := FromMicros(w.Micros() + 1e6)
		return r, ok
	}
	v.Nano = 0
	return v, true
}

// Truncate cuts the fraction of the second to fsp digits.
func (v Value) Truncate(fsp int) Value {
	unit := 1
	for range 9 - fsp {
		unit *= 10
	}
	v.Nano = v.Nano / unit * unit
	return v
}

func sign(neg bool) int64 {
	if neg {
		return -1
	}
	return 1
}

// String spells the value as MySQL shows it, with fsp fractional digits.
func (v Value) String(fsp int) string {
	var b strings.Builder
	switch v.Kind {
	case Date:
		writeDate(&b, v)
		return b.String()
	case Datetime:
		writeDate(&b, v)
		b.WriteByte(' ')
		writeClock(&b, v.Hour, v)
	case Time:
		if v.Neg && (v.Hour|v.Minute|v.Second|v.Nano) != 0 {
			b.WriteByte('-')
		}
		writeClock(&b, v.Hour, v)
	default:
		return ""
	}
	if fsp > 0 {
		b.WriteByte('.')
		f := strconv.Itoa(1e9 + v.Nano)[1:]
		b.WriteString(f[:min(fsp, 9)])
	}
	return b.String()
}

func writeDate(b *strings.Builder, v Value) {
	pad(b, v.Year, 4)
	b.WriteByte('-')
	pad(b, v.Month, 2)
	b.WriteByte('-')
	pad(b, v.Day, 2)
}

func writeClock(b *strings.Builder, h int, v Value) {
	pad(b, h, 2)
	b.WriteByte(':')
	pad(b, v.Minute, 2)
	b.WriteByte(':')
	pad(b, v.Second, 2)
}

func pad(b *strings.Builder, n, width int) {
	s := strconv.Itoa(n)
	for i := len(s); i < width; i++ {
		b.WriteByte('0')
	}
	b.WriteString(s)
}

// FracDigits is how many fractional digits the value needs to be shown exactly
// (at most six).
func (v Value) FracDigits() int {
	us := v.Nano / 1000
	if us == 0 {
		return 0
	}
	n := 6
	for us%10 == 0 {
		us /= 10
		n--
	}
	return n
}

// Number is the value in numeric context, as MySQL's d + 0 reads it:
// YYYYMMDD, YYYYMMDDHHMMSS or [-]HHMMSS, followed by fsp fractional digits
// (text, so that the digits stay exact).
func (v Value) Number(fsp int) string {
	var n int64
	switch v.Kind {
	case Date:
		n = int64(v.Year)*10000 + int64(v.Month)*100 + int64(v.Day)
	case Datetime:
		n = (int64(v.Year)*10000+int64(v.Month)*100+int64(v.Day))*1000000 +
			int64(v.Hour)*10000 + int64(v.Minute)*100 + int64(v.Second)
	case Time:
		n = int64(v.Hour)*10000 + int64(v.Minute)*100 + int64(v.Second)
	}
	s := strconv.FormatInt(n, 10)
	if v.Kind != Date && fsp > 0 {
		s += "." + strconv.Itoa(1e9 + v.Nano)[1:1+fsp]
	}
	if v.Kind == Time && v.Neg && (n != 0 || v.Nano != 0) {
		s = "-" + s
	}
	return s
}

// ToDatetime is the value as a DATETIME: a DATE at midnight; a TIME on the day
// given (MySQL uses the current date).
func (v Value) ToDatetime(today Value) (Value, bool) {
	switch v.Kind {
	case Date:
		v.Kind = Datetime
		v.Hour, v.Minute, v.Second, v.Nano = 0, 0, 0, 0
		return v, true
	case Time:
		base := today
		base.Kind, base.Hour, base.Minute, base.Second, base.Nano = Datetime, 0, 0, 0, 0
		return FromMicros(base.Micros() + v.TimeMicros())
	}
	return v, v.Kind == Datetime
}

// ToTime is the time of day of a DATE or DATETIME, or a TIME as it is.
func (v Value) ToTime() Value {
	if v.Kind == Time {
		return v
	}
	return Value{Kind: Time, Hour: v.Hour, Minute: v.Minute, Second: v.Second, Nano: v.Nano}
}

// ToDate is the date of a DATETIME.
func (v Value) ToDate() Value {
	v.Kind = Date
	v.Hour, v.Minute, v.Second, v.Nano, v.Neg = 0, 0, 0, 0, false
	return v
}
