package compiler

import (
	"strings"
	"unicode/utf8"

	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
)

// zeroValue is the implicit default MySQL stores in a NOT NULL column when a
// statement under IGNORE gives it NULL or nothing (0, the empty string, an
// ENUM's first member, JSON null); ok=false for the types this does not cover
// yet (temporal, BIT).
func zeroValue(ty catalog.Type) (string, bool) {
	switch {
	case numericBase(ty.Base):
		if ty.Base == "year" {
			return "", false
		}
		return "0", true
	case ty.IsBinary() && ty.Base != "binary":
		return "X''", true
	}
	switch ty.Base {
	case "char", "varchar", "tinytext", "text", "mediumtext", "longtext", "set":
		return "''", true
	case "enum":
		if len(ty.Elems) > 0 {
			return sqlString(ty.Elems[0]), true
		}
	case "json":
		return "'null'", true
	case "date", "datetime", "timestamp":
		k, fsp := columnKind(ty)
		return zeroDateSQL(k, fsp), true
	}
	return "", false
}

// charLimit is how many characters a CHAR or VARCHAR column holds (0: no such limit).
func charLimit(ty catalog.Type) int {
	if ty.Base == "char" || ty.Base == "varchar" {
		return ty.Length
	}
	return 0
}

// ignoredLiteral renders what MySQL stores for a literal the column cannot keep
// as given, where the statement goes on with a warning: NULL into a NOT NULL
// column under IGNORE or without strict mode (the implicit default, 1048; see
// emitter.nullToZero), text longer than a CHAR or VARCHAR under IGNORE or without
// strict mode (cut, 1265), and text whose excess is only trailing spaces in any
// mode (cut, Note 1265). It returns false when it renders nothing.
func (e *emitter) ignoredLiteral(v *driver.ValueExpr, col *catalog.Column, row int) bool {
	ty := col.Type
	switch v.Kind() {
	case driver.KindNull:
		if !e.nullToZero || col.Nullable || col.AutoIncrement {
			return false
		}
		z, ok := implicitDefault(col)
		if !ok {
			return false
		}
		e.notes = append(e.notes, mysqlerr.Warn(mysqlerr.ErBadNull, "Column '%s' cannot be null", col.Name))
		e.w(z)
		return true
	case driver.KindString:
		limit := charLimit(ty)
		s := v.GetString()
		if limit == 0 || v.Type.GetCharset() == "binary" || utf8.RuneCountInString(s) <= limit {
			return false
		}
		cut := string([]rune(s)[:limit])
		spaces := strings.TrimRight(s[len(cut):], " ") == ""
		switch {
		case spaces:
			e.notes = append(e.notes, mysqlerr.Note(mysqlerr.ErWarnDataTruncated, "Data truncated for column '%s' at row %d", col.Name, row))
		case e.adjust:
			e.notes = append(e.notes, mysqlerr.Warn(mysqlerr.ErWarnDataTruncated, "Data truncated for column '%s' at row %d", col.Name, row))
		default:
			return false // the value check answers 1406
		}
		if sv, ok := ty.StoreText(cut); ok {
			if s, isText := sv.(string); isText {
				cut = s
			}
		}
		e.w(sqlString(cut))
		return true
	}
	return false
}
