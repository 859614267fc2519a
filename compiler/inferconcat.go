package compiler

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/binlite/binlite/catalog"
	mp "github.com/binlite/binlite/mysqlproto"
)

// concatType is CONCAT's and CONCAT_WS's result type as MySQL works it out
// (Item_func_concat::resolve_type): text as long as its arguments' text together
// (a number counts its display width), binary when an argument is a binary
// string, NOT NULL when every argument is (CONCAT). CREATE TABLE ... SELECT makes
// its column from it. ok=false where an argument's length is not known.
func (c *compiler) concatType(name string, x *ast.FuncCallExpr, s *scope) (ColType, bool) {
	if name != "concat" && name != "concat_ws" || len(x.Args) == 0 {
		return ColType{}, false
	}
	var chars uint64
	notNull := true
	for i, a := range x.Args {
		t := c.expr(a, s)
		n, ok := textLength(t)
		if !ok {
			return ColType{}, false
		}
		if name == "concat_ws" && i == 0 && len(x.Args) > 2 {
			n *= uint64(len(x.Args) - 2) // the separator goes between the others
		}
		chars += n
		notNull = notNull && t.Flags&mp.NotNullFlag != 0
	}
	t := c.resultString(chars, s, x.Args...)
	if notNull && name == "concat" {
		t.Flags |= mp.NotNullFlag
	}
	return t, true
}

// textLength is how many characters the text of a value of type t takes at most.
func textLength(t ColType) (uint64, bool) {
	switch {
	case t.Type == mp.TypeNull:
		return 0, true
	case !t.Known() || t.Length == 0:
		return 0, false
	case t.isString() && t.Charset != mp.CharsetBinary:
		return uint64(t.Length / catalog.MaxCharBytes(catalog.CharsetOf(collationName(t.Charset)))), true
	}
	return uint64(t.Length), true
}
