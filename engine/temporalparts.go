package engine

import (
	"math"

	"github.com/binlite/binlite/temporal"
)

// Date and time parts, formats and makers: STR_TO_DATE, DATE_FORMAT, YEAR()
// to MICROSECOND(), WEEK(), MAKEDATE, MAKETIME, SEC_TO_TIME, PERIOD_ADD.

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
		f.st.warnf(codeWrongForFunc, "Incorrect datetime value: '%s' for function str_to_date", str)
		return nil
	}
	if trailing {
		f.st.warnf(codeWrongValue, "Truncated incorrect %s value: '%s'", k, str)
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
		f.st.warnf(codeWrongValue, "Truncated incorrect time value: '%s'", display(n))
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
		f.st.warnf(codeWrongValue, "Truncated incorrect time value: '%d:%02d:%02d'", hh, mm, sec)
		r = temporal.Value{Kind: temporal.Time, Neg: neg, Hour: temporal.MaxTimeHours, Minute: 59, Second: 59}
	}
	return render(r, temporal.Time, int(fsp))
}

func (f *temporalFuncs) dateFormat(x, format any) any {
	v, ok := f.fuzzyDate(x, "", 0)
	if !ok || isNull(format) {
		return nil
	}
	if v.Zero() != temporal.NotZero && namesDay(argString(format)) {
		return nil // a day of the week, of the year, a week, a month's name: none for a zero part
	}
	out, ok := temporal.DateFormat(v, argString(format), false)
	if !ok {
		return nil
	}
	return out
}

// namesDay reports whether a DATE_FORMAT format asks for what a date with a
// zero part has not: a weekday, a day of the year, a week, a month's name.
func namesDay(format string) bool {
	for i := 0; i+1 < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		switch format[i] {
		case 'a', 'W', 'w', 'j', 'U', 'u', 'V', 'v', 'X', 'x', 'b', 'M', 'D':
			return true
		}
	}
	return false
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

// onFuzzyDate is onDate for a date that may have zero parts.
func (f *temporalFuncs) onFuzzyDate(x any, fn func(temporal.Value) any) any {
	v, ok := f.fuzzyDate(x, "", 0)
	if !ok {
		return nil
	}
	return fn(v)
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
	return f.onFuzzyDate(x, func(v temporal.Value) any { return int64(v.Day) })
}

func (f *temporalFuncs) dayOfYear(x any) any {
	return f.onDate(x, func(v temporal.Value) any { return int64(v.DayOfYear()) })
}

func (f *temporalFuncs) month(x any) any {
	return f.onFuzzyDate(x, func(v temporal.Value) any { return int64(v.Month) })
}

func (f *temporalFuncs) year(x any) any {
	return f.onFuzzyDate(x, func(v temporal.Value) any { return int64(v.Year) })
}

func (f *temporalFuncs) quarter(x any) any {
	return f.onFuzzyDate(x, func(v temporal.Value) any { return int64((v.Month + 2) / 3) })
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
			f.st.warnf(codeOverflow, "Datetime function: from_days field overflow")
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
