package compiler

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/collation"
	mp "github.com/binlite/binlite/mysqlproto"
)

// Collation derivation (manual 12.8.4): the collation an operation on strings
// compares by and gives its result, from its arguments' collations and
// coercibility: an explicit COLLATE (0) beats a column's (2), which beats a
// literal's or a function of literals' (4); numbers (5) and NULL (6) have
// none to offer. Between two of the same strength in one character set a
// _bin collation wins. A binary string makes the operation binary.

// derived is one expression's derivation.
type derived struct {
	coll string
	coer int
}

// derivation is an expression's collation and MySQL's coercibility of it,
// worked out once per expression of a compilation.
func (c *compiler) derivation(x ast.ExprNode, s *scope) (string, int) {
	k := typedKey{x, s}
	if d, ok := c.derived[k]; ok {
		return d.coll, d.coer
	}
	coll, coer := c.derive(x, s)
	if c.derived == nil {
		c.derived = map[typedKey]derived{}
	}
	c.derived[k] = derived{coll, coer}
	return coll, coer
}

func (c *compiler) derive(x ast.ExprNode, s *scope) (string, int) {
	switch x := x.(type) {
	case *ast.ParenthesesExpr:
		return c.derivation(x.Expr, s)
	case *ast.SetCollationExpr:
		if coll, ok := collation.Lookup(x.Collate); ok {
			return coll.Name, 0
		}
	case *ast.ColumnNameExpr:
		if s != nil {
			if col := s.catalogColumn(x.Name); col != nil {
				if col.Type.IsBinary() {
					return "binary", 2
				}
				if col.Type.IsTextual() && col.Type.Collation != "" {
					return collation.Canonical(col.Type.Collation), 2
				}
			}
		}
	case *driver.ValueExpr:
		switch {
		case x.Kind() == driver.KindNull:
			return "binary", 6
		case x.Kind() == driver.KindString && x.Type.GetCharset() != "binary":
			return c.connCollation(), 4
		}
	case *ast.FuncCallExpr:
		if t := c.expr(x, s); t.Charset == collationID("utf8mb4_bin") {
			return "utf8mb4_bin", 4 // JSON_UNQUOTE, ->>: utf8mb4_bin, stronger than a literal's
		}
		var args []ast.ExprNode
		for _, a := range x.Args {
			if c.expr(a, s).isString() {
				args = append(args, a)
			}
		}
		if len(args) > 0 && c.expr(x, s).isString() {
			return c.aggregateCollation(s, args...)
		}
	}
	t := c.expr(x, s)
	switch {
	case binaryString(t):
		return "binary", 4
	case t.isString():
		return c.connCollation(), 4
	}
	return "binary", 5
}

// aggregateCollation is the collation and coercibility of an operation on xs.
func (c *compiler) aggregateCollation(s *scope, xs ...ast.ExprNode) (string, int) {
	best, bestCoer := "", 7
	for _, x := range xs {
		coll, coer := c.derivation(x, s)
		switch {
		case coll == "binary" && coer < 5:
			return "binary", coer
		case coer < bestCoer, coer == bestCoer && strings.HasSuffix(coll, "_bin") && !strings.HasSuffix(best, "_bin"):
			best, bestCoer = coll, coer
		}
	}
	if best == "" {
		return c.connCollation(), 6
	}
	return best, bestCoer
}

// argCollation is the collation MySQL compares string arguments by ("binary"
// when one is a binary string).
func (e *emitter) argCollation(s *scope, xs ...ast.ExprNode) string {
	coll, _ := e.c.aggregateCollation(s, xs...)
	if coll == "binary" {
		for _, x := range xs {
			if binaryString(e.typeOf(x, s)) {
				return "binary"
			}
		}
		return e.c.connCollation() // only NULLs and numbers
	}
	return coll
}

// connCollation is the connection's collation (utf8mb4_general_ci, binlite's
// default, when there is none or binlite does not know it).
func (c *compiler) connCollation() string {
	if _, ok := collation.Lookup(c.collation); ok {
		return collation.Canonical(c.collation)
	}
	return "utf8mb4_general_ci"
}

// resultString is the type of a string result of at most chars characters
// from an operation on xs: binary when one is a binary string (or when all
// are NULL), else in the derived collation, flagged BINARY for a _bin one as
// MySQL flags such a column.
func (c *compiler) resultString(chars uint64, s *scope, xs ...ast.ExprNode) ColType {
	binary, null, other := false, false, false
	for _, x := range xs {
		t := c.expr(x, s)
		switch {
		case binaryString(t):
			binary = true
		case t.Type == mp.TypeNull:
			null = true
		default:
			other = true
		}
	}
	if binary || null && !other {
		return stringResult(min(chars, maxBlobChars), mp.CharsetBinary)
	}
	coll, _ := c.aggregateCollation(s, xs...)
	t := stringResult(min(chars, maxBlobChars), typeVarchar.Charset)
	if strings.HasSuffix(coll, "_bin") {
		t.Charset = collationID(coll)
		t.Flags |= mp.BinaryFlag
	}
	return t
}
