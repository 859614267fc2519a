package engine

import (
	"fmt"
	"strings"

	"github.com/binlite/binlite/mysqlerr"
)

// ALTER TABLE's copy (sqlcompat's rebuild) converts each value with the value
// adjustments (adjust.go), which keep what the new column can hold and warn as
// MySQL does without strict mode. Under strict sql_mode MySQL fails the ALTER
// instead, with the first such warning as its error; runDDL does that after the
// copy (strictFailure). A replica or recovery replays the ALTER without strict
// mode: its source accepted it, so nothing it copies needs adjusting, and if
// its source ran without strict mode it adjusts the same values the same way.

// alterNull is binlite_alter_null(v, zero, col, copying): v, or for NULL the
// implicit default zero of the NOT NULL column col, with warning 1265. Under
// strict mode it fails: 1265 when MySQL copies the table (copying=1), else
// 1138, InnoDB's answer when it rebuilds the table in place.
func (st *stmtState) alterNull(v, zero any, col string, copying int64) (any, error) {
	n := st.rowNumber(col+"\x00null", 0)
	if !isNull(v) {
		return v, nil
	}
	if st.strict {
		if copying == 0 {
			return nil, fnError(mysqlerr.ErInvalidUseOfNull, "Invalid use of NULL value")
		}
		return nil, fnError(mysqlerr.ErWarnDataTruncated, "Data truncated for column '%s' at row %d", col, n)
	}
	st.adjusted(codeTruncated, "Data truncated for column '%s' at row %d", col, n)
	return zero, nil
}

// alterText is binlite_alter_text(v, limit, bytes, col): binlite_adjust_text
// for an ALTER TABLE that changes a column of another type into a string
// column. MySQL stores such a value through the new column, which under strict
// mode refuses text it would cut with 1406, where copying a string column into a
// shorter one of its own type cuts it with 1265.
func (st *stmtState) alterText(v any, limit, bytes int64, col string) (any, error) {
	mark := len(st.warnings)
	out := st.adjustText(v, limit, bytes, nil, col, 0)
	if st.strict && len(st.warnings) > mark {
		if w := st.warnings[mark]; w.Level == "Warning" && w.Code == codeTruncated {
			st.warnings = st.warnings[:mark]
			return nil, fnError(mysqlerr.ErDataTooLong, "Data too long%s", strings.TrimPrefix(w.Message, "Data truncated"))
		}
	}
	return out, nil
}

// strictFailure is the error a strict DDL's warnings make: the first warning
// (not a note) as an error, or nil.
func (st *stmtState) strictFailure() error {
	if !st.strict {
		return nil
	}
	for _, w := range st.warnings {
		if w.Level == "Warning" {
			return mysqlerr.New(w.Code, "%s", w.Message)
		}
	}
	return nil
}

// resetAlterTable turns SQLite's legacy_alter_table off again after DDL that
// may have failed between the rebuild's ON and OFF.
func resetAlterTable(c *sqliteConn) error {
	if _, err := c.exec(`PRAGMA legacy_alter_table = OFF`); err != nil {
		return fmt.Errorf("engine: reset legacy_alter_table: %w", err)
	}
	return nil
}
