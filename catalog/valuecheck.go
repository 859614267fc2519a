package catalog

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/binlite/binlite/u64"
)

// Value checks: MySQL refuses, under STRICT_TRANS_TABLES (MySQL 8.4's default
// sql_mode), a value its column cannot hold. SQLite would store it as given, so
// every column gets a CHECK constraint that SQLite evaluates on every write path
// (INSERT, INSERT ... SELECT, UPDATE with any expression, REPLACE, upserts). A
// failing constraint's name says which MySQL error to return; see CheckError.
//
// Where MySQL adjusts a value with a warning instead (a session without strict
// mode, a write with IGNORE), the compiler wraps the value in the engine's
// adjustment; a value nothing adjusted still meets these checks, so that an
// error instead of an adjusted value is a different answer a client sees, never
// a silently different row.

// checkPrefix starts the names of binlite's value-check constraints.
const checkPrefix = "binlite:"

// Kinds of value a check refuses, for the error message.
const (
	badRange     = "range"    // 1264
	badInteger   = "integer"  // 1366
	badDecimal   = "decimal"  // 1366
	badDouble    = "double"   // 1366
	badLength    = "length"   // 1406
	badEnum      = "enum"     // 1265
	badDate      = "date"     // 1292
	badDatetime  = "datetime" // 1292
	badTime      = "time"     // 1292
	badJSON      = "json"     // 3140
	badBitLength = "bit"      // 1406
	// badPrecision: a DECIMAL value SQLite's REAL cannot hold exactly (more than
	// 15 significant digits at the column's scale). 1235 until decimals are stored
	// exactly.
	badPrecision = "precision"
	// badScale: an exact DECIMAL value written by a statement that did not round
	// it to the column's scale (one the compiler does not compile yet). 1235.
	badScale = "scale"
	// badWide: a value of 2^63 or more (kept as a BLOB, package u64) in a BIGINT
	// UNSIGNED or BIT(64) column an expression SQLite evaluates itself reads (a
	// generated column, a CHECK constraint, a default, an index): it would compute
	// with the BLOB. 1235.
	badWide = "wide"
)

// exactDigits is how many significant decimal digits a float64 keeps exactly.
const exactDigits = 15

// ValueChecks returns the SQLite table constraints that refuse values t's columns
// cannot hold, in the order they must be evaluated (type before range).
func (t *Table) ValueChecks() []string {
	var out []string
	for i := range t.Columns {
		// A generated column's value is checked too: MySQL refuses an expression
		// value its column cannot hold (1264 ...) as it refuses a written one.
		out = append(out, t.constraintsOf(&t.Columns[i])...)
	}
	return out
}

// ColumnValueChecks are ValueChecks' constraints of column name alone, for a
// column ALTER TABLE ... ADD COLUMN adds in place (SQLite takes them as column
// constraints).
func (t *Table) ColumnValueChecks(name string) []string {
	if c, ok := t.Column(name); ok {
		return t.constraintsOf(c)
	}
	return nil
}

// constraintsOf are column c's value checks as SQLite constraints. A wide
// value (BIGINT UNSIGNED from 2^63, package u64) is refused where an expression
// SQLite evaluates reads the column (generated columns, CHECKs, defaults).
func (t *Table) constraintsOf(c *Column) []string {
	var out []string
	checks := columnChecks(c)
	if c.Type.Wide() && t.readsInSQLite(c.Name) {
		checks = append(checks, valueCheck{badWide, `"` + strings.ReplaceAll(c.Name, `"`, `""`) + `" IS NULL OR typeof("` + strings.ReplaceAll(c.Name, `"`, `""`) + `") <> 'blob'`})
	}
	for _, ck := range checks {
		out = append(out, fmt.Sprintf(`CONSTRAINT "%s%s:%s" CHECK (%s)`, checkPrefix, ck.kind, strings.ReplaceAll(c.Name, `"`, `""`), ck.expr))
	}
	return out
}

type valueCheck struct{ kind, expr string }

func columnChecks(c *Column) []valueCheck {
	q := `"` + strings.ReplaceAll(c.Name, `"`, `""`) + `"`
	or := func(cond string) string { return q + " IS NULL OR " + cond }
	ty := c.Type
	switch ty.Base {
	case "tinyint", "smallint", "mediumint", "int", "bigint":
		integer := "typeof(" + q + ") = 'integer'"
		if ty.Wide() {
			// 2^63 and more are kept as 8-byte BLOBs (package u64)
			integer += " OR typeof(" + q + ") = 'blob' AND length(" + q + ") = " + strconv.Itoa(u64.Size) + " AND " + q + " >= " + u64.MinWide
		}
		checks := []valueCheck{{badInteger, or(integer)}}
		lo, hi := intRange(ty.Base, ty.Unsigned)
		switch {
		case ty.Base == "bigint" && !ty.Unsigned:
		case ty.Base == "bigint":
			checks = append(checks, valueCheck{badRange, or(q + " >= 0")})
		default:
			checks = append(checks, valueCheck{badRange, or(q + " BETWEEN " + strconv.FormatInt(lo, 10) + " AND " + strconv.FormatUint(hi, 10))})
		}
		return checks
	case "decimal":
		if c.ExactDecimal() {
			// Exact text (package decimal): a number, in range, at the column's scale.
			p, sc := strconv.Itoa(ty.Length), strconv.Itoa(ty.Scale)
			u := "0"
			if ty.Unsigned {
				u = "1"
			}
			return []valueCheck{
				{badDecimal, "binlite_dec_is_number(" + q + ")"},
				{badRange, "binlite_dec_in_range(" + q + ", " + p + ", " + sc + ", " + u + ")"},
				{badScale, "binlite_dec_is_canonical(" + q + ", " + sc + ")"},
			}
		}
		checks := []valueCheck{{badDecimal, or("typeof(" + q + ") IN ('integer', 'real')")}}
		limit := "1e" + strconv.Itoa(ty.Length-ty.Scale)
		cond := "round(abs(" + q + "), " + strconv.Itoa(ty.Scale) + ") < " + limit
		if ty.Unsigned {
			cond = "(" + cond + " AND " + q + " >= 0)"
		}
		checks = append(checks, valueCheck{badRange, or(cond)})
		if ty.Length > exactDigits {
			checks = append(checks, valueCheck{badPrecision, or("abs(" + q + ") < 1e" + strconv.Itoa(exactDigits-ty.Scale))})
		}
		return checks
	case "float", "double":
		checks := []valueCheck{{badDouble, or("typeof(" + q + ") IN ('integer', 'real')")}}
		var r []string
		if ty.Unsigned {
			r = append(r, q+" >= 0")
		}
		if ty.HasScale {
			r = append(r, "round(abs("+q+"), "+strconv.Itoa(ty.Scale)+") < 1e"+strconv.Itoa(ty.Length-ty.Scale))
		} else if ty.Base == "float" {
			r = append(r, "abs("+q+") <= 3.402823466e38")
		}
		if len(r) > 0 {
			checks = append(checks, valueCheck{badRange, or(strings.Join(r, " AND "))})
		}
		return checks
	case "char", "varchar":
		return []valueCheck{{badLength, or("length(" + q + ") <= " + strconv.Itoa(ty.Length))}}
	case "binary", "varbinary":
		return []valueCheck{{badLength, or("length(CAST(" + q + " AS BLOB)) <= " + strconv.Itoa(ty.Length))}}
	case "tinytext", "tinyblob", "text", "blob", "mediumtext", "mediumblob":
		return []valueCheck{{badLength, or("length(CAST(" + q + " AS BLOB)) <= " + strconv.FormatUint(uint64(ty.MaxBytes()), 10))}}
	case "enum":
		vals := make([]string, len(ty.Elems))
		for i, e := range ty.Elems {
			vals[i] = "'" + strings.ReplaceAll(e, "'", "''") + "'"
		}
		// Byte for byte: a value equal to a member only under the column's collation
		// ('A' for 'a') must have been stored as the member (Type.StoreText). The
		// empty error value is stored only by an IGNORE statement (or replayed from
		// the binary log): binlite_lenient().
		cond := q + " COLLATE BINARY IN (" + strings.Join(vals, ", ") + ")"
		if EnumIndex(ty.Elems, "") == 0 {
			cond += " OR " + q + " = '' AND binlite_lenient()"
		}
		return []valueCheck{{badEnum, or(cond)}}
	case "set":
		// Members may not repeat the comma that separates them, so a plain list works.
		return []valueCheck{{badEnum, or("binlite_set_ok(" + q + ", '" + strings.ReplaceAll(strings.Join(ty.Elems, ","), "'", "''") + "')")}}
	case "date", "datetime", "timestamp":
		// A date with zero parts only where the statement's sql_mode let it be
		// written (the engine's binlite_zero_date).
		ck := legacyTemporalCheck(c)
		ck.expr += " OR binlite_zero_date(" + q + ", '" + ty.Base + "')"
		return []valueCheck{ck}
	case "time":
		// The engine's binlite_time_valid: a TIME's own spelling within ±838:59:59.
		return []valueCheck{{badTime, "binlite_time_valid(" + q + ", " + strconv.Itoa(ty.Scale) + ")"}}
	case "json":
		return []valueCheck{{badJSON, or("json_valid(" + q + ")")}}
	case "year":
		return []valueCheck{{badInteger, or("typeof(" + q + ") = 'integer'")}, {badRange, or(q + " = 0 OR " + q + " BETWEEN 1901 AND 2155")}}
	case "bit":
		if ty.Length < 64 {
			return []valueCheck{{badBitLength, or("typeof(" + q + ") <> 'integer' OR " + q + " BETWEEN 0 AND " + strconv.FormatUint(1<<ty.Length-1, 10))}}
		}
	}
	return nil
}

// legacyTemporalCheck is a DATE, DATETIME or TIMESTAMP column's value check
// as binlite wrote it before it kept zero dates: the date must exist (no
// 2024-02-30, no zero part); a time after a DATE's date is what drivers send
// for a DATE parameter.
func legacyTemporalCheck(c *Column) valueCheck {
	q := `"` + strings.ReplaceAll(c.Name, `"`, `""`) + `"`
	if c.Type.Base == "date" {
		return valueCheck{badDate, q + " IS NULL OR typeof(" + q + ") = 'text' AND date(" + q + ") IS NOT NULL AND substr(" + q + ", 1, 10) = date(" + q + ")"}
	}
	cond := "typeof(" + q + ") = 'text' AND datetime(" + q + ") IS NOT NULL AND substr(" + q + ", 1, 10) = date(" + q + ")"
	if c.Type.Base == "timestamp" {
		cond += " AND " + q + " >= '1970-01-01 00:00:01' AND " + q + " < '2038-01-19 03:14:08'"
	}
	return valueCheck{badDatetime, q + " IS NULL OR " + cond}
}

// ZeroDateUpgrades are the value checks of t's DATE, DATETIME and TIMESTAMP
// columns as binlite wrote them before it kept zero dates (from) and as it
// writes them now (to), so that a table created then accepts what sql_mode
// now allows (the engine rewrites its SQLite definition on open).
func (t *Table) ZeroDateUpgrades() (from, to []string) {
	for i := range t.Columns {
		c := &t.Columns[i]
		switch c.Type.Base {
		case "date", "datetime", "timestamp":
		default:
			continue
		}
		name := checkPrefix + legacyTemporalCheck(c).kind + ":" + strings.ReplaceAll(c.Name, `"`, `""`)
		for _, ck := range columnChecks(c) {
			from = append(from, fmt.Sprintf(`CONSTRAINT "%s" CHECK (%s)`, name, legacyTemporalCheck(c).expr))
			to = append(to, fmt.Sprintf(`CONSTRAINT "%s" CHECK (%s)`, name, ck.expr))
		}
	}
	return from, to
}

// CheckError returns the MySQL error code, SQLSTATE and message for a failed
// value check named name (as SQLite reports it), or ok=false for any other
// constraint.
func CheckError(name string) (code uint16, state, msg string, ok bool) {
	rest, found := strings.CutPrefix(name, checkPrefix)
	if !found {
		return 0, "", "", false
	}
	kind, col, found := strings.Cut(rest, ":")
	if !found {
		return 0, "", "", false
	}
	switch kind {
	case badRange:
		return 1264, "22003", fmt.Sprintf("Out of range value for column '%s' at row 1", col), true
	case badInteger, badDecimal, badDouble:
		return 1366, "HY000", fmt.Sprintf("Incorrect %s value for column '%s' at row 1", kind, col), true
	case badLength, badBitLength:
		return 1406, "22001", fmt.Sprintf("Data too long for column '%s' at row 1", col), true
	case badEnum:
		return 1265, "01000", fmt.Sprintf("Data truncated for column '%s' at row 1", col), true
	case badDate, badDatetime, badTime:
		return 1292, "22007", fmt.Sprintf("Incorrect %s value for column '%s' at row 1", kind, col), true
	case badScale:
		return 1235, "42000", fmt.Sprintf("This version of binlite doesn't yet support 'a DECIMAL value this statement computes for column '%s''", col), true
	case badWide:
		return 1235, "42000", fmt.Sprintf("This version of binlite doesn't yet support 'BIGINT UNSIGNED values above 9223372036854775807 in column '%s', which a generated column, CHECK constraint, default or index expression reads'", col), true
	case badPrecision:
		return 1235, "42000", fmt.Sprintf("This version of binlite doesn't yet support 'DECIMAL values of more than %d significant digits' (column '%s')", exactDigits, col), true
	case badJSON:
		return 3140, "22032", fmt.Sprintf("Invalid JSON text: \"Invalid value.\" at position 0 in value for column '%s'.", col), true
	}
	return 0, "", "", false
}

// OnUpdateTriggers returns the SQLite trigger that gives t's ON UPDATE
// CURRENT_TIMESTAMP columns the time of an UPDATE that changes the row without
// setting them, as MySQL does. One trigger sets them all, so that its own UPDATE
// (which does not fire it again) fires no other. It names every column (SQLite has
// no whole-row comparison), so SQLite refuses to drop a column of such a table.
// It does not fire while a connection replays logged row changes (the engine's
// binlite_replaying()): those carry the source's values.
func (t *Table) OnUpdateTriggers() []string {
	q := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	var same, changed, sets []string
	for i := range t.Columns {
		c := &t.Columns[i]
		if c.OnUpdate == "" {
			if c.Generated == nil {
				changed = append(changed, "NEW."+q(c.Name)+" IS NOT OLD."+q(c.Name))
			}
			continue
		}
		now := "CURRENT_TIMESTAMP"
		if c.Type.Scale > 0 {
			// strftime's %f has milliseconds; MySQL's fsp is up to microseconds.
			now = "substr(strftime('%Y-%m-%d %H:%M:%f', 'now') || '000', 1, " + strconv.Itoa(20+c.Type.Scale) + ")"
		}
		cond := "NEW." + q(c.Name) + " IS OLD." + q(c.Name)
		same = append(same, cond)
		sets = append(sets, q(c.Name)+" = CASE WHEN "+cond+" THEN "+now+" ELSE "+q(c.Name)+" END")
	}
	if len(sets) == 0 || len(changed) == 0 {
		return nil
	}
	return []string{"CREATE TRIGGER " + q(OnUpdateTrigger(t.Name)) + " AFTER UPDATE ON " + q(t.Name) +
		" FOR EACH ROW WHEN (" + strings.Join(same, " OR ") + ") AND (" + strings.Join(changed, " OR ") + ") AND NOT binlite_replaying()" +
		" BEGIN UPDATE " + q(t.Name) + " SET " + strings.Join(sets, ", ") + " WHERE rowid = NEW.rowid; END"}
}

// OnUpdateTrigger names the trigger of a table's ON UPDATE columns.
func OnUpdateTrigger(table string) string { return "binlite_onupdate:" + table }

// readsInSQLite reports whether an expression SQLite evaluates over the stored
// values (a generated column, a CHECK constraint, a default that reads columns,
// an index on an expression) computes with column col.
func (t *Table) readsInSQLite(col string) bool {
	quoted := strings.ToLower(quoteIdent(col))
	names := func(expr string) bool { return strings.Contains(strings.ToLower(expr), quoted) }
	for i := range t.Columns {
		c := &t.Columns[i]
		if c.Generated != nil && names(c.Generated.Expr) {
			return true
		}
		if c.Default != nil {
			for _, r := range c.Default.Refs {
				if strings.EqualFold(r, col) {
					return true
				}
			}
		}
	}
	for _, ck := range t.Checks {
		// a CHECK that only compares the column with integers answers the same on
		// the stored form (SQLite orders it after every integer)
		if reads, _, ok := u64.ComputedReads("SELECT " + ck.Expr); names(ck.Expr) && (!ok || reads[strings.ToLower(col)]) {
			return true
		}
	}
	for _, ix := range t.Indexes {
		for _, p := range ix.Parts {
			if p.Expr != "" && names(p.Expr) {
				return true
			}
		}
	}
	return false
}
