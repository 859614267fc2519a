package engine

import (
	"fmt"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/mattn/go-sqlite3"

	"github.com/binlite/binlite/decimal"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlitec"
)

// Warnings raised while a statement runs. SQL functions binlite registers on a
// connection (Go functions, and the C checks of package sqlitec) add MySQL
// warnings to the connection's stmtState; whoever runs the statement takes them
// with its result (Result.Warnings, Rows.Warnings). A connection runs one
// statement at a time, and a schema's writer takes them after each statement of
// its group, so they belong to the statement that raised them.

// maxWarnings is how many conditions a statement keeps, as MySQL's
// max_error_count (its default) bounds the diagnostics area; the rest are counted.
const maxWarnings = 1024

// warn adds a warning to the running statement.
func (st *stmtState) warn(w mysqlerr.Warning) {
	if len(st.warnings) >= maxWarnings {
		st.lostWarnings++
		return
	}
	st.warnings = append(st.warnings, w)
}

// takeWarnings returns and clears the statement's warnings (and how many more
// there were), and forgets its row numbers.
func (st *stmtState) takeWarnings() ([]mysqlerr.Warning, int) {
	w, lost := st.warnings, st.lostWarnings
	st.warnings, st.lostWarnings = nil, 0
	if st.rows != nil {
		clear(st.rows)
	}
	return w, lost
}

// rowNumber is the row a value adjustment of column col reports: row itself when
// the compiler knows it (the VALUES list), else the count of rows that column's
// adjustment has seen in the statement.
func (st *stmtState) rowNumber(col string, row int64) int64 {
	if row > 0 {
		return row
	}
	if st.rows == nil {
		st.rows = map[string]int64{}
	}
	st.rows[col]++
	return st.rows[col]
}

// registerWarningFunctions adds the functions that warn through st.
func registerWarningFunctions(c *sqlite3.SQLiteConn, st *stmtState) error {
	if err := sqlitec.RegisterChecks(c, func(code uint16, msg string) {
		st.warn(mysqlerr.Warning{Level: "Warning", Code: code, Message: msg})
	}); err != nil {
		return err
	}
	for name, fn := range map[string]any{
		"binlite_adjust_int":  st.adjustInt,
		"binlite_adjust_u64":  st.adjustUint64,
		"binlite_adjust_text": st.adjustText,
		"binlite_adjust_dec":  st.adjustDecimal,
		"binlite_adjust_null": st.adjustNull,
		"binlite_alter_null":  st.alterNull,
		"binlite_alter_text":  st.alterText,
		"binlite_div_dec":     st.divDecimal,
		"binlite_dec_keep":    st.keepDecimal,
		"binlite_cast_dec":    st.castDecimal,
	} {
		if err := c.RegisterFunc(name, fn, false); err != nil {
			return fmt.Errorf("register %s: %w", name, err)
		}
	}
	return nil
}

// keepDecimal is binlite_dec_keep(v, precision, scale, col, row): what a
// DECIMAL(precision, scale) column stores of a computed exact value under strict
// mode (binlite_dec_store), with MySQL's Note 1265 when rounding to the scale
// lost digits. A value out of range is left as it is for the column's check.
func (st *stmtState) keepDecimal(v any, precision, scale int64, col string, row int64) any {
	out := decimal.Store(v, precision, scale)
	if isNull(v) {
		return out
	}
	if d, ok := decimal.Parse(v); ok {
		if r, ok := decimal.Parse(out); ok && r.Cmp(d) != 0 {
			st.warn(mysqlerr.Note(codeTruncated, "Data truncated for column '%s' at row %d", col, st.rowNumber(col, row)))
		}
	}
	return out
}

// castDecimal is binlite_cast_dec(v, precision, scale, expr): CAST(v AS
// DECIMAL(precision, scale)) as MySQL answers it. Text is read as the number it
// starts with (none: 0), with warning 1292; a value beyond the type is the
// largest of its sign, with warning 1264 naming expr.
func (st *stmtState) castDecimal(v any, precision, scale int64, expr string) any {
	if isNull(v) {
		return nil
	}
	d, ok := decimal.Parse(v)
	if !ok {
		s := toText(v)
		num := decimal.NumberPrefix(strings.TrimLeft(s, " \t\n\r"))
		if d, ok = decimal.Parse(num); !ok {
			d = new(apd.Decimal)
		}
		if strings.TrimRight(strings.TrimLeft(s, " \t\n\r")[len(num):], " ") != "" || num == "" {
			st.warnf(mysqlerr.ErTruncatedWrongValue, "Truncated incorrect DECIMAL value: '%s'", s)
		}
	}
	out := decimal.Cast(decimal.Text(d), precision, scale)
	if r, ok := decimal.Round(d, int(scale)); ok {
		if c, ok := decimal.Parse(out); ok && c.Cmp(r) != 0 {
			st.warnf(codeOutOfRange, "Out of range value for column '%s' at row 1", expr)
		}
	}
	return out
}

// divDecimal is binlite_div_dec(a, b, scale, mode): exact decimal division
// (binlite_dec_div) where the divisor may be zero, which MySQL answers with NULL
// and a warning or, in mode 2, error 1365 (see sqlitec.DivisionWarn). A NULL
// operand is NULL without a word; text is the number it starts with.
func (st *stmtState) divDecimal(a, b any, scale, mode int64) (any, error) {
	if isNull(a) || isNull(b) {
		return nil, nil
	}
	d, ok := decimal.Parse(b)
	if !ok {
		d, ok = decimal.Parse(decimal.NumberPrefix(strings.TrimLeft(toText(b), " \t\n\r")))
	}
	if !ok || d.IsZero() {
		if mode == sqlitec.DivisionError {
			return nil, fnError(mysqlerr.ErDivisionByZero, "Division by 0")
		}
		st.warn(mysqlerr.Warn(mysqlerr.ErDivisionByZero, "Division by 0"))
		return nil, nil
	}
	return decimal.Div(a, decimal.Text(d), scale), nil
}
