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
type temporalFuncs struct {
	st *stmtState
	// zones are the named time zones CONVERT_TZ loaded, by name (nil: none).
	zones map[string]*time.Location
}

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
		// CONVERT_TZ in statements the compiler leaves to sqlcompat's translation.
		{"convert_tz", f.convertTZText, false},
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
	return f.readDate(x, hint, tz, false)
}

// fuzzyDate is date for the functions MySQL lets read a date with zero parts
// (YEAR, MONTH, DAY, DATE_FORMAT ...): the zero date's parts are zeros.
func (f *temporalFuncs) fuzzyDate(x any, hint string, tz int) (temporal.Value, bool) {
	return f.readDate(x, hint, tz, true)
}

func (f *temporalFuncs) readDate(x any, hint string, tz int, zero bool) (temporal.Value, bool) {
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
		if !ok && zero {
			p, ok = temporal.ParseDatetimeZero(s)
		}
	} else if n, isNum := numberText(x); isNum {
		p, ok = temporal.FromNumber(n)
		if !ok && zero {
			p, ok = temporal.FromNumberZero(n)
		}
	}
	if !ok {
		f.st.warnf(codeWrongValue, "Incorrect datetime value: '%s'", display(x))
		return temporal.Value{}, false
	}
	if p.Trailing {
		f.st.warnf(codeWrongValue, "Truncated incorrect datetime value: '%s'", display(x))
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
		f.st.warnf(codeWrongValue, "Truncated incorrect time value: '%s'", display(x))
		return temporal.Value{}, false
	}
	if p.OutOfRange || p.Trailing {
		f.st.warnf(codeWrongValue, "Truncated incorrect time value: '%s'", display(x))
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
			f.st.warnf(codeWrongValue, "Truncated incorrect time value: '%s'", display(x))
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
		f.st.notef(mysqlerr.ErWarnDataTruncated, "Data truncated for column '%s' at row 1", column)
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
	v, ok := f.fuzzyDate(x, src, 0)
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
