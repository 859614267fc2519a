package engine

import (
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // named zones wherever the zone database is not installed

	"github.com/binlite/binlite/temporal"
)

// Date and time arithmetic, the current time and the time zone functions:
// DATE_ADD, ADDTIME, NOW(), UNIX_TIMESTAMP, FROM_UNIXTIME, CONVERT_TZ,
// TIMEDIFF, TIMESTAMPDIFF, EXTRACT.

// dateAdd is DATE_ADD/DATE_SUB and ± INTERVAL: binlite_date_add(x, src, kind,
// fsp, amount, unit, sub), kind being the result's type ("" for MySQL's
// string result when x is text).
func (f *temporalFuncs) dateAdd(x any, src, kind string, fsp int64, amount any, unit string, sub int64) any {
	if isNull(x) || isNull(amount) {
		return nil
	}
	u, ok := temporal.ParseUnit(unit)
	if !ok {
		return nil
	}
	var iv temporal.Interval
	if text, isText := sqlText(amount); isText {
		iv, ok = temporal.ParseIntervalText(text, u)
	} else {
		iv, ok = temporal.ParseInterval(argString(amount), u)
	}
	if !ok {
		return nil
	}
	k := kindOf(kind)
	if k == temporal.Time {
		t, ok := f.time(x, src)
		if !ok {
			return nil
		}
		r, ok := temporal.AddTimeInterval(t, iv, sub != 0)
		if !ok {
			f.st.warnf(codeOverflow, "Datetime function: time field overflow")
			return nil
		}
		return render(r, k, int(fsp))
	}
	v, ok := f.date(x, src, 0)
	if !ok {
		return nil
	}
	if k == temporal.Datetime || k == temporal.None && !u.DateOnly() {
		if v.Kind == temporal.Date {
			v.Kind = temporal.Datetime
		}
	}
	r, ok := temporal.AddInterval(v, iv, sub != 0)
	if !ok {
		f.st.warnf(codeOverflow, "Datetime function: datetime field overflow")
		return nil
	}
	if k == temporal.None {
		return render(r, temporal.None, -1)
	}
	return render(r, k, int(fsp))
}

// addTime is ADDTIME/SUBTIME and TIMESTAMP(x, t): binlite_addtime(x, src, t,
// sign, kind, fsp), kind "" for MySQL's string result.
func (f *temporalFuncs) addTime(x any, src string, t any, sign int64, kind string, fsp int64) any {
	if isNull(x) || isNull(t) {
		return nil
	}
	d, ok := f.time(t, "")
	if !ok {
		return nil
	}
	us := d.TimeMicros() * sign
	k := kindOf(kind)
	var v temporal.Value
	switch {
	case k == temporal.Time || k == temporal.None && src == "time":
		v, ok = f.time(x, src)
	case k == temporal.Datetime:
		v, ok = f.date(x, src, 0)
	default:
		v, ok = f.anyValue(x, src, 0)
	}
	if !ok {
		return nil
	}
	if v.Kind == temporal.Time {
		r := temporal.FromTimeMicros(v.TimeMicros() + us)
		if !r.Valid() {
			f.st.warnf(codeWrongValue, "Truncated incorrect time value: '%s'", r.String(6))
			r = temporal.Value{Kind: temporal.Time, Neg: r.Neg, Hour: temporal.MaxTimeHours, Minute: 59, Second: 59}
		}
		if k == temporal.None {
			return render(r, temporal.Time, -1)
		}
		return render(r, temporal.Time, int(fsp))
	}
	v.Kind = temporal.Datetime
	r, ok := temporal.FromMicros(v.Micros() + us)
	if !ok {
		return nil
	}
	if k == temporal.None {
		return render(r, temporal.Datetime, -1)
	}
	return render(r, temporal.Datetime, int(fsp))
}

// nowValue is t in zone tz (seconds east of UTC), cut to fsp digits.
func nowValue(t time.Time, tz, fsp int) (temporal.Value, bool) {
	v, ok := temporal.FromUnixMicros(t.UnixMicro() + int64(tz)*1e6)
	return v.Truncate(fsp), ok
}

// now is NOW(fsp) and its synonyms, the statement's start in zone tz:
// binlite_now(fsp, tz).
func (f *temporalFuncs) now(fsp, tz int64) any {
	v, _ := nowValue(f.st.stmtNow(), int(tz), int(fsp))
	return v.String(int(fsp))
}

// sysdate is SYSDATE(fsp): the time the function runs.
func (f *temporalFuncs) sysdate(fsp, tz int64) any {
	v, _ := nowValue(time.Now(), int(tz), int(fsp))
	return v.String(int(fsp))
}

func (f *temporalFuncs) curdate(tz int64) any {
	v, _ := nowValue(f.st.stmtNow(), int(tz), 0)
	return v.ToDate().String(0)
}

func (f *temporalFuncs) curtime(fsp, tz int64) any {
	v, _ := nowValue(f.st.stmtNow(), int(tz), int(fsp))
	return v.ToTime().String(int(fsp))
}

// maxUnixMicros is the end of UNIX_TIMESTAMP's and FROM_UNIXTIME's range
// (3001-01-19 03:14:07.999999 UTC, as MySQL 8.4 has it on 64-bit platforms).
const maxUnixMicros = 32536771199999999

// unixTimestamp is UNIX_TIMESTAMP(x): binlite_unix_timestamp(x, src, tz, fsp),
// x read in the session's zone; 0 outside the range, as MySQL.
func (f *temporalFuncs) unixTimestamp(x any, src string, tz, fsp int64) any {
	v, ok := f.fuzzyDate(x, src, int(tz))
	if !ok {
		return nil
	}
	if v.Kind == temporal.Date {
		v.Kind = temporal.Datetime
	}
	us := v.UnixMicros() - tz*1e6
	if us < 0 || us > maxUnixMicros || v.Zero() != temporal.NotZero {
		us = 0
	}
	if fsp == 0 {
		return us / 1e6
	}
	frac := strconv.Itoa(1e6 + int(us%1e6))[1 : 1+fsp]
	return strconv.FormatInt(us/1e6, 10) + "." + frac
}

// fromUnixtime is FROM_UNIXTIME(n[, format]): binlite_from_unixtime(n, tz,
// fsp[, format]); NULL for negative or too large n.
func (f *temporalFuncs) fromUnixtime(n any, tz, fsp int64, format ...any) any {
	if isNull(n) {
		return nil
	}
	text := argString(n)
	s, nano, neg, ok := splitDecimal(text)
	if !ok || neg {
		return nil
	}
	us := s*1e6 + int64(nano/1000)
	if nano%1000 >= 500 {
		us++
	}
	if s > maxUnixMicros/1000000 || us > maxUnixMicros {
		return nil
	}
	v, ok := temporal.FromUnixMicros(us + tz*1e6)
	if !ok {
		return nil
	}
	if len(format) > 0 {
		if isNull(format[0]) {
			return nil
		}
		out, ok := temporal.DateFormat(v, argString(format[0]), false)
		if !ok {
			return nil
		}
		return out
	}
	if r, ok := v.Round(int(fsp)); ok {
		v = r
	}
	return v.String(int(fsp))
}

// splitDecimal splits a non-negative number's text into seconds and
// nanoseconds.
func splitDecimal(text string) (int64, int, bool, bool) {
	text = strings.TrimSpace(text)
	neg := strings.HasPrefix(text, "-")
	text = strings.TrimLeft(text, "+-")
	if strings.ContainsAny(text, "eE") {
		v, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return 0, 0, neg, false
		}
		text = strconv.FormatFloat(v, 'f', 9, 64)
	}
	ip, fp, _ := strings.Cut(text, ".")
	s, err := strconv.ParseInt(ip, 10, 64)
	if err != nil || strings.Trim(fp, "0123456789") != "" {
		return 0, 0, neg, false
	}
	fp = (fp + "000000000")[:9]
	ns, _ := strconv.Atoi(fp)
	return s, ns, neg, true
}

// convertTZ is CONVERT_TZ(x, from, to) for offset zones:
// binlite_convert_tz(x, src, from, to, fsp). A named zone gives NULL (binlite
// has no zone database, as a MySQL without its zone tables); a value outside
// TIMESTAMP's range is returned unconverted, as MySQL does.
func (f *temporalFuncs) convertTZ(x any, src string, from, to any, fsp int64) any {
	fz, fok := sqlText(from)
	tzs, tok := sqlText(to)
	if !fok || !tok {
		return nil
	}
	fo, fk := temporal.ParseZone(fz)
	to2, tk := temporal.ParseZone(tzs)
	if fk == temporal.ZoneInvalid || tk == temporal.ZoneInvalid {
		return nil
	}
	floc, tloc := f.location(fz, fk), f.location(tzs, tk)
	if fk == temporal.ZoneNamed && floc == nil || tk == temporal.ZoneNamed && tloc == nil {
		return nil // a name the zone database does not have
	}
	v, ok := f.date(x, src, 0)
	if !ok {
		return nil
	}
	v.Kind = temporal.Datetime
	if floc != nil {
		// the named zone's offset at that local time
		_, fo = time.Date(v.Year, time.Month(v.Month), v.Day, v.Hour, v.Minute, v.Second, 0, floc).Zone()
	}
	utc, ok := v.Shift(-fo)
	if !ok || !utc.TimestampRange() {
		return render(v, temporal.Datetime, int(fsp))
	}
	if tloc != nil {
		_, to2 = time.Unix(utc.UnixMicros()/1e6, 0).In(tloc).Zone()
	}
	r, ok := utc.Shift(to2)
	if !ok {
		return nil
	}
	return render(r, temporal.Datetime, int(fsp))
}

// convertTZText is CONVERT_TZ(x, from, to) of a value written as text: its
// fractional digits are the result's.
func (f *temporalFuncs) convertTZText(x, from, to any) any {
	s, _ := sqlText(x)
	fsp := 0
	if _, frac, ok := strings.Cut(s, "."); ok {
		fsp = min(len(frac), 6)
	}
	return f.convertTZ(x, "", from, to, int64(fsp))
}

// location is a named time zone of the zone database (nil for an offset, or
// a name it lacks), loaded once per connection: CONVERT_TZ answers named
// zones as MySQL does with its time zone tables loaded.
func (f *temporalFuncs) location(name string, kind temporal.ZoneKind) *time.Location {
	if kind != temporal.ZoneNamed {
		return nil
	}
	if loc, ok := f.zones[name]; ok {
		return loc
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		loc = nil
	}
	if f.zones == nil {
		f.zones = map[string]*time.Location{}
	}
	f.zones[name] = loc
	return loc
}

// timediff is TIMEDIFF(a, b): binlite_timediff(a, srcA, b, srcB, fsp); NULL
// when one is a TIME and the other a DATETIME.
func (f *temporalFuncs) timediff(a any, ka string, b any, kb string, fsp int64) any {
	x, ok1 := f.anyValue(a, ka, 0)
	y, ok2 := f.anyValue(b, kb, 0)
	if !ok1 || !ok2 || (x.Kind == temporal.Time) != (y.Kind == temporal.Time) {
		return nil
	}
	var d int64
	if x.Kind == temporal.Time {
		d = x.TimeMicros() - y.TimeMicros()
	} else {
		d = x.Micros() - y.Micros()
	}
	r := temporal.FromTimeMicros(d)
	if !r.Valid() {
		f.st.warnf(codeWrongValue, "Truncated incorrect time value: '%s'", r.String(6))
		r = temporal.Value{Kind: temporal.Time, Neg: r.Neg, Hour: temporal.MaxTimeHours, Minute: 59, Second: 59}
	}
	return render(r, temporal.Time, int(fsp))
}

// timestampdiff is TIMESTAMPDIFF(unit, a, b): whole units from a to b, months
// counted by the calendar as MySQL does.
func (f *temporalFuncs) timestampdiff(unit string, a any, ka string, b any, kb string) any {
	x, ok1 := f.date(a, ka, 0)
	y, ok2 := f.date(b, kb, 0)
	if !ok1 || !ok2 {
		return nil
	}
	u, ok := temporal.ParseUnit(unit)
	if !ok {
		return nil
	}
	d := y.Micros() - x.Micros()
	switch u {
	case temporal.Microsecond:
		return d
	case temporal.Second:
		return d / 1e6
	case temporal.Minute:
		return d / 60e6
	case temporal.Hour:
		return d / 3600e6
	case temporal.Day:
		return d / 86400e6
	case temporal.Week:
		return d / (7 * 86400e6)
	}
	neg := int64(1)
	beg, end := x, y
	if d < 0 {
		neg, beg, end = -1, y, x
	}
	years := int64(end.Year - beg.Year)
	later := func() bool { // end's day and time of year before beg's
		if end.Month != beg.Month {
			return end.Month < beg.Month
		}
		return end.Day < beg.Day
	}
	if later() {
		years--
	}
	months := 12 * years
	if later() {
		months += int64(12 - (beg.Month - end.Month))
	} else {
		months += int64(end.Month - beg.Month)
	}
	if end.Day < beg.Day {
		months--
	} else if end.Day == beg.Day && end.ClockMicros() < beg.ClockMicros() {
		months--
	}
	switch u {
	case temporal.Year:
		return months / 12 * neg
	case temporal.Quarter:
		return months / 3 * neg
	case temporal.Month:
		return months * neg
	}
	return nil
}

// extract is EXTRACT(unit FROM x): binlite_extract(unit, x, src).
func (f *temporalFuncs) extract(unit string, x any, src string) any {
	u, ok := temporal.ParseUnit(unit)
	if !ok {
		return nil
	}
	switch u {
	case temporal.Year, temporal.YearMonth, temporal.Quarter, temporal.Month, temporal.Week, temporal.Day:
		v, ok := f.date(x, src, 0)
		if !ok {
			return nil
		}
		switch u {
		case temporal.Year:
			return int64(v.Year)
		case temporal.YearMonth:
			return int64(v.Year*100 + v.Month)
		case temporal.Quarter:
			return int64((v.Month + 2) / 3)
		case temporal.Month:
			return int64(v.Month)
		case temporal.Week:
			w, _ := v.Week(temporal.WeekMode(0))
			return int64(w)
		}
		return int64(v.Day)
	}
	v, ok := f.time(x, src)
	if src == "date" || src == "datetime" {
		v, ok = f.date(x, src, 0)
	}
	if !ok {
		return nil
	}
	sign := int64(1)
	if v.Kind == temporal.Time && v.Neg {
		sign = -1
	}
	day, hour := int64(0), int64(v.Hour)
	if v.Kind != temporal.Time {
		day = int64(v.Day)
	}
	m, s, us := int64(v.Minute), int64(v.Second), int64(v.Nano/1000)
	switch u {
	case temporal.DayHour:
		return (day*100 + hour) * sign
	case temporal.DayMinute:
		return (day*10000 + hour*100 + m) * sign
	case temporal.DaySecond:
		return (day*1000000 + hour*10000 + m*100 + s) * sign
	case temporal.Hour:
		return hour * sign
	case temporal.HourMinute:
		return (hour*100 + m) * sign
	case temporal.HourSecond:
		return (hour*10000 + m*100 + s) * sign
	case temporal.Minute:
		return m * sign
	case temporal.MinuteSecond:
		return (m*100 + s) * sign
	case temporal.Second:
		return s * sign
	case temporal.Microsecond:
		return us * sign
	case temporal.DayMicrosecond:
		return ((day*1000000+hour*10000+m*100+s)*1000000 + us) * sign
	case temporal.HourMicrosecond:
		return ((hour*10000+m*100+s)*1000000 + us) * sign
	case temporal.MinuteMicrosecond:
		return ((m*100+s)*1000000 + us) * sign
	case temporal.SecondMicrosecond:
		return (s*1000000 + us) * sign
	}
	return nil
}
