package compiler

import (
	"math"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/binlite/binlite/catalog"
	mp "github.com/binlite/binlite/mysqlproto"
)

// implicitDefault is the value MySQL stores in a NOT NULL column that gets NULL
// or nothing where values are adjusted (zeroValue; exact DECIMAL text at the
// column's scale).
func implicitDefault(col *catalog.Column) (string, bool) {
	if col.ExactDecimal() {
		z := "0"
		if col.Type.Scale > 0 {
			z += "." + strings.Repeat("0", col.Type.Scale)
		}
		return sqlString(z), true
	}
	return zeroValue(col.Type)
}

// adjusted renders a computed value written into col where the statement adjusts
// values (emitter.adjust): wrapped in the engine's function that gives what the
// column can hold of it, with MySQL's warning (engine/adjust.go). It returns
// false for a column it has no adjustment for, whose value check still answers.
func (e *emitter) adjusted(x ast.ExprNode, col *catalog.Column, s *scope, row int) bool {
	if col == nil || col.Type.Base == "" || col.AutoIncrement || col.Generated != nil {
		return false
	}
	zero := "NULL" // NULL stays NULL: a nullable column, or a write where it fails
	if !col.Nullable && e.nullToZero {
		z, ok := implicitDefault(col)
		if !ok {
			return false
		}
		zero = z
	}
	tail := ", " + zero + ", " + sqlString(col.Name) + ", " + strconv.Itoa(row) + ")"
	ty := col.Type
	t := e.typeOf(x, s)
	mayBeNull := zero != "NULL" && t.Flags&mp.NotNullFlag == 0
	if lo, hi, isInt := intRange(ty); isInt {
		if ty.Base == "bigint" && ty.Unsigned {
			hi.SetInt64(math.MaxInt64) // what binlite stores of BIGINT UNSIGNED yet
		}
		if t.isInt() && !mayBeNull {
			if vlo, vhi := e.intBounds(x, s); vlo >= float64(lo.Int64()) && vhi <= float64(hi.Int64()) && !math.IsNaN(vlo) {
				e.expr(x, s) // always in range
				return true
			}
		}
		e.w("binlite_adjust_int(")
		e.expr(x, s)
		e.w(", " + lo.String() + ", " + hi.String() + tail)
		return true
	}
	if col.ExactDecimal() {
		unsigned := "0"
		if ty.Unsigned {
			unsigned = "1"
		}
		e.w("binlite_adjust_dec(")
		e.decArg(x, s)
		e.w(", " + strconv.Itoa(ty.Length) + ", " + strconv.Itoa(ty.Scale) + ", " + unsigned + tail)
		return true
	}
	limit, bytes := 0, 0
	switch ty.Base {
	case "char", "varchar":
		limit = ty.Length
	case "binary", "varbinary":
		limit, bytes = ty.Length, 1
	case "tinytext", "text", "mediumtext", "tinyblob", "blob", "mediumblob":
		limit, bytes = int(ty.MaxBytes()), 1
	}
	if limit > 0 {
		e.w("binlite_adjust_text(")
		e.expr(x, s)
		e.w(", " + strconv.Itoa(limit) + ", " + strconv.Itoa(bytes) + tail)
		return true
	}
	if !mayBeNull {
		return false
	}
	e.w("binlite_adjust_null(")
	e.expr(x, s)
	e.w(tail)
	return true
}
