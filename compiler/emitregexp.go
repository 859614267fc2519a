package compiler

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/binlite/binlite/collation"
)

// MySQL's regular expressions (manual 14.8.2): expr REGEXP pattern, RLIKE and
// the REGEXP_ functions, matched by the engine (engine/regexpfuncs.go), case
// sensitive or not as the arguments' collation compares ("c" or "i", "b" for
// bytes when one is a binary string) unless the match type says otherwise.

// regexpCase is the default match type of a subject and pattern.
func (e *emitter) regexpCase(s *scope, xs ...ast.ExprNode) string {
	name := e.argCollation(s, xs...)
	if name == "binary" {
		return "'b'"
	}
	c, ok := collation.Lookup(name)
	if !ok || strings.HasSuffix(c.Name, "_bin") || strings.HasSuffix(c.Name, "_cs") {
		return "'c'"
	}
	return "'i'"
}

// regexpMatch renders expr [NOT] REGEXP pattern.
func (e *emitter) regexpMatch(x *ast.PatternRegexpExpr, s *scope) {
	e.w("(")
	if x.Not {
		e.w("NOT ")
	}
	e.w("binlite_regexp_like(")
	e.digitArg(x.Expr, s)
	e.w(", ")
	e.digitArg(x.Pattern, s)
	e.w(", " + e.regexpCase(s, x.Expr, x.Pattern) + ", ''))")
}

// regexpArity are the REGEXP_ functions' argument counts.
var regexpArity = map[string][2]int{
	"regexp_like": {2, 3}, "regexp_instr": {2, 6}, "regexp_replace": {3, 6}, "regexp_substr": {2, 5},
}

// regexpCall renders REGEXP_LIKE, REGEXP_INSTR, REGEXP_REPLACE and
// REGEXP_SUBSTR: binlite_<name>(subject, pattern, [replacement,] the
// optional arguments with MySQL's defaults, default case, match type).
func (e *emitter) regexpCall(name string, x *ast.FuncCallExpr, s *scope) {
	ar := regexpArity[name]
	if !e.arity(name, x, ar[0], ar[1]) {
		return
	}
	args := x.Args
	fixed := 2 // subject, pattern
	if name == "regexp_replace" {
		fixed = 3
	}
	// the optional arguments before the match type, with MySQL's defaults
	defaults := map[string][]string{
		"regexp_like": nil, "regexp_instr": {"1", "1", "0"}, "regexp_replace": {"1", "0"}, "regexp_substr": {"1", "1"},
	}[name]
	e.w("binlite_" + name + "(")
	for i := 0; i < fixed; i++ {
		if i > 0 {
			e.w(", ")
		}
		e.digitArg(args[i], s)
	}
	for i, d := range defaults {
		e.w(", ")
		if fixed+i < len(args) {
			e.expr(args[fixed+i], s)
		} else {
			e.w(d)
		}
	}
	e.w(", " + e.regexpCase(s, args[0], args[1]) + ", ")
	if n := fixed + len(defaults); n < len(args) {
		e.digitArg(args[n], s)
	} else {
		e.w("''")
	}
	e.w(")")
}
