package compiler

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
)

// CellParam is a ? that is a whole value of an INSERT's or REPLACE's VALUES
// list: the compiler renders it as the bare parameter, and the value bound to
// it is converted into its column before the statement runs (StoreParams) by
// the conversion the compiler applies to a literal of that value's type.
type CellParam struct {
	Index int             // the ? (0-based)
	Col   *catalog.Column // the column it is written into
	Row   int             // its row of the VALUES list (from 1), for messages
	// Wrapped: the parameter is rendered in the conversion of a computed value
	// into its column (storedExpr), which gives a value StoreParams converted
	// back unchanged (wrappedCell). Where the statement adjusts values, a value
	// whose conversion warns is left to it, so that the warnings come row by
	// row in MySQL's order, as a literal's do among computed values
	// (literalCell).
	Wrapped bool
}

// wrappedCell: a ? written into col is rendered in storedExpr's conversion,
// which keeps a value already converted as it is: integers, exact decimals,
// text and floating point. Temporal, ENUM, SET and YEAR columns take the
// converted value bare (a TIMESTAMP's would move to UTC twice).
func wrappedCell(col *catalog.Column) bool {
	if _, _, isInt := intRange(col.Type); isInt {
		return true
	}
	switch col.Type.Base {
	case "decimal", "float", "double", "char", "varchar", "tinytext", "text", "mediumtext", "longtext":
		return true
	}
	return false
}

// CellConverted: a ? written into col is converted when it is bound
// (CellParam). Columns whose literals storedLiteral does not convert whatever
// their value (BIT, JSON, binary strings, ZEROFILL integers, BIGINT UNSIGNED
// with its stored form) keep the conversions the engine applies to computed
// values and the session's (session.paramValue).
func CellConverted(col *catalog.Column) bool {
	ty := col.Type
	if ty.Base == "" || ty.Zerofill || ty.Wide() || ty.IsBinary() || col.Generated != nil {
		return false
	}
	switch ty.Base {
	case "bit", "json", "geometry", "point", "linestring", "polygon", "multipoint", "multilinestring", "multipolygon", "geometrycollection", "vector":
		return false
	}
	return true
}

// literalRules are what a literal written into a column is converted by: the
// statement's modes (emitter.adjust, emitter.nullToZero) and the session's
// sql_mode, time zone and collation, which the plan is cached by.
type literalRules struct {
	mode               Mode
	tz                 int
	collation          string
	adjust, nullToZero bool
}

// StoreParams converts the values bound to the statement's CellParams as MySQL
// converts a parameter: exactly as the literal of the same value is converted
// (storedLiteral), with its notes and, where the statement fails on what it
// would have to change, its error. A value the literal conversion leaves alone
// (NULL, bytes for a binary column, a type no literal has) is returned as bound,
// for the column's value checks. done marks the converted parameters; args is
// not changed.
func (em *Emitted) StoreParams(args []any) (out []any, done []bool, notes []mysqlerr.Warning, err error) {
	if len(em.CellParams) == 0 {
		return args, nil, nil, nil
	}
	out = args
	var e *emitter
	for _, cp := range em.CellParams {
		if cp.Index >= len(args) {
			continue
		}
		v := args[cp.Index]
		if KeptAsBound(cp.Col.Type, v) {
			continue
		}
		lit, ok := literalOf(cp.Col.Type, v, em.rules.collation)
		if !ok {
			continue
		}
		if e == nil {
			e = &emitter{c: &compiler{mode: em.rules.mode, tz: em.rules.tz, collation: em.rules.collation},
				b: &strings.Builder{}, out: &Emitted{}, adjust: em.rules.adjust, nullToZero: em.rules.nullToZero}
		}
		e.b.Reset()
		noted := len(e.notes)
		if !e.storedLiteral(lit, cp.Col, cp.Row) {
			continue
		}
		if e.err != nil {
			return nil, nil, nil, e.err
		}
		if cp.Wrapped && em.rules.adjust && len(e.notes) > noted {
			e.notes = e.notes[:noted] // the engine adjusts it, warning in row order
			continue
		}
		sv, ok := sqliteValue(e.b.String())
		if !ok {
			continue
		}
		if done == nil {
			out = append([]any(nil), args...)
			done = make([]bool, len(args))
		}
		out[cp.Index], done[cp.Index] = sv, true
	}
	if e != nil {
		notes = e.notes
	}
	return out, done, notes, nil
}

// KeptAsBound reports whether v (as a client binds it) goes into a column of
// type t unchanged, as the literal of the same value does: an integer into an
// integer column that holds it, a string that fits whole into a text column.
// Converting such values would give them back as they are.
func KeptAsBound(t catalog.Type, v any) bool {
	switch x := v.(type) {
	case int64:
		if t.Zerofill {
			return false
		}
		lo, hi, isInt := intRange(t)
		return isInt && lo.IsInt64() && x >= lo.Int64() && (!hi.IsInt64() || x <= hi.Int64())
	case string:
		switch t.Base {
		case "char", "varchar", "tinytext", "text", "mediumtext", "longtext":
			if t.Charset == "binary" {
				return false
			}
			n := utf8.RuneCountInString(x)
			return utf8.ValidString(x) && n <= charLimitOrText(t) && !strings.HasSuffix(x, " ") && strings.IndexByte(x, 0) < 0
		}
	}
	return false
}

// charLimitOrText is how many characters a text column certainly holds: a CHAR
// or VARCHAR its length, a TEXT a quarter of its bytes (four bytes a character).
func charLimitOrText(t catalog.Type) int {
	if n := charLimit(t); n > 0 {
		return n
	}
	return int(min(t.MaxBytes()/4, math.MaxInt32))
}

// literalOf is the literal MySQL converts a bound value as: an integer as an
// integer literal, a double as a double literal, a string (and bytes, for a
// column that is not binary) as a string literal of the connection's character
// set, a date and time as its text, NULL as NULL. ok=false for bytes bound for
// a binary column, which are stored as they are.
func literalOf(t catalog.Type, v any, coll string) (*driver.ValueExpr, bool) {
	switch x := v.(type) {
	case nil:
		lit, ok := ast.NewValueExpr(nil, "", "").(*driver.ValueExpr)
		return lit, ok
	case []byte:
		if t.IsBinary() || t.Base == "bit" || t.Base == "" {
			return nil, false
		}
		v = string(x)
	case time.Time:
		v = timeText(x)
	case float32:
		v = float64(x)
	case int64, uint64, float64, string:
	default:
		return nil, false
	}
	if s, ok := v.(string); ok && !utf8.ValidString(s) {
		return nil, false
	}
	charset := "utf8mb4"
	if cs, _, ok := strings.Cut(coll, "_"); ok && cs != "" {
		charset = cs
	}
	lit, ok := ast.NewValueExpr(v, charset, coll).(*driver.ValueExpr)
	return lit, ok
}

// timeText spells a DATE or DATETIME parameter as its literal: the date alone at
// midnight, fractional seconds only when there are any.
func timeText(t time.Time) string {
	if t.IsZero() {
		return "0000-00-00 00:00:00"
	}
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
		return t.Format("2006-01-02")
	}
	return t.Format("2006-01-02 15:04:05.999999")
}

// sqliteValue reads back the SQLite literal storedLiteral rendered: an integer,
// a real, a string, a blob or NULL. ok=false for anything else (an expression
// the engine evaluates), which is not bound in its place.
func sqliteValue(lit string) (any, bool) {
	switch {
	case lit == "NULL":
		return nil, true
	case strings.HasPrefix(lit, "'") && strings.HasSuffix(lit, "'") && len(lit) >= 2:
		return strings.ReplaceAll(lit[1:len(lit)-1], "''", "'"), true
	case strings.HasPrefix(lit, "X'") && strings.HasSuffix(lit, "'"):
		b, err := hex.DecodeString(lit[2 : len(lit)-1])
		return b, err == nil
	case strings.HasPrefix(lit, "CAST(X'") && strings.HasSuffix(lit, "' AS TEXT)"):
		b, err := hex.DecodeString(lit[len("CAST(X'") : len(lit)-len("' AS TEXT)")])
		return string(b), err == nil
	}
	if n, err := strconv.ParseInt(lit, 10, 64); err == nil {
		return n, true
	}
	if f, err := strconv.ParseFloat(lit, 64); err == nil && strings.ContainsAny(lit, ".eE") {
		return f, true
	}
	return nil, false
}
