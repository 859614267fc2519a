package difftest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// Answer is what a server answered to one statement, reduced to what the contract
// compares: the error code, or the result set's column types and rows, the affected
// rows and last insert id of an OK packet, and the warning codes.
type Answer struct {
	Err    uint16 // MySQL error code; 0 when the statement succeeded
	ErrMsg string // the error's text (reports only)
	// Harness is set when the client could not read the answer at all (lost
	// connection, a malformed packet, a value it could not parse); Err is 0 then.
	Harness string

	Columns  []Column // nil: an OK packet, no result set
	Rows     [][]Value
	Affected uint64 // OK packets only
	InsertID uint64 // OK packets only
	Warnings []uint16
	// WarnErr is set when the server reported warnings but SHOW WARNINGS failed.
	WarnErr string
}

// Column is a result column's metadata as the contract compares it.
type Column struct {
	Name     string // reports only: MySQL and MariaDB name expressions differently
	Type     uint8
	Unsigned bool
	Binary   bool
	Decimals uint8
}

// Value is one field of a row as text; NULL is distinct from the string 'NULL'.
type Value struct {
	Null bool
	S    string
}

// Null is the SQL NULL value.
var Null = Value{Null: true}

// Text is a non-NULL value.
func Text(s string) Value { return Value{S: s} }

// typeNames are MySQL's MYSQL_TYPE_* names without the prefix, as directives write them.
var typeNames = map[uint8]string{
	mysql.MYSQL_TYPE_DECIMAL: "DECIMAL", mysql.MYSQL_TYPE_TINY: "TINY", mysql.MYSQL_TYPE_SHORT: "SHORT",
	mysql.MYSQL_TYPE_LONG: "LONG", mysql.MYSQL_TYPE_FLOAT: "FLOAT", mysql.MYSQL_TYPE_DOUBLE: "DOUBLE",
	mysql.MYSQL_TYPE_NULL: "NULL", mysql.MYSQL_TYPE_TIMESTAMP: "TIMESTAMP", mysql.MYSQL_TYPE_LONGLONG: "LONGLONG",
	mysql.MYSQL_TYPE_INT24: "INT24", mysql.MYSQL_TYPE_DATE: "DATE", mysql.MYSQL_TYPE_TIME: "TIME",
	mysql.MYSQL_TYPE_DATETIME: "DATETIME", mysql.MYSQL_TYPE_YEAR: "YEAR", mysql.MYSQL_TYPE_NEWDATE: "NEWDATE",
	mysql.MYSQL_TYPE_VARCHAR: "VARCHAR", mysql.MYSQL_TYPE_BIT: "BIT", mysql.MYSQL_TYPE_TIMESTAMP2: "TIMESTAMP2",
	mysql.MYSQL_TYPE_DATETIME2: "DATETIME2", mysql.MYSQL_TYPE_TIME2: "TIME2", mysql.MYSQL_TYPE_VECTOR: "VECTOR",
	mysql.MYSQL_TYPE_JSON: "JSON", mysql.MYSQL_TYPE_NEWDECIMAL: "NEWDECIMAL", mysql.MYSQL_TYPE_ENUM: "ENUM",
	mysql.MYSQL_TYPE_SET: "SET", mysql.MYSQL_TYPE_TINY_BLOB: "TINY_BLOB", mysql.MYSQL_TYPE_MEDIUM_BLOB: "MEDIUM_BLOB",
	mysql.MYSQL_TYPE_LONG_BLOB: "LONG_BLOB", mysql.MYSQL_TYPE_BLOB: "BLOB", mysql.MYSQL_TYPE_VAR_STRING: "VAR_STRING",
	mysql.MYSQL_TYPE_STRING: "STRING", mysql.MYSQL_TYPE_GEOMETRY: "GEOMETRY",
}

func typeByName(name string) (uint8, bool) {
	for code, n := range typeNames {
		if n == name {
			return code, true
		}
	}
	return 0, false
}

// String writes a column as a directive does: TYPE[+unsigned][+binary][/decimals].
func (c Column) String() string {
	name, ok := typeNames[c.Type]
	if !ok {
		name = "TYPE" + strconv.Itoa(int(c.Type))
	}
	if c.Unsigned {
		name += "+unsigned"
	}
	if c.Binary {
		name += "+binary"
	}
	if c.Decimals != 0 && numericOrTemporal(c.Type) {
		name += "/" + strconv.Itoa(int(c.Decimals))
	}
	return name
}

func (c Column) same(o Column) bool {
	if c.Type != o.Type || c.Unsigned != o.Unsigned {
		return false
	}
	if numericOrTemporal(c.Type) {
		return c.Decimals == o.Decimals
	}
	return c.Binary == o.Binary
}

// numericOrTemporal reports whether a column is a number or a date/time value. Its
// decimals carry meaning for clients (the scale of numbers, the fractional seconds
// of temporal values) and its BINARY flag does not (its charset is always binary;
// MySQL and MariaDB set the flag on expressions and not on table columns, and drop
// it after a temporary table). For strings, BIT, ENUM, SET, JSON and NULL it is the
// other way round: BINARY tells a binary string from text, and the decimals are 0
// or "not fixed" (31 in MySQL, 39 in MariaDB) with no rule a client relies on.
func numericOrTemporal(t uint8) bool {
	switch t {
	case mysql.MYSQL_TYPE_DECIMAL, mysql.MYSQL_TYPE_NEWDECIMAL, mysql.MYSQL_TYPE_FLOAT, mysql.MYSQL_TYPE_DOUBLE,
		mysql.MYSQL_TYPE_TINY, mysql.MYSQL_TYPE_SHORT, mysql.MYSQL_TYPE_INT24, mysql.MYSQL_TYPE_LONG,
		mysql.MYSQL_TYPE_LONGLONG, mysql.MYSQL_TYPE_YEAR,
		mysql.MYSQL_TYPE_TIMESTAMP, mysql.MYSQL_TYPE_TIMESTAMP2, mysql.MYSQL_TYPE_DATETIME,
		mysql.MYSQL_TYPE_DATETIME2, mysql.MYSQL_TYPE_TIME, mysql.MYSQL_TYPE_TIME2,
		mysql.MYSQL_TYPE_DATE, mysql.MYSQL_TYPE_NEWDATE:
		return true
	}
	return false
}

// String writes the value as a directive does: NULL bare, simple text bare, anything
// else single-quoted with backslash escapes.
func (v Value) String() string {
	if v.Null {
		return "NULL"
	}
	if bareOK(v.S) {
		return v.S
	}
	return quote(v.S)
}

func bareOK(s string) bool {
	if s == "" || s == "NULL" || s == "--" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || c == '|' || c == ';' || c == '\'' || c == '\\' {
			return false
		}
	}
	return true
}

func quote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			b.WriteString(`\'`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == 0:
			b.WriteString(`\0`)
		case c < ' ' || c == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		case c >= 0x80:
			// Keep valid UTF-8 readable; escape bytes that are not part of it.
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				fmt.Fprintf(&b, `\x%02x`, c)
				continue
			}
			b.WriteString(s[i : i+size])
			i += size - 1
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// IsResult reports whether the answer is a result set.
func (a *Answer) IsResult() bool { return a.Columns != nil }

// String writes the answer in directive syntax, so a report line can be pasted into
// a "-- mysql:" directive.
func (a *Answer) String() string {
	if a.Harness != "" {
		return "(client could not read the answer: " + a.Harness + ")"
	}
	if a.Err != 0 {
		return fmt.Sprintf("error %d (%s)", a.Err, a.ErrMsg)
	}
	var parts []string
	if a.IsResult() {
		cols := make([]string, len(a.Columns))
		for i, c := range a.Columns {
			cols[i] = c.String()
		}
		parts = append(parts, "columns "+strings.Join(cols, " "))
		if len(a.Rows) == 0 {
			parts = append(parts, "empty")
		}
		for _, r := range a.Rows {
			vals := make([]string, len(r))
			for i, v := range r {
				vals[i] = v.String()
			}
			parts = append(parts, "row "+strings.Join(vals, "|"))
		}
	} else {
		parts = append(parts, "ok", "affected "+strconv.FormatUint(a.Affected, 10),
			"insert_id "+strconv.FormatUint(a.InsertID, 10))
	}
	parts = append(parts, "warnings "+a.warningsText())
	return strings.Join(parts, "; ")
}

func (a *Answer) warningsText() string {
	if a.WarnErr != "" {
		return "? (SHOW WARNINGS failed: " + a.WarnErr + ")"
	}
	if len(a.Warnings) == 0 {
		return "none"
	}
	ws := make([]string, len(a.Warnings))
	for i, w := range a.Warnings {
		ws[i] = strconv.Itoa(int(w))
	}
	return strings.Join(ws, ",")
}

// Compare modes: what of two answers must be equal.
const (
	compareAll   = "all"   // everything
	compareShape = "shape" // everything but the rows' values (NOW(), UUID(), RAND())
)

// Difference names the first way got differs from want ("" if they agree), in the
// order a user would notice: error, columns, rows, affected rows, insert id, warnings.
func Difference(want, got *Answer, mode string) string {
	if got.Harness != "" || want.Harness != "" {
		return "client could not read the answer"
	}
	if want.Err != got.Err {
		switch {
		case got.Err == 0:
			return fmt.Sprintf("succeeded where MySQL answers error %d", want.Err)
		case want.Err == 0:
			return fmt.Sprintf("error %d where MySQL succeeds", got.Err)
		default:
			return fmt.Sprintf("error %d where MySQL answers error %d", got.Err, want.Err)
		}
	}
	if want.Err != 0 {
		return ""
	}
	if want.IsResult() != got.IsResult() {
		if want.IsResult() {
			return "no result set where MySQL returns one"
		}
		return "a result set where MySQL returns an OK packet"
	}
	if want.IsResult() {
		if len(want.Columns) != len(got.Columns) {
			return fmt.Sprintf("%d columns where MySQL returns %d", len(got.Columns), len(want.Columns))
		}
		if len(want.Rows) != len(got.Rows) {
			return fmt.Sprintf("%d rows where MySQL returns %d", len(got.Rows), len(want.Rows))
		}
		if mode != compareShape {
			for i := range want.Rows {
				for j := range want.Rows[i] {
					if j < len(got.Rows[i]) && want.Rows[i][j] != got.Rows[i][j] {
						g, w := excerpts(got.Rows[i][j], want.Rows[i][j])
						return fmt.Sprintf("row %d column %d is %s where MySQL has %s", i+1, j+1, g, w)
					}
				}
			}
		}
		for i := range want.Columns {
			if !want.Columns[i].same(got.Columns[i]) {
				return fmt.Sprintf("column %d is %s where MySQL's is %s", i+1, got.Columns[i], want.Columns[i])
			}
		}
	} else {
		if want.Affected != got.Affected {
			return fmt.Sprintf("%d affected rows where MySQL reports %d", got.Affected, want.Affected)
		}
		if want.InsertID != got.InsertID {
			return fmt.Sprintf("last insert id %d where MySQL reports %d", got.InsertID, want.InsertID)
		}
	}
	if got.WarnErr != "" && want.WarnErr == "" {
		return "warnings " + got.warningsText()
	}
	if !slices.Equal(want.Warnings, got.Warnings) {
		return fmt.Sprintf("warnings %s where MySQL has %s", got.warningsText(), want.warningsText())
	}
	return ""
}

// Kinds of wrong answers, worst first: what the compatibility page sorts its examples by.
const (
	wrongAccepted = iota // MySQL refuses the statement, binlite does something
	wrongRows            // different values or number of rows
	wrongCounts          // affected rows or last insert id
	wrongWarnings        // a different list of warnings
	wrongColumns         // column types, flags or decimals
	wrongOther
)

var wrongKindNames = []string{"accepted what MySQL refuses", "different rows", "different affected rows or insert id",
	"different warnings", "different column metadata", "other"}

// wrongKind classifies a difference between two successful-or-not answers where got
// has no error.
func wrongKind(want, got *Answer, mode string) int {
	switch {
	case want.Err != 0:
		return wrongAccepted
	case want.IsResult() != got.IsResult():
		return wrongRows
	case want.IsResult() && len(want.Columns) != len(got.Columns):
		return wrongColumns
	}
	if want.IsResult() {
		if len(want.Rows) != len(got.Rows) {
			return wrongRows
		}
		if mode != compareShape {
			for i := range want.Rows {
				if !slices.Equal(want.Rows[i], got.Rows[i]) {
					return wrongRows
				}
			}
		}
		for i := range want.Columns {
			if !want.Columns[i].same(got.Columns[i]) {
				return wrongColumns
			}
		}
	} else if want.Affected != got.Affected || want.InsertID != got.InsertID {
		return wrongCounts
	}
	if !slices.Equal(want.Warnings, got.Warnings) || got.WarnErr != "" {
		return wrongWarnings
	}
	return wrongOther
}

// excerpts shows two differing values; long texts are cut to the part around the
// first byte where they differ.
func excerpts(got, want Value) (string, string) {
	const long, before, after = 80, 20, 40
	if got.Null || want.Null || (len(got.S) <= long && len(want.S) <= long) {
		return got.String(), want.String()
	}
	i := 0
	for i < len(got.S) && i < len(want.S) && got.S[i] == want.S[i] {
		i++
	}
	cut := func(s string) string {
		from, to := max(0, i-before), min(len(s), i+after)
		out := quote(s[from:to])
		if from > 0 {
			out = "..." + out
		}
		if to < len(s) {
			out += "..."
		}
		return out
	}
	return cut(got.S), cut(want.S)
}
