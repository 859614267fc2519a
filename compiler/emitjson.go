package compiler

import "github.com/pingcap/tidb/pkg/parser/ast"

// jsonCall renders MySQL's JSON functions: it reports false for the others.
func (e *emitter) jsonCall(name string, x *ast.FuncCallExpr, s *scope) bool {
	switch name {
	case "json_extract":
		// MySQL's JSON_EXTRACT (and ->) answers JSON text, as SQLite's -> does.
		if len(x.Args) == 2 {
			e.w("(")
			e.expr(x.Args[0], s)
			e.w(" -> ")
			e.expr(x.Args[1], s)
			e.w(")")
			return true
		}
	case "json_unquote":
		// col->>path is JSON_UNQUOTE(JSON_EXTRACT(col, path)): SQLite's ->>.
		if f, ok := x.Args[0].(*ast.FuncCallExpr); ok && len(x.Args) == 1 && f.FnName.L == "json_extract" && len(f.Args) == 2 {
			e.w("(")
			e.expr(f.Args[0], s)
			e.w(" ->> ")
			e.expr(f.Args[1], s)
			e.w(")")
			return true
		}
	}
	return false
}
