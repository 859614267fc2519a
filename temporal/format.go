package temporal

import (
	"strconv"
	"strings"
)

// English names (lc_time_names en_US, MySQL's default), Monday first.
var (
	DayNames   = [...]string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
	MonthNames = [...]string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
)

// Week modes' bits (MySQL's WEEK(date, mode) and the %U/%u/%V/%v formats).
const (
	weekMondayFirst = 1
	weekYear        = 2
	weekFirstDay    = 4
)

// WeekMode turns WEEK()'s mode argument (0-7) into its bits.
func WeekMode(mode int) int {
	m := mode & 7
	if m&weekMondayFirst == 0 {
		m ^= weekFirstDay
	}
	return m
}

// weekdayOf is the day of the week of day number n: 0 is Monday, or Sunday
// when sundayFirst.
func weekdayOf(n int64, sundayFirst bool) int {
	if sundayFirst {
		return int((n + 6) % 7)
	}
	return int((n + 5) % 7)
}

// Week is the week of the year of a date and the year it belongs to, under
// mode bits m (see WeekMode), as MySQL counts weeks.
func (v Value) Week(m int) (week, year int) {
	mondayFirst := m&weekMondayFirst != 0
	wholeYear := m&weekYear != 0
	firstDay := m&weekFirstDay != 0
	n := v.DayNumber()
	first := DayNumber(v.Year, 1, 1)
	wd := weekdayOf(first, !mondayFirst)
	year = v.Year
	// Does January 1st's week count as the year's first (else week 0)?
	late := func(wd int) bool { return firstDay && wd != 0 || !firstDay && wd >= 4 }
	if v.Month == 1 && v.Day <= 7-wd {
		if !wholeYear && late(wd) {
			return 0, year
		}
		wholeYear = true
		year--
		days := int64(365)
		if IsLeap(year) {
			days = 366
		}
		first -= days
		wd = int((int64(wd) + 53*7 - days) % 7)
	}
	var days int64
	if late(wd) {
		days = n - (first + int64(7-wd))
	} else {
		days = n - (first - int64(wd))
	}
	if wholeYear && days >= 52*7 {
		dy := 365
		if IsLeap(year) {
			dy = 366
		}
		wd = (wd + dy) % 7
		if !late(wd) {
			return 1, year + 1
		}
	}
	return int(days/7 + 1), year
}

// DayOfYear is the date's day of its year (1-366).
func (v Value) DayOfYear() int { return int(v.DayNumber() - DayNumber(v.Year, 1, 1) + 1) }

// DateFormat renders v with MySQL's DATE_FORMAT specifiers (%Y, %m, %d, %H, %i,
// %s, %f, %W, %M, %j, %U, ...). timeOnly is TIME_FORMAT, whose date specifiers
// give NULL (ok=false), as do names of a date that has none.
func DateFormat(v Value, format string, timeOnly bool) (string, bool) {
	var b strings.Builder
	isTime := v.Kind == Time || timeOnly
	if v.Kind == Time && v.Neg {
		b.WriteByte('-')
	}
	num := func(n, width int) { pad(&b, n, width) }
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		switch format[i] {
		case 'M', 'b':
			if v.Month == 0 || timeOnly {
				return "", false
			}
			name := MonthNames[v.Month-1]
			if format[i] == 'b' {
				name = name[:3]
			}
			b.WriteString(name)
		case 'W', 'a':
			if isTime || v.Month == 0 && v.Year == 0 {
				return "", false
			}
			name := DayNames[v.Weekday()]
			if format[i] == 'a' {
				name = name[:3]
			}
			b.WriteString(name)
		case 'D':
			if isTime {
				return "", false
			}
			b.WriteString(strconv.Itoa(v.Day))
			switch {
			case v.Day >= 10 && v.Day <= 19:
				b.WriteString("th")
			case v.Day%10 == 1:
				b.WriteString("st")
			case v.Day%10 == 2:
				b.WriteString("nd")
			case v.Day%10 == 3:
				b.WriteString("rd")
			default:
				b.WriteString("th")
			}
		case 'Y':
			if timeOnly {
				return "", false
			}
			num(v.Year, 4)
		case 'y':
			if timeOnly {
				return "", false
			}
			num(v.Year%100, 2)
		case 'm':
			if timeOnly {
				return "", false
			}
			num(v.Month, 2)
		case 'c':
			if timeOnly {
				return "", false
			}
			num(v.Month, 1)
		case 'd':
			if timeOnly {
				return "", false
			}
			num(v.Day, 2)
		case 'e':
			if timeOnly {
				return "", false
			}
			num(v.Day, 1)
		case 'f':
			num(v.Nano/1000, 6)
		case 'H':
			num(v.Hour, 2)
		case 'k':
			num(v.Hour, 1)
		case 'h', 'I':
			num((v.Hour%24+11)%12+1, 2)
		case 'l':
			num((v.Hour%24+11)%12+1, 1)
		case 'i':
			num(v.Minute, 2)
		case 'S', 's':
			num(v.Second, 2)
		case 'p':
			if v.Hour%24 < 12 {
				b.WriteString("AM")
			} else {
				b.WriteString("PM")
			}
		case 'r':
			num((v.Hour+11)%12+1, 2)
			b.WriteByte(':')
			num(v.Minute, 2)
			b.WriteByte(':')
			num(v.Second, 2)
			if v.Hour%24 < 12 {
				b.WriteString(" AM")
			} else {
				b.WriteString(" PM")
			}
		case 'T':
			num(v.Hour, 2)
			b.WriteByte(':')
			num(v.Minute, 2)
			b.WriteByte(':')
			num(v.Second, 2)
		case 'j':
			if isTime {
				return "", false
			}
			num(v.DayOfYear(), 3)
		case 'U', 'u':
			if isTime {
				return "", false
			}
			m := weekFirstDay
			if format[i] == 'u' {
				m = weekMondayFirst
			}
			w, _ := v.Week(m)
			num(w, 2)
		case 'V', 'v':
			if isTime {
				return "", false
			}
			m := weekYear | weekFirstDay
			if format[i] == 'v' {
				m = weekYear | weekMondayFirst
			}
			w, _ := v.Week(m)
			num(w, 2)
		case 'X', 'x':
			if isTime {
				return "", false
			}
			m := weekYear | weekFirstDay
			if format[i] == 'x' {
				m = weekYear | weekMondayFirst
			}
			_, y := v.Week(m)
			num(y, 4)
		case 'w':
			if isTime || v.Month == 0 && v.Year == 0 {
				return "", false
			}
			b.WriteString(strconv.Itoa(weekdayOf(v.DayNumber(), true)))
		default:
			b.WriteByte(format[i])
		}
	}
	return b.String(), true
}

// FormatKind is the type of STR_TO_DATE's result for format f, as MySQL works
// it out from the specifiers: a DATETIME when f names date and time parts, a
// TIME for time parts only, else a DATE; six fractional digits with %f.
func FormatKind(f string) (Kind, int) {
	var date, clock, frac bool
	for i := 0; i+1 < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		c := f[i]
		switch {
		case c == 'f':
			frac, clock = true, true
		case strings.IndexByte("HISThiklrs", c) >= 0:
			clock = true
		case strings.IndexByte("MVUXYWabcjmvuxyw", c) >= 0:
			date = true
		}
		if date && frac {
			return Datetime, 6
		}
	}
	switch {
	case frac:
		return Time, 6
	case clock && date:
		return Datetime, 0
	case clock:
		return Time, 0
	}
	return Date, 0
}

// strToDate is STR_TO_DATE's reading state.
type strToDate struct {
	v                      Value
	usa                    bool
	daypart                int
	yearday                int
	weekday                int
	week, weekYear         int
	strictWeek, sundayWeek bool
	strictWeekYear         bool
	weekYearSunday         bool
}

// StrToDate reads s by format f as MySQL's STR_TO_DATE does, into a value of
// kind k (see FormatKind). ok=false: s does not match f, or the date is not
// valid (MySQL gives NULL with warning 1411). trailing: text is left after
// the match (MySQL warns with 1292 and keeps the value).
func StrToDate(s, f string, k Kind) (v Value, trailing, ok bool) {
	st := &strToDate{week: -1, weekYear: -1}
	rest, ok := st.read(s, f)
	if !ok {
		return Value{}, false, false
	}
	if st.usa {
		if st.v.Hour > 12 || st.v.Hour < 1 {
			return Value{}, false, false
		}
		st.v.Hour = st.v.Hour%12 + st.daypart
	}
	v = st.v
	if st.yearday > 0 {
		y, m, d, ok := FromDayNumber(DayNumber(v.Year, 1, 1) + int64(st.yearday) - 1)
		if !ok {
			return Value{}, false, false
		}
		v.Year, v.Month, v.Day = y, m, d
	}
	if st.week >= 0 && st.weekday > 0 {
		// %V and %v need %X and %x; %U and %u go with %Y.
		if st.strictWeek && (!st.strictWeekYear || st.weekYearSunday != st.sundayWeek) || !st.strictWeek && st.strictWeekYear {
			return Value{}, false, false
		}
		y := v.Year
		if st.strictWeek {
			y = st.weekYear
		}
		days := DayNumber(y, 1, 1)
		wd := int64(weekdayOf(days, st.sundayWeek))
		if st.sundayWeek {
			add := int64(7)
			if wd == 0 {
				add = 0
			}
			days += add - wd + int64(st.week-1)*7 + int64(st.weekday%7)
		} else {
			add := int64(7)
			if wd <= 3 {
				add = 0
			}
			days += add - wd + int64(st.week-1)*7 + int64(st.weekday-1)
		}
		y2, m, d, ok := FromDayNumber(days)
		if !ok {
			return Value{}, false, false
		}
		v.Year, v.Month, v.Day = y2, m, d
	}
	if v.Year > 9999 || v.Month > 12 || v.Day > 31 || v.Hour > 23 || v.Minute > 59 || v.Second > 59 {
		return Value{}, false, false
	}
	// NO_ZERO_DATE and NO_ZERO_IN_DATE; the day must exist. A TIME keeps only
	// its day count.
	if k != Time && (v.Year == 0 || v.Month == 0 || v.Day == 0 || v.Day > DaysInMonth(v.Year, v.Month)) {
		return Value{}, false, false
	}
	trailing = strings.TrimLeft(rest, " \t\n\r") != ""
	v.Kind = k
	switch k {
	case Time:
		v.Hour += v.Day * 24
		v.Year, v.Month, v.Day = 0, 0, 0
	case Date:
		v.Hour, v.Minute, v.Second, v.Nano = 0, 0, 0, 0
	}
	return v, trailing, true
}

// read matches s against f, returning what of s is left.
func (st *strToDate) read(s, f string) (string, bool) {
	for i := 0; i < len(f); i++ {
		for len(s) > 0 && isSpace(s[0]) {
			s = s[1:]
		}
		c := f[i]
		if c != '%' || i+1 == len(f) {
			if isSpace(c) {
				continue
			}
			if len(s) == 0 || s[0] != c {
				return s, false
			}
			s = s[1:]
			continue
		}
		i++
		var ok bool
		var n int
		switch f[i] {
		case 'Y':
			var l int
			n, l, s, ok = digits(s, 4)
			if ok && l <= 2 {
				n = twoDigitYear(n)
			}
			st.v.Year = n
		case 'y':
			n, _, s, ok = digits(s, 2)
			st.v.Year = twoDigitYear(n)
		case 'm', 'c':
			st.v.Month, _, s, ok = digits(s, 2)
		case 'M', 'b':
			st.v.Month, s, ok = name(s, MonthNames[:], f[i] == 'b')
		case 'd', 'e':
			st.v.Day, _, s, ok = digits(s, 2)
		case 'D':
			st.v.Day, _, s, ok = digits(s, 2)
			s = s[min(len(s), 2):]
		case 'h', 'I', 'l':
			st.usa = true
			st.v.Hour, _, s, ok = digits(s, 2)
		case 'k', 'H':
			st.v.Hour, _, s, ok = digits(s, 2)
		case 'i':
			st.v.Minute, _, s, ok = digits(s, 2)
		case 's', 'S':
			st.v.Second, _, s, ok = digits(s, 2)
		case 'f':
			var l int
			n, l, s, ok = digits(s, 6)
			for ; l < 6; l++ {
				n *= 10
			}
			st.v.Nano = n * 1000
		case 'p':
			if len(s) < 2 || !st.usa {
				return s, false
			}
			switch strings.ToUpper(s[:2]) {
			case "PM":
				st.daypart = 12
			case "AM":
				st.daypart = 0
			default:
				return s, false
			}
			s, ok = s[2:], true
		case 'W', 'a':
			st.weekday, s, ok = name(s, DayNames[:], f[i] == 'a')
		case 'w':
			st.weekday, _, s, ok = digits(s, 1)
			if ok && st.weekday > 6 {
				return s, false
			}
			if st.weekday == 0 {
				st.weekday = 7
			}
		case 'j':
			st.yearday, _, s, ok = digits(s, 3)
		case 'U', 'u', 'V', 'v':
			st.week, _, s, ok = digits(s, 2)
			st.strictWeek = f[i] == 'V' || f[i] == 'v'
			st.sundayWeek = f[i] == 'U' || f[i] == 'V'
		case 'X', 'x':
			st.weekYear, _, s, ok = digits(s, 4)
			st.strictWeekYear, st.weekYearSunday = true, f[i] == 'X'
		case 'r':
			s, ok = st.read(s, "%I:%i:%S %p")
		case 'T':
			s, ok = st.read(s, "%H:%i:%S")
		case '.':
			for len(s) > 0 && isPunct(s[0]) {
				s = s[1:]
			}
			ok = true
		case '@':
			for len(s) > 0 && (s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
				s = s[1:]
			}
			ok = true
		case '#':
			for len(s) > 0 && isDigit(s[0]) {
				s = s[1:]
			}
			ok = true
		default:
			return s, false
		}
		if !ok {
			return s, false
		}
	}
	return s, true
}

// digits reads at most max digits at the start of s.
func digits(s string, max int) (n, l int, rest string, ok bool) {
	for l < max && l < len(s) && isDigit(s[l]) {
		n = n*10 + int(s[l]-'0')
		l++
	}
	return n, l, s[l:], l > 0
}

// name reads a month or day name (or its three-letter abbreviation) at the
// start of s, ignoring case; its number counts from 1.
func name(s string, names []string, abbrev bool) (int, string, bool) {
	for i, n := range names {
		if abbrev {
			n = n[:3]
		}
		if len(s) >= len(n) && strings.EqualFold(s[:len(n)], n) {
			return i + 1, s[len(n):], true
		}
	}
	return 0, s, false
}

func twoDigitYear(y int) int {
	if y < 70 {
		return y + 2000
	}
	if y < 100 {
		return y + 1900
	}
	return y
}
