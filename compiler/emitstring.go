package compiler

import "github.com/pingcap/tidb/pkg/parser/ast"

// stringCall renders MySQL's string functions whose SQLite namesake answers
// differently: it reports false for the others.
func (e *emitter) stringCall(name string, x *ast.FuncCallExpr, s *scope) bool {
	if e.binaryCall(name, x, s) {
		return true
	}
	switch name {
	case "find_in_set":
		return e.findInSet(x, s)
	case "hex":
		// A DECIMAL (exact text) is a number to MySQL's HEX: rounded, as a BIGINT.
		if len(x.Args) != 1 || !e.typeOf(x.Args[0], s).isDecimal() {
			return false
		}
		e.w("hex(round(")
		e.decArg(x.Args[0], s)
		e.w("))")
		return true
	case "length", "octet_length":
		// MySQL's LENGTH counts bytes; SQLite's counts characters of text.
		if len(x.Args) != 1 {
			return false
		}
		e.w("length(CAST(")
		e.digitArg(x.Args[0], s)
		e.w(" AS BLOB))")
		return true
	}
	return false
}
