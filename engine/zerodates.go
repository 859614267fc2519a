package engine

import (
	"database/sql/driver"
	"fmt"
	"strconv"
	"strings"

	"github.com/binlite/binlite/temporal"
)

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

// upgradeZeroDateChecks rewrites the value checks of DATE, DATETIME and
// TIMESTAMP columns that a binlite from before zero dates wrote (they refuse
// every zero date) to today's (catalog.Table.ZeroDateUpgrades), so that an
// existing table keeps what sql_mode allows. Only CHECK constraints change,
// nothing stored: SQLite's documented writable_schema procedure for such a
// change (https://sqlite.org/lang_altertable.html, section 7), in one
// transaction with the schema version bumped.
func upgradeZeroDateChecks(c *sqliteConn, cat catalog) error {
	type change struct{ name, sql string }
	var changes []change
	for name, t := range cat {
		if t.Def == nil {
			continue
		}
		from, to := t.Def.ZeroDateUpgrades()
		if len(from) == 0 {
			continue
		}
		rows, err := c.query(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`, name)
		if err != nil {
			return fmt.Errorf("engine: zero date checks of %s: %w", name, err)
		}
		dest := make([]driver.Value, 1)
		err = rows.Next(dest)
		rows.Close()
		if err != nil {
			continue
		}
		sql := asString(dest[0])
		changed := sql
		for i := range from {
			changed = strings.Replace(changed, from[i], to[i], 1)
		}
		if changed != sql {
			changes = append(changes, change{name, changed})
		}
	}
	if len(changes) == 0 {
		return nil
	}
	steps := []string{`BEGIN IMMEDIATE`, `PRAGMA writable_schema = ON`}
	for _, ch := range changes {
		steps = append(steps, `UPDATE sqlite_master SET sql = `+sqlQuote(ch.sql)+` WHERE type = 'table' AND name = `+sqlQuote(ch.name))
	}
	var version int64
	rows, err := c.query(`PRAGMA schema_version`)
	if err != nil {
		return fmt.Errorf("engine: zero date checks: %w", err)
	}
	dest := make([]driver.Value, 1)
	if err := rows.Next(dest); err == nil {
		version, _ = dest[0].(int64)
	}
	rows.Close()
	steps = append(steps, `PRAGMA schema_version = `+strconv.FormatInt(version+1, 10), `PRAGMA writable_schema = OFF`, `COMMIT`)
	for _, q := range steps {
		if _, err := c.exec(q); err != nil {
			c.exec(`PRAGMA writable_schema = OFF`)
			c.exec(`ROLLBACK`)
			return fmt.Errorf("engine: zero date checks: %w", err)
		}
	}
	return nil
}
