package engine

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/temporal"
)

// MySQL's date and time functions as SQL functions (package temporal does the
// arithmetic). DATE, DATETIME and TIME values are text in MySQL's spelling, as
// the columns store them. The compiler (compiler/emittemporal.go) passes what
// a value alone does not say: the MySQL type of an argument ("date",
// "datetime", "time"; "" to read it by its content), the result's type and
// fractional digits, the session's time zone as seconds east of UTC. A value
// that is no date gives NULL and a warning, as in MySQL.

// Warning codes of the temporal functions.
const (
	codeWrongValue   = 1292 // ER_TRUNCATED_WRONG_VALUE
	codeOverflow     = 1441 // ER_DATETIME_FUNCTION_OVERFLOW
	codeWrongForFunc = 1411 // ER_WRONG_VALUE_FOR_TYPE
)

// temporalFuncs are the functions of one connection, with the statement state
// they warn into and read NOW() from.
type temporalFuncs struct{ st *stmtState }

func registerTemporal(c *sqlite3.SQLiteConn, st *stmtState) error {
	f := &temporalFuncs{st: st}
	fns := []struct {
		name string
		impl any
		pure bool
	}{
		{"binlite_cast", f.cast, false},
		{"binlite_store", f.store, false},
		{"binlite_tnum", f.number, false},
		{"binlite_tkey", f.key, false},
		{"binlite_tz_local", f.tzLocal, true},
		{"binlite_tz_utc", f.tzUTC, false},
		{"binlite_date_add", f.dateAdd, false},
		{"binlite_addtime", f.addTime, false},
		{"binlite_now", f.now, false},
		{"binlite_sysdate", f.sysdate, false},
		{"binlite_curdate", f.curdate, false},
		{"binlite_curtime", f.curtime, false},
		{"binlite_unix_timestamp", f.unixTimestamp, false},
		{"binlite_from_unixtime", f.fromUnixtime, false},
		{"binlite_convert_tz", f.convertTZ, false},
		{"binlite_timediff", f.timediff, false},
		{"binlite_timestampdiff", f.timestampdiff, false},
		{"binlite_extract", f.extract, false},
		{"binlite_str_to_date", f.strToDate, false},
		{"binlite_sec_to_time", f.secToTime, false},
		{"binlite_maketime", f.maketime, false},
		{"binlite_time_valid", timeValid, true},
		{"binlite_time_of_key", timeOfKey, true},
		{"date_format", f.dateFormat, false},
		{"time_format", f.timeFormat, false},
		{"datediff", f.datediff, false},
		{"last_day", f.lastDay, false},
		{"dayofweek", f.dayOfWeek, false},
		{"weekday", f.weekday, false},
		{"dayname", f.dayName, false},
		{"monthname", f.monthName, false},
		{"dayofmonth", f.dayOfMonth, false},
		{"day", f.dayOfMonth, false},
		{"dayofyear", f.dayOfYear, false},
		{"month", f.month, false},
		{"year", f.year, false},
		{"quarter", f.quarter, false},
		{"week", f.week, false},
		{"weekofyear", f.weekOfYear, false},
		{"yearweek", f.yearWeek, false},
		{"to_days", f.toDays, false},
		{"to_seconds", f.toSeconds, false},
		{"from_days", f.fromDays, false},
		{"makedate", f.makedate, false},
		{"time_to_sec", f.timeToSec, false},
		{"hour", f.hour, false},
		{"minute", f.minute, false},
		{"second", f.second, false},
		{"microsecond", f.microsecond, false},
		{"period_add", periodAdd, true},
		{"period_diff", periodDiff, true},
	}
	for _, fn := range fns {
		if err := c.RegisterFunc(fn.name, fn.impl, fn.pure); err != nil {
			return fmt.Errorf("register %s: %w", fn.name, err)
		}
	}
	return nil
}

// sqlText is a text argument's string; ok=false for NULL and non-text.
func sqlText(x any) (string, bool) {
	switch v := x.(type) {
	case string:
		return v, true
	case []byte:
		return string(v), v != nil
	}
	return "", false
}

// numberText spells a numeric argument for the temporal readers.
func numberText(x any) (string, bool) {
	switch v := x.(type) {
	case int64:
		return strconv.FormatInt(v, 10), true
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return "", false
		}
		return strconv.FormatFloat(v, 'f', -1, 64), true
	}
	return "", false
}

// display is an argument as a warning quotes it.
func display(x any) string {
	if s, ok := sqlText(x); ok {
		return s
	}
	if s, ok := numberText(x); ok {
		return s
	}
	return fmt.Sprint(x)
}

func argString(x any) string {
	if s, ok := sqlText(x); ok {
		return s
	}
	s, _ := numberText(x)
	return s
}

func argInt(x any) (int64, bool) {
	switch v := x.(type) {
	case int64:
		return v, true
	case float64:
		return int64(math.Round(v)), true
	}
	if s, ok := sqlText(x); ok {
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		return int64(math.Round(f)), err == nil
	}
	return 0, false
}

// today is the statement's date in zone tz (a TIME read as a DATETIME is on it).
func (f *temporalFuncs) today(tz int) temporal.Value {
	v, _ := nowValue(f.st.stmtNow(), tz, 0)
	return v.ToDate()
}

// date reads a DATE or DATETIME argument (hint: its MySQL type, "" for text or
// a number read by its content); ok=false for NULL or no date (warned).
func (f *temporalFuncs) date(x any, hint string, tz int) (temporal.Value, bool) {
	if isNull(x) {
		return temporal.Value{}, false
	}
	if hint == "time" {
		t, ok := f.time(x, hint)
		if !ok {
			return temporal.Value{}, false
		}
		return t.ToDatetime(f.today(tz))
	}
	var p temporal.Parsed
	var ok bool
	if s, isText := sqlText(x); isText {
		p, ok = temporal.ParseDatetime(s)
	} else if n, isNum := numberText(x); isNum {
		p, ok = temporal.FromNumber(n)
	}
	if !ok {
		f.st.warn(codeWrongValue, "Incorrect datetime value: '%s'", display(x))
		return temporal.Value{}, false
	}
	if p.Trailing {
		f.st.warn(codeWrongValue, "Truncated incorrect datetime value: '%s'", display(x))
	}
	if hint == "date" {
		p.Value = p.Value.ToDate()
	}
	return p.Value, true
}

// time reads a TIME argument: a DATE is midnight, a DATETIME its time of day.
func (f *temporalFuncs) time(x any, hint string) (temporal.Value, bool) {
	if isNull(x) {
		return temporal.Value{}, false
	}
	if hint == "date" || hint == "datetime" {
		d, ok := f.date(x, hint, 0)
		return d.ToTime(), ok
	}
	var p temporal.Parsed
	var ok bool
	if s, isText := sqlText(x); isText {
		p, ok = temporal.ParseTime(s)
	} else if n, isNum := numberText(x); isNum {
		p, ok = temporal.TimeFromNumber(n)
	}
	if !ok {
		f.st.warn(codeWrongValue, "Truncated incorrect time value: '%s'", display(x))
		return temporal.Value{}, false
	}
	if p.OutOfRange || p.Trailing {
		f.st.warn(codeWrongValue, "Truncated incorrect time value: '%s'", display(x))
	}
	return p.Value, true
}

// anyValue reads an argument whose hint may be any kind: by its hint, else as
// a DATETIME when its text is one, else as a TIME.
func (f *temporalFuncs) anyValue(x any, hint string, tz int) (temporal.Value, bool) {
	switch hint {
	case "date", "datetime":
		return f.date(x, hint, tz)
	case "time":
		return f.time(x, hint)
	}
	if s, ok := sqlText(x); ok {
		if p, ok := temporal.ParseDatetime(s); ok && !p.Trailing {
			return p.Value, true
		}
		return f.time(x, "")
	}
	if n, ok := numberText(x); ok {
		if p, ok := temporal.FromNumber(n); ok && p.Kind == temporal.Datetime {
			return p.Value, true
		}
		return f.time(x, "")
	}
	return temporal.Value{}, false
}

func kindOf(name string) temporal.Kind {
	switch name {
	case "date":
		return temporal.Date
	case "datetime", "timestamp":
		return temporal.Datetime
	case "time":
		return temporal.Time
	}
	return temporal.None
}

// render spells a result of kind k with fsp digits; fsp < 0 is a string
// result: a date alone, else six digits when there is a fraction.
func render(v temporal.Value, k temporal.Kind, fsp int) any {
	if k != temporal.None {
		switch k {
		case temporal.Date:
			v = v.ToDate()
		case temporal.Time:
			v = v.ToTime()
		case temporal.Datetime:
			if v.Kind == temporal.Date {
				v.Kind = temporal.Datetime
			}
		}
	}
	if fsp < 0 {
		fsp = 0
		if v.Nano/1000 != 0 {
			fsp = 6
		}
	}
	if r, ok := v.Round(fsp); ok {
		v = r
	}
	return v.String(fsp)
}

// cast is CAST(x AS DATE|DATETIME(fsp)|TIME(fsp)) and DATE(), TIME(),
// TIMESTAMP(x): binlite_cast(x, src, kind, fsp, tz).
func (f *temporalFuncs) cast(x any, src, kind string, fsp, tz int64) any {
	k := kindOf(kind)
	var v temporal.Value
	var ok bool
	if k == temporal.Time {
		v, ok = f.time(x, src)
	} else {
		v, ok = f.date(x, src, int(tz))
	}
	if !ok {
		return nil
	}
	if k == temporal.Datetime {
		r, ok := v.Round(int(fsp))
		if !ok {
			return nil
		}
		v = r
	}
	if k == temporal.Time {
		v = v.ToTime()
		r, ok := v.Round(int(fsp))
		if !ok || !r.Valid() {
			f.st.warn(codeWrongValue, "Truncated incorrect time value: '%s'", display(x))
			r = temporal.Value{Kind: temporal.Time, Neg: v.Neg, Hour: temporal.MaxTimeHours, Minute: 59, Second: 59}
		}
		v = r
	}
	return render(v, k, int(fsp))
}

// store is a computed value written into a DATE, DATETIME or TIME column
// (binlite_store(x, src, kind, fsp, tz, column)): the column's spelling, or
// MySQL's strict-mode error 1292 for a value it cannot hold. A TIME written
// into a DATETIME is on the session's today.
func (f *temporalFuncs) store(x any, src, kind string, fsp, tz int64, column string) (any, error) {
	if isNull(x) {
		return nil, nil
	}
	k := kindOf(kind)
	var st temporal.Stored
	var ok bool
	switch {
	case src != "":
		var v temporal.Value
		if v, ok = f.anyValue(x, src, int(tz)); ok {
			st, ok = temporal.StoreValue(v, k, int(fsp), f.today(int(tz)))
		}
	default:
		if s, isText := sqlText(x); isText {
			st, ok = temporal.StoreText(s, k, int(fsp), 0)
		} else if n, isNum := numberText(x); isNum {
			st, ok = temporal.StoreNumber(n, k, int(fsp))
		}
	}
	if !ok {
		return nil, fnError(codeWrongValue, "Incorrect %s value: '%s' for column '%s' at row 1", k, display(x), column)
	}
	if st.Note {
		f.st.note(mysqlerr.ErWarnDataTruncated, "Data truncated for column '%s' at row 1", column)
	}
	return st.Value.String(int(fsp)), nil
}

// number is a temporal value in numeric context (d + 0): binlite_tnum(x, src,
// fsp) is YYYYMMDD, YYYYMMDDHHMMSS or HHMMSS, an integer, or exact decimal text
// with fsp digits.
func (f *temporalFuncs) number(x any, src string, fsp int64) any {
	v, ok := f.anyValue(x, src, 0)
	if !ok {
		return nil
	}
	if fsp == 0 {
		if r, ok := v.Round(0); ok {
			v = r
		}
		n, _ := strconv.ParseInt(v.Number(0), 10, 64)
		return n
	}
	return v.Number(int(fsp))
}

// key is the value x compares by (binlite_tkey(x, src, kind, fsp)) against a
// column of kind with fsp digits: see temporal.Key; for TIME, microseconds.
func (f *temporalFuncs) key(x any, src, kind string, fsp int64) any {
	k := kindOf(kind)
	if k == temporal.Time {
		v, ok := f.time(x, src)
		if !ok {
			return nil
		}
		return v.TimeMicros()
	}
	v, ok := f.date(x, src, 0)
	if !ok {
		return nil
	}
	return temporal.Key(v, k, int(fsp))
}

// tzLocal is a TIMESTAMP column's stored (UTC) text read in the session's zone:
// binlite_tz_local(x, tz), with the text's fractional digits.
func (f *temporalFuncs) tzLocal(x any, tz int64) any {
	s, ok := sqlText(x)
	if !ok {
		return x
	}
	p, ok := temporal.ParseDatetime(s)
	if !ok || tz == 0 {
		return x
	}
	v, ok := p.Value.Shift(int(tz))
	if !ok {
		return x
	}
	return v.String(p.Frac)
}

// tzUTC is a value written into a TIMESTAMP column (binlite_tz_utc(x, src, fsp,
// tz)): read in the session's zone, stored in UTC in the column's spelling. A
// value that is no datetime is left for the column's value check to refuse.
func (f *temporalFuncs) tzUTC(x any, src string, fsp, tz int64) any {
	if isNull(x) {
		return nil
	}
	var st temporal.Stored
	var ok bool
	if src != "" {
		var v temporal.Value
		if v, ok = f.anyValue(x, src, int(tz)); ok {
			st, ok = temporal.StoreValue(v, temporal.Datetime, int(fsp), f.today(int(tz)))
		}
	} else if s, isText := sqlText(x); isText {
		st, ok = temporal.StoreText(s, temporal.Datetime, int(fsp), int(tz))
	} else if n, isNum := numberText(x); isNum {
		st, ok = temporal.StoreNumber(n, temporal.Datetime, int(fsp))
	}
	if !ok {
		return x
	}
	v, ok := st.Value.Shift(-int(tz))
	if !ok {
		return x
	}
	return v.String(int(fsp))
}

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
			f.st.warn(codeOverflow, "Datetime function: time field overflow")
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
		f.st.warn(codeOverflow, "Datetime function: datetime field overflow")
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
			f.st.warn(codeWrongValue, "Truncated incorrect time value: '%s'", r.String(6))
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
	v, ok := f.date(x, src, int(tz))
	if !ok {
		return nil
	}
	if v.Kind == temporal.Date {
		v.Kind = temporal.Datetime
	}
	us := v.UnixMicros() - tz*1e6
	if us < 0 || us > maxUnixMicros {
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
	if fk != temporal.ZoneOffset || tk != temporal.ZoneOffset {
		return nil
	}
	v, ok := f.date(x, src, 0)
	if !ok {
		return nil
	}
	v.Kind = temporal.Datetime
	utc, ok := v.Shift(-fo)
	if !ok || !utc.TimestampRange() {
		return render(v, temporal.Datetime, int(fsp))
	}
	r, ok := utc.Shift(to2)
	if !ok {
		return nil
	}
	return render(r, temporal.Datetime, int(fsp))
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
		f.st.warn(codeWrongValue, "Truncated incorrect time value: '%s'", r.String(6))
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

// strToDate is STR_TO_DATE(s, format): binlite_str_to_date(s, format, kind,
// fsp), kind and fsp worked out from a constant format ("" otherwise: read
// from the format here, the result a DATETIME(6)).
func (f *temporalFuncs) strToDate(s, format any, kind string, fsp int64) any {
	str, ok1 := sqlText(s)
	if !ok1 {
		if n, ok := numberText(s); ok {
			str, ok1 = n, true
		}
	}
	fm, ok2 := sqlText(format)
	if !ok1 || !ok2 {
		return nil
	}
	k, digits := temporal.FormatKind(fm)
	if kind != "" {
		k = kindOf(kind)
		digits = int(fsp)
	}
	v, trailing, ok := temporal.StrToDate(str, fm, k)
	if !ok {
		f.st.warn(codeWrongForFunc, "Incorrect datetime value: '%s' for function str_to_date", str)
		return nil
	}
	if trailing {
		f.st.warn(codeWrongValue, "Truncated incorrect %s value: '%s'", k, str)
	}
	if kind == "" {
		// A format known only now: the declared type is DATETIME(6).
		if v.Kind == temporal.Time {
			return v.String(6)
		}
		v.Kind = temporal.Datetime
		return v.String(6)
	}
	return v.String(digits)
}

// secToTime is SEC_TO_TIME(n): binlite_sec_to_time(n, fsp).
func (f *temporalFuncs) secToTime(n any, fsp int64) any {
	if isNull(n) {
		return nil
	}
	s, nano, neg, ok := splitDecimal(argString(n))
	if !ok {
		return nil
	}
	us := s*1e6 + int64(nano/1000)
	if s > 1e12 {
		us = math.MaxInt64 / 2
	}
	if neg {
		us = -us
	}
	r := temporal.FromTimeMicros(us)
	if !r.Valid() {
		f.st.warn(codeWrongValue, "Truncated incorrect time value: '%s'", display(n))
		r = temporal.Value{Kind: temporal.Time, Neg: neg, Hour: temporal.MaxTimeHours, Minute: 59, Second: 59}
	}
	return render(r, temporal.Time, int(fsp))
}

// maketime is MAKETIME(h, m, s): binlite_maketime(h, m, s, fsp); NULL for
// minutes or seconds outside 0-59.
func (f *temporalFuncs) maketime(h, m, s any, fsp int64) any {
	hh, ok1 := argInt(h)
	mm, ok2 := argInt(m)
	if !ok1 || !ok2 || isNull(s) {
		return nil
	}
	sec, nano, sneg, ok := splitDecimal(argString(s))
	if !ok || sneg || mm < 0 || mm > 59 || sec > 59 {
		return nil
	}
	neg := hh < 0
	if neg {
		hh = -hh
	}
	us := ((hh*60+mm)*60+sec)*1e6 + int64(nano/1000)
	if neg {
		us = -us
	}
	r := temporal.FromTimeMicros(us)
	if hh > temporal.MaxTimeHours || !r.Valid() {
		f.st.warn(codeWrongValue, "Truncated incorrect time value: '%d:%02d:%02d'", hh, mm, sec)
		r = temporal.Value{Kind: temporal.Time, Neg: neg, Hour: temporal.MaxTimeHours, Minute: 59, Second: 59}
	}
	return render(r, temporal.Time, int(fsp))
}

// timeOfKey is the TIME whose key (binlite_tkey) is us, with fsp digits:
// binlite_time_of_key(us, fsp).
func timeOfKey(us any, fsp int64) any {
	n, ok := us.(int64)
	if !ok {
		return nil
	}
	return temporal.FromTimeMicros(n).String(int(fsp))
}

// timeValid is the value check of a TIME column with fsp digits: its own
// spelling of a time within ±838:59:59.
func timeValid(x any, fsp int64) bool {
	s, ok := sqlText(x)
	if !ok {
		return isNull(x)
	}
	p, ok := temporal.ParseTime(s)
	return ok && !p.OutOfRange && !p.Trailing && p.Value.String(int(fsp)) == s
}

func (f *temporalFuncs) dateFormat(x, format any) any {
	v, ok := f.date(x, "", 0)
	if !ok || isNull(format) {
		return nil
	}
	out, ok := temporal.DateFormat(v, argString(format), false)
	if !ok {
		return nil
	}
	return out
}

func (f *temporalFuncs) timeFormat(x, format any) any {
	v, ok := f.time(x, "")
	if !ok || isNull(format) {
		return nil
	}
	out, ok := temporal.DateFormat(v, argString(format), true)
	if !ok {
		return nil
	}
	return out
}

func (f *temporalFuncs) datediff(a, b any) any {
	x, ok1 := f.date(a, "", 0)
	y, ok2 := f.date(b, "", 0)
	if !ok1 || !ok2 {
		return nil
	}
	return x.DayNumber() - y.DayNumber()
}

// onDate applies fn to a date argument, NULL when there is none.
func (f *temporalFuncs) onDate(x any, fn func(temporal.Value) any) any {
	v, ok := f.date(x, "", 0)
	if !ok {
		return nil
	}
	return fn(v)
}

func (f *temporalFuncs) onTime(x any, fn func(temporal.Value) any) any {
	v, ok := f.time(x, "")
	if !ok {
		return nil
	}
	return fn(v)
}

func (f *temporalFuncs) lastDay(x any) any {
	return f.onDate(x, func(v temporal.Value) any {
		v.Day = temporal.DaysInMonth(v.Year, v.Month)
		return v.ToDate().String(0)
	})
}

func (f *temporalFuncs) dayOfWeek(x any) any {
	return f.onDate(x, func(v temporal.Value) any { return int64((v.Weekday()+1)%7 + 1) })
}

func (f *temporalFuncs) weekday(x any) any {
	return f.onDate(x, func(v temporal.Value) any { return int64(v.Weekday()) })
}

func (f *temporalFuncs) dayName(x any) any {
	return f.onDate(x, func(v temporal.Value) any { return temporal.DayNames[v.Weekday()] })
}

func (f *temporalFuncs) monthName(x any) any {
	return f.onDate(x, func(v temporal.Value) any { return temporal.MonthNames[v.Month-1] })
}

func (f *temporalFuncs) dayOfMonth(x any) any {
	return f.onDate(x, func(v temporal.Value) any { return int64(v.Day) })
}

func (f *temporalFuncs) dayOfYear(x any) any {
	return f.onDate(x, func(v temporal.Value) any { return int64(v.DayOfYear()) })
}

func (f *temporalFuncs) month(x any) any {
	return f.onDate(x, func(v temporal.Value) any { return int64(v.Month) })
}

func (f *temporalFuncs) year(x any) any {
	return f.onDate(x, func(v temporal.Value) any { return int64(v.Year) })
}

func (f *temporalFuncs) quarter(x any) any {
	return f.onDate(x, func(v temporal.Value) any { return int64((v.Month + 2) / 3) })
}

// week is WEEK(x[, mode]); the default mode is default_week_format's 0.
func (f *temporalFuncs) week(x any, mode ...any) any {
	m := int64(0)
	if len(mode) > 0 {
		var ok bool
		if m, ok = argInt(mode[0]); !ok {
			return nil
		}
	}
	return f.onDate(x, func(v temporal.Value) any {
		w, _ := v.Week(temporal.WeekMode(int(m)))
		return int64(w)
	})
}

func (f *temporalFuncs) weekOfYear(x any) any {
	return f.onDate(x, func(v temporal.Value) any {
		w, _ := v.Week(temporal.WeekMode(3))
		return int64(w)
	})
}

// yearWeek is YEARWEEK(x[, mode]): the week's year and number, weeks counted
// over the year boundary.
func (f *temporalFuncs) yearWeek(x any, mode ...any) any {
	m := int64(0)
	if len(mode) > 0 {
		var ok bool
		if m, ok = argInt(mode[0]); !ok {
			return nil
		}
	}
	return f.onDate(x, func(v temporal.Value) any {
		w, y := v.Week(temporal.WeekMode(int(m)) | 2)
		return int64(y*100 + w)
	})
}

func (f *temporalFuncs) toDays(x any) any {
	return f.onDate(x, func(v temporal.Value) any { return v.DayNumber() })
}

func (f *temporalFuncs) toSeconds(x any) any {
	return f.onDate(x, func(v temporal.Value) any { return v.Micros() / 1e6 })
}

func (f *temporalFuncs) fromDays(n any) any {
	d, ok := argInt(n)
	if !ok {
		return nil
	}
	y, m, dd, ok := temporal.FromDayNumber(d)
	if !ok {
		// Before year 1 it is the zero date, which NO_ZERO_DATE makes NULL.
		if d >= 366 {
			f.st.warn(codeOverflow, "Datetime function: from_days field overflow")
		}
		return nil
	}
	return temporal.Value{Kind: temporal.Date, Year: y, Month: m, Day: dd}.String(0)
}

// makedate is MAKEDATE(year, dayofyear); years below 100 are two-digit years.
func (f *temporalFuncs) makedate(year, day any) any {
	y, ok1 := argInt(year)
	d, ok2 := argInt(day)
	if !ok1 || !ok2 || y < 0 || y > 9999 || d <= 0 {
		return nil
	}
	if y < 100 {
		if y < 70 {
			y += 2000
		} else {
			y += 1900
		}
	}
	yy, m, dd, ok := temporal.FromDayNumber(temporal.DayNumber(int(y), 1, 1) + d - 1)
	if !ok {
		return nil
	}
	return temporal.Value{Kind: temporal.Date, Year: yy, Month: m, Day: dd}.String(0)
}

func (f *temporalFuncs) timeToSec(x any) any {
	return f.onTime(x, func(v temporal.Value) any { return v.TimeMicros() / 1e6 })
}

func (f *temporalFuncs) hour(x any) any {
	return f.onTime(x, func(v temporal.Value) any { return int64(v.Hour) })
}

func (f *temporalFuncs) minute(x any) any {
	return f.onTime(x, func(v temporal.Value) any { return int64(v.Minute) })
}

func (f *temporalFuncs) second(x any) any {
	return f.onTime(x, func(v temporal.Value) any { return int64(v.Second) })
}

func (f *temporalFuncs) microsecond(x any) any {
	return f.onTime(x, func(v temporal.Value) any { return int64(v.Nano / 1000) })
}

// periodAdd is PERIOD_ADD(P, N): P (YYMM or YYYYMM) plus N months, as YYYYMM.
func periodAdd(p, n any) any {
	pp, ok1 := argInt(p)
	nn, ok2 := argInt(n)
	if !ok1 || !ok2 {
		return nil
	}
	if pp == 0 {
		return int64(0)
	}
	m := periodMonths(pp) + nn
	return m/12*100 + m%12 + 1
}

// periodDiff is PERIOD_DIFF(P1, P2) in months.
func periodDiff(a, b any) any {
	x, ok1 := argInt(a)
	y, ok2 := argInt(b)
	if !ok1 || !ok2 {
		return nil
	}
	return periodMonths(x) - periodMonths(y)
}

func periodMonths(p int64) int64 {
	if p == 0 {
		return 0
	}
	y := p / 100
	if y < 70 {
		y += 2000
	} else if y < 100 {
		y += 1900
	}
	return y*12 + p%100 - 1
}
