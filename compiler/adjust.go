package compiler

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
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
	if ty.Wide() {
		// Values go in in the stored form (package u64); a BIGINT UNSIGNED
		// value is one already, the engine's adjustment gives one.
		switch {
		case t.Wide() && !mayBeNull:
			e.exprStored(x, s)
		case ty.Base == "bit" && !mayBeNull:
			return false
		case ty.Base == "bit":
			e.w("binlite_adjust_null(")
			e.exprStored(x, s)
			e.w(tail)
		default:
			e.w("binlite_adjust_u64(")
			e.exprStored(x, s)
			e.w(tail)
		}
		return true
	}
	if lo, hi, isInt := intRange(ty); isInt {
		if t.isInt() && !mayBeNull {
			if vlo, vhi := e.intBounds(x, s); vlo >= float64(lo.Int64()) && vhi <= float64(hi.Int64()) && !math.IsNaN(vlo) {
				e.expr(x, s) // always in range
				return true
			}
		}
		e.w("binlite_adjust_int(")
		e.digitArg(x, s) // a BIGINT UNSIGNED from 2^63 as its digits: out of range
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
	if v, isLit := x.(*driver.ValueExpr); isLit && v.Kind() == driver.KindString && limit > 0 {
		n := len(v.GetBytes())
		if bytes == 0 {
			n = utf8.RuneCount(v.GetBytes())
		}
		if n <= limit {
			e.expr(x, s) // it fits
			return true
		}
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

// literalCell renders a literal written into col (row: its row of a VALUES list,
// 0 for an UPDATE's SET); it returns false when x is not such a literal. Where
// the statement adjusts values and the literal needs it, MySQL warns as it stores
// each row, in the order of the rows and columns, and an UPDATE once for every row
// it changes (none if it changes none). The compiler adjusts the literal itself
// and notes MySQL's warning when that gives the same: an INSERT whose values are
// all literals. Otherwise (emitter.runtimeLiterals) the engine adjusts it row by
// row, as it does computed values, so that the warnings come in MySQL's order.
func (e *emitter) literalCell(x ast.ExprNode, col *catalog.Column, s *scope, row int) bool {
	if col == nil || col.Type.Base == "" {
		return false
	}
	if !e.adjust || !e.runtimeLiterals {
		return e.storedLiteral(x, col, max(row, 1))
	}
	notes, saved := append([]mysqlerr.Warning(nil), e.notes...), e.b
	e.b = &strings.Builder{}
	ok := e.storedLiteral(x, col, max(row, 1))
	lit := e.b.String()
	e.b = saved
	if !ok || len(e.notes) == len(notes) {
		e.w(lit)
		return ok
	}
	kept := e.notes
	e.notes = notes
	if e.adjusted(x, col, s, row) {
		return true
	}
	e.notes = kept
	e.w(lit)
	return true
}

func isNullLiteral(x ast.ExprNode) bool {
	v, ok := x.(*driver.ValueExpr)
	return ok && v.Kind() == driver.KindNull
}

// onlyLiterals reports whether every value of rows is a literal (or DEFAULT).
func onlyLiterals(rows [][]ast.ExprNode) bool {
	for _, r := range rows {
		for _, x := range r {
			if u, ok := x.(*ast.UnaryOperationExpr); ok && u.Op == opcode.Minus {
				x = u.V
			}
			switch x.(type) {
			case *driver.ValueExpr, *ast.DefaultExpr:
			default:
				return false
			}
		}
	}
	return true
}
