package compiler

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/collation"
	mp "github.com/binlite/binlite/mysqlproto"
)

// flowCall renders MySQL's flow-control and comparison functions (manual
// 14.5, 14.4.2): IF and NULLIF as CASE, whose condition and comparison are
// MySQL's (a string compared with a number as a number, strings by their
// collation); GREATEST and LEAST compare as their result type does. It
// reports false for other names.
func (e *emitter) flowCall(name string, x *ast.FuncCallExpr, s *scope) bool {
	switch name {
	case "if":
		if !e.arity(name, x, 3, 3) {
			return true
		}
		e.caseExpr(&ast.CaseExpr{WhenClauses: []*ast.WhenClause{{Expr: x.Args[0], Result: x.Args[1]}}, ElseClause: x.Args[2]}, s)
	case "nullif":
		if !e.arity(name, x, 2, 2) {
			return true
		}
		eq := &ast.BinaryOperationExpr{Op: opcode.EQ, L: x.Args[0], R: x.Args[1]}
		e.caseExpr(&ast.CaseExpr{WhenClauses: []*ast.WhenClause{{Expr: eq, Result: nullLiteral()}}, ElseClause: x.Args[0]}, s)
	case "ifnull":
		if !e.arity(name, x, 2, 2) {
			return true
		}
		e.w("ifnull(")
		e.list(x.Args, s)
		e.w(")")
	case "isnull":
		if !e.arity(name, x, 1, 1) {
			return true
		}
		e.w("(")
		e.expr(x.Args[0], s)
		e.w(" IS NULL)")
	case "greatest", "least":
		e.greatest(name, x, s)
	case "grouping":
		e.grouping(x, s)
	case "any_value":
		if !e.arity(name, x, 1, 1) {
			return true
		}
		e.exprStored(x.Args[0], s) // SQLite gives a bare value of one of the group's rows
	default:
		return false
	}
	return true
}

func nullLiteral() *driver.ValueExpr {
	v := &driver.ValueExpr{}
	v.SetValue(nil)
	return v
}

// greatest renders GREATEST and LEAST as SQLite's max() and min() of several
// arguments (NULL if one is NULL, as MySQL 8.4's), each argument in the form
// that orders as MySQL compares them: integers as they are, decimals as exact
// decimal text, strings by their collation, and as doubles when MySQL compares
// mixed types as doubles.
func (e *emitter) greatest(name string, x *ast.FuncCallExpr, s *scope) {
	if !e.arity(name, x, 2, -1) {
		return
	}
	fn := map[string]string{"greatest": "max", "least": "min"}[name]
	var kinds struct{ ints, decs, reals, strs, temporal, null, unknown int }
	var first ColType
	for _, a := range x.Args {
		t := e.typeOf(a, s) // an ENUM or SET compares as its text
		switch {
		case t.Type == mp.TypeNull:
			kinds.null++
		case t.isInt():
			kinds.ints++
		case t.isDecimal():
			kinds.decs++
		case t.isApprox():
			kinds.reals++
		case t.isTemporal():
			if kinds.temporal > 0 && t.Type != first.Type {
				kinds.unknown++
			}
			first = t
			kinds.temporal++
		case t.isString():
			kinds.strs++
		default:
			kinds.unknown++
		}
	}
	render := e.expr
	coll := ""
	switch {
	case kinds.unknown > 0 || kinds.temporal > 0 && kinds.temporal+kinds.null+kinds.strs < len(x.Args):
		e.unsupported(name + " of these types")
		return
	case kinds.temporal > 0:
		// values of one temporal type, string literals read as that type:
		// their text orders as they do
		kind := kindName(first)
		if kind == "time" {
			e.unsupported(name + " of times") // their text does not order as they do
			return
		}
		for _, a := range x.Args {
			if _, lit, ok := stringLiteral(a); ok {
				if _, ok := catalog.TemporalLiteral(kind, lit); !ok {
					e.unsupported(name + " of a date and a string that is none")
					return
				}
			} else if !e.typeOf(a, s).isTemporal() && e.typeOf(a, s).Type != mp.TypeNull {
				e.unsupported(name + " of a date and a string")
				return
			}
		}
		render = func(a ast.ExprNode, s *scope) {
			if _, lit, ok := stringLiteral(a); ok {
				norm, _ := catalog.TemporalLiteral(kind, lit)
				e.w(sqlString(norm))
				return
			}
			e.expr(a, s)
		}
	case kinds.strs > 0 && kinds.ints+kinds.decs+kinds.reals == 0:
		if c := e.argCollation(s, x.Args...); c != "binary" {
			coll = " COLLATE " + sqliteCollation(c)
		}
	case kinds.strs > 0:
		// MySQL 8.4 aggregates strings with numbers to a string type; binlite
		// does not compare them so yet
		e.unsupported(name + " of strings and numbers")
		return
	case kinds.reals > 0:
		render = func(a ast.ExprNode, s *scope) {
			e.w("CAST(")
			e.realArg(a, s)
			e.w(" AS REAL)")
		}
	case kinds.decs > 0:
		render = e.decText
	}
	e.w(fn + "(")
	for i, a := range x.Args {
		if i > 0 {
			e.w(", ")
		}
		render(a, s)
		if coll != "" {
			e.w(coll)
		}
	}
	e.w(")")
}

// sqliteCollation is the SQLite collation of a MySQL collation name.
func sqliteCollation(name string) string {
	if c, ok := collation.Lookup(name); ok {
		return c.SQLiteName()
	}
	return "BINARY"
}
