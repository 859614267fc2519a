package catalog

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/binlite/binlite/mysqlerr"
)

// Rows an ALTER TABLE keeps. SQLite cannot change a column in place, so binlite
// rebuilds the table (sqlcompat's rebuild) and copies the rows with one INSERT ...
// SELECT; CopyValue spells, for each column of the new table, the value the copy
// writes, converted as MySQL's ALTER TABLE converts it. The conversions are the
// engine's value adjustments (binlite_adjust_*, engine/adjust.go): a value the new
// type cannot hold becomes what MySQL keeps, with MySQL's warning, and under
// strict sql_mode the engine turns the first such warning into the statement's
// error, as MySQL does. A NULL going into a NOT NULL column goes through
// binlite_alter_null. Conversions binlite does not make as MySQL does are refused
// (1235) rather than made differently.

// CopyValue is the SQLite expression that gives new column to its value in a
// copied row whose old value is src (a quoted column of the old table) of column
// from (see NullCopy for a column made NOT NULL).
func CopyValue(src string, from, to *Column) (string, error) {
	if typesEqual(from.Type, to.Type) {
		return src, nil
	}
	ft, tt := from.Type, to.Type
	ff, tf := family(ft), family(tt)
	name := quoteSQLite(to.Name)
	refuse := func() (string, error) {
		return "", mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'ALTER TABLE changing column %s from %s to %s'", to.Name, ft.SQL(), tt.SQL())
	}
	switch tf {
	case "int":
		switch ff {
		case "int", "decimal", "float", "text", "year", "bit":
			lo, hi := intRange(tt.Base, tt.Unsigned)
			hi = min(hi, math.MaxInt64) // what binlite stores of BIGINT UNSIGNED
			return "binlite_adjust_int(" + src + ", " + strconv.FormatInt(lo, 10) + ", " + strconv.FormatUint(hi, 10) + ", NULL, " + name + ", 0)", nil
		}
	case "decimal":
		switch ff {
		case "int", "decimal", "float", "text":
			u := "0"
			if tt.Unsigned {
				u = "1"
			}
			return "binlite_adjust_dec(" + src + ", " + strconv.Itoa(tt.Length) + ", " + strconv.Itoa(tt.Scale) + ", " + u + ", NULL, " + name + ", 0)", nil
		}
	case "float":
		switch ff {
		case "int", "decimal", "text":
			return src, nil // the column's REAL affinity reads the number; its check refuses what is not one
		case "float":
			if tt.Base == "double" || ft.Base == "float" {
				return src, nil
			}
		}
	case "text":
		if ft.Charset != tt.Charset && ff == "text" && tt.Charset != "utf8mb4" && tt.Charset != "utf8mb3" {
			return refuse()
		}
		switch ff {
		case "text", "int", "decimal", "enum", "set", "date", "datetime", "timestamp", "time", "json":
			v := src
			if tt.Base == "char" && ff == "text" {
				v = "rtrim(" + src + ", ' ')" // binlite keeps CHAR values without their padding, as MySQL returns them
			}
			limit, bytes := tt.Length, 0
			if tt.Base != "char" && tt.Base != "varchar" {
				limit, bytes = int(tt.MaxBytes()), 1
			}
			if tt.Base == "longtext" {
				return v, nil
			}
			if ft.Base != tt.Base {
				// Stored through the new column: 1406 under strict mode (see binlite_alter_text).
				return "binlite_alter_text(" + v + ", " + strconv.Itoa(limit) + ", " + strconv.Itoa(bytes) + ", " + name + ")", nil
			}
			return "binlite_adjust_text(" + v + ", " + strconv.Itoa(limit) + ", " + strconv.Itoa(bytes) + ", NULL, " + name + ", 0)", nil
		}
	case "bytes":
		if ff == "bytes" && tt.Base != "binary" && ft.Base != "binary" {
			if tt.Base == "longblob" {
				return src, nil
			}
			limit := tt.Length
			if tt.Base != "varbinary" {
				limit = int(tt.MaxBytes())
			}
			return "binlite_adjust_text(" + src + ", " + strconv.Itoa(limit) + ", 1, NULL, " + name + ", 0)", nil
		}
	case "enum", "set":
		switch ff {
		case "enum", "set", "text", "int":
			if ff == "set" && tf == "enum" || ff == "enum" && tf == "set" {
				break
			}
			members, _ := json.Marshal(tt.Elems)
			// A value that names no member stays as it is, for the column's
			// check to refuse (1265).
			return "binlite_enum_store(" + src + ", " + quoteSQLite(string(members)) + ", " + quoteSQLite(tt.Collation) + ", " + quoteSQLite(tt.Base) + ", 0)", nil
		}
	case "date", "datetime", "timestamp", "time":
		switch {
		case ff == "text":
			return src, nil // the column's check refuses text that is not such a value
		case ff == "date" && tf == "datetime":
			frac := ""
			if tt.Scale > 0 {
				frac = "." + strings.Repeat("0", tt.Scale)
			}
			return "(" + src + " || ' 00:00:00" + frac + "')", nil
		}
	case "json":
		if ff == "text" {
			return src, nil // json_valid checks it
		}
	}
	return refuse()
}

// NullCopy wraps a copied value v of NOT NULL column to that was nullable: a
// NULL becomes the column's implicit default with warning 1265, or, under strict
// sql_mode, fails the statement with 1265 when MySQL copies the table and 1138
// when it changes the table in place.
func NullCopy(v string, to *Column, copying bool) (string, error) {
	zero, ok := to.ImplicitValue()
	if !ok {
		return "", mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'ALTER TABLE making column %s NOT NULL'", to.Name)
	}
	c := "0"
	if copying {
		c = "1"
	}
	return "binlite_alter_null(" + v + ", " + zero + ", " + quoteSQLite(to.Name) + ", " + c + ")", nil
}

// ImplicitValue is the SQLite literal of the value MySQL gives a NOT NULL
// column that gets no value (existing rows of an added column, NULLs made NOT
// NULL): zero, the empty string, an ENUM's first member. ok=false for the
// temporal types, whose zero values strict mode refuses.
func (c *Column) ImplicitValue() (string, bool) {
	ty := c.Type
	switch family(ty) {
	case "int", "float", "bit":
		return "0", true
	case "decimal":
		z := "0"
		if ty.Scale > 0 {
			z += "." + strings.Repeat("0", ty.Scale)
		}
		if c.ExactDecimal() {
			return quoteSQLite(z), true
		}
		return z, true
	case "text", "set":
		return "''", true
	case "bytes":
		if ty.Base == "binary" {
			return "", false
		}
		return "X''", true
	case "enum":
		if len(ty.Elems) > 0 {
			return quoteSQLite(ty.Elems[0]), true
		}
	case "json":
		return "'null'", true
	}
	return "", false
}

// ChangeCopies reports whether MySQL 8.4 (InnoDB) copies the table to change
// column from into to (ALGORITHM=COPY, which reports the rows copied as affected)
// rather than changing it in place or instantly: a change of type, except a
// VARCHAR made longer within the same length-byte size, ENUM and SET members
// added at the end, and integer display widths; or a new STORED expression.
func ChangeCopies(from, to *Column) bool {
	if (from.Generated == nil) != (to.Generated == nil) {
		return to.Generated != nil && to.Generated.Stored || from.Generated != nil && from.Generated.Stored
	}
	if from.Generated != nil && (from.Generated.Expr != to.Generated.Expr || from.Generated.Stored != to.Generated.Stored) {
		return from.Generated.Stored || to.Generated.Stored
	}
	if from.AutoIncrement != to.AutoIncrement && to.AutoIncrement {
		return true
	}
	a, b := from.Type, to.Type
	if typesEqual(a, b) {
		return false
	}
	if a.Base != b.Base || a.Unsigned != b.Unsigned || a.Zerofill != b.Zerofill || a.Charset != b.Charset || a.Collation != b.Collation {
		return true
	}
	switch a.Base {
	case "varchar":
		if b.Length < a.Length {
			return true
		}
		mb := MaxCharBytes(a.Charset)
		return (uint32(a.Length)*mb > 255) != (uint32(b.Length)*mb > 255)
	case "varbinary":
		return b.Length < a.Length || (a.Length > 255) != (b.Length > 255)
	case "enum", "set":
		if len(b.Elems) < len(a.Elems) {
			return true
		}
		for i, e := range a.Elems {
			if b.Elems[i] != e {
				return true
			}
		}
		if a.Base == "enum" {
			return (len(a.Elems) > 255) != (len(b.Elems) > 255)
		}
		return (len(a.Elems)+7)/8 != (len(b.Elems)+7)/8
	}
	return true
}

// SameType reports whether values of type a need no conversion to type b:
// the same type, integer display widths aside.
func SameType(a, b Type) bool { return typesEqual(a, b) }

func typesEqual(a, b Type) bool {
	if family(a) == "int" && !a.Zerofill && !b.Zerofill {
		a.Length, b.Length = 0, 0
	}
	if a.Base != b.Base || a.Length != b.Length || a.Scale != b.Scale || a.Unsigned != b.Unsigned || a.Zerofill != b.Zerofill ||
		a.Charset != b.Charset || a.Collation != b.Collation || len(a.Elems) != len(b.Elems) {
		return false
	}
	for i := range a.Elems {
		if a.Elems[i] != b.Elems[i] {
			return false
		}
	}
	return true
}

// family groups the types whose values convert alike.
func family(ty Type) string {
	switch ty.Base {
	case "tinyint", "smallint", "mediumint", "int", "bigint":
		return "int"
	case "float", "double":
		return "float"
	case "char", "varchar", "tinytext", "text", "mediumtext", "longtext":
		if ty.Charset == "binary" {
			return "bytes"
		}
		return "text"
	case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob":
		return "bytes"
	}
	return ty.Base
}

// Dependent names what of t reads column col, which MySQL refuses to drop or
// rename while it does: a CHECK constraint (3959), a generated column (3108), a
// default expression (refused with 1235: binlite would have to rewrite it). It
// returns nil when nothing does.
func (t *Table) Dependent(col string) error {
	ref := strings.ToLower(quoteIdent(col))
	for _, c := range t.Checks {
		if strings.Contains(strings.ToLower(c.Expr), ref) {
			return mysqlerr.New(mysqlerr.ErDependentByCheckConstraint, "Check constraint '%s' uses column '%s', hence column cannot be dropped or renamed.", c.Name, col)
		}
	}
	for i := range t.Columns {
		c := &t.Columns[i]
		if strings.EqualFold(c.Name, col) {
			continue
		}
		if c.Generated != nil && strings.Contains(strings.ToLower(c.Generated.Expr), ref) {
			return mysqlerr.New(mysqlerr.ErDependentByGeneratedColumn, "Column '%s' has a generated column dependency.", col)
		}
		if c.Default != nil {
			for _, r := range c.Default.Refs {
				if strings.EqualFold(r, col) {
					return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'dropping or renaming column %s, which the default expression of %s reads'", col, c.Name)
				}
			}
		}
	}
	return nil
}

// quoteSQLite is s as an SQLite string literal.
func quoteSQLite(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// SameStorage reports whether a SQLite column made for a holds b's values as
// they are: the same type, nullability, generation, AUTO_INCREMENT and ON
// UPDATE (defaults and comments aside).
func SameStorage(a, b *Column) bool {
	if (a.Generated == nil) != (b.Generated == nil) || a.Generated != nil && *a.Generated != *b.Generated {
		return false
	}
	return typesEqual(a.Type, b.Type) && a.Nullable == b.Nullable && a.AutoIncrement == b.AutoIncrement && a.OnUpdate == b.OnUpdate && a.Invisible == b.Invisible
}

// HasOnUpdate reports whether a column of t has ON UPDATE CURRENT_TIMESTAMP (the
// table has the trigger of OnUpdateTriggers).
func (t *Table) HasOnUpdate() bool {
	for i := range t.Columns {
		if t.Columns[i].OnUpdate != "" {
			return true
		}
	}
	return false
}
