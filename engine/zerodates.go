package engine

import "github.com/binlite/binlite/temporal"

// Zero dates: MySQL keeps '0000-00-00' and dates with a zero month or day
// where the session's sql_mode lets it (no NO_ZERO_DATE, no NO_ZERO_IN_DATE,
// or a write that adjusts values). Whether it does is the compiler's to decide
// per statement; a DATE, DATETIME or TIMESTAMP column's value check accepts
// such a date only in a statement that said so (binlite_zero_ok) or that
// stores what is already stored (a replayed row change, a copying ALTER).

// zeroDateOK is binlite_zero_ok(v): v, a date with zero parts the compiler let
// the running statement store.
func (st *stmtState) zeroDateOK(v any) any {
	st.zeroOK = true
	return v
}

// zeroDate is binlite_zero_date(v, kind): whether a value check of a column of
// kind ("date", "datetime", "timestamp") accepts v as a date with zero parts:
// one spelled as the column spells it, in a statement that may store it. A
// TIMESTAMP keeps the zero date alone.
func (st *stmtState) zeroDate(v any, kind string) bool {
	if !st.zeroOK && !st.lenient() {
		return false
	}
	return zeroDateText(v, kind)
}

// zeroDateText reports whether v is a date with zero parts in a column of
// kind's spelling.
func zeroDateText(v any, kind string) bool {
	s, ok := sqlText(v)
	if !ok {
		return false
	}
	p, ok := temporal.ParseDatetimeZero(s)
	if !ok || p.Trailing || p.HasOffset {
		return false
	}
	z := p.Value.Zero()
	switch {
	case z == temporal.NotZero:
		return false
	case kind == "date":
		return p.Kind == temporal.Date && p.Value.String(0) == s
	case kind == "timestamp" && (z != temporal.ZeroDate || p.Value.ClockMicros() != 0):
		return false
	}
	return p.Kind == temporal.Datetime && p.Value.String(p.Frac) == s
}
