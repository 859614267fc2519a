package compiler

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/collation"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/mysqljson"
	mp "github.com/binlite/binlite/mysqlproto"
)

// jsonArity is how many arguments MySQL's JSON functions take: at least min,
// at most max (-1: no limit), and for pairs an odd or even count.
var jsonArity = map[string]struct {
	min, max int
	parity   int // 0: any; 1: odd; 2: even
}{
	"json_extract": {2, -1, 0}, "json_unquote": {1, 1, 0}, "json_type": {1, 1, 0}, "json_valid": {1, 1, 0},
	"json_object": {0, -1, 2}, "json_array": {0, -1, 0}, "json_set": {3, -1, 1}, "json_insert": {3, -1, 1},
	"json_replace": {3, -1, 1}, "json_array_append": {3, -1, 1}, "json_array_insert": {3, -1, 1},
	"json_remove": {2, -1, 0}, "json_contains": {2, 3, 0}, "json_contains_path": {3, -1, 0},
	"json_length": {1, 2, 0}, "json_depth": {1, 1, 0}, "json_keys": {1, 2, 0}, "json_quote": {1, 1, 0},
	"json_merge_patch": {2, -1, 0}, "json_merge_preserve": {2, -1, 0}, "json_merge": {2, -1, 0},
	"json_search": {3, -1, 0}, "json_overlaps": {2, 2, 0}, "json_memberof": {2, 2, 0}, "json_pretty": {1, 1, 0},
}

// jsonValueArgs says which arguments of a function are values put into a
// document (converted by their SQL type, see mysqljson.Sig*), by position from 0.
func jsonValueArgs(name string) func(int) bool {
	switch name {
	case "json_array":
		return func(int) bool { return true }
	case "json_object":
		return func(i int) bool { return i%2 == 1 }
	case "json_set", "json_insert", "json_replace", "json_array_append", "json_array_insert":
		return func(i int) bool { return i > 0 && i%2 == 0 }
	case "json_memberof":
		return func(i int) bool { return i == 0 }
	}
	return func(int) bool { return false }
}

// jsonCall renders MySQL's JSON functions as mysqljson's (registered by the
// engine): SQLite's namesakes answer differently (their text, types, paths and
// errors), so a JSON function binlite lacks is refused rather than left to them.
func (e *emitter) jsonCall(name string, x *ast.FuncCallExpr, s *scope) bool {
	if !strings.HasPrefix(name, "json_") {
		return false
	}
	ar, ok := jsonArity[name]
	if !ok {
		e.fail(mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support '%s'", strings.ToUpper(name)))
		return true
	}
	n := len(x.Args)
	if n < ar.min || ar.max >= 0 && n > ar.max || ar.parity == 1 && n%2 == 0 || ar.parity == 2 && n%2 == 1 {
		e.fail(mysqlerr.New(mysqlerr.ErWrongParamcountToNative, "Incorrect parameter count in the call to native function '%s'", strings.ToUpper(name)))
		return true
	}
	if name == "json_merge" {
		e.notes = append(e.notes, mysqlerr.Warn(warnDeprecatedSyntax, "'JSON_MERGE' is deprecated and will be removed in a future release. Please use JSON_MERGE_PRESERVE/JSON_MERGE_PATCH instead"))
		name = "json_merge_preserve"
	}
	// The signature first: what each argument is (see mysqljson.Sig*).
	sig := make([]byte, n)
	for i, a := range x.Args {
		sig[i] = e.jsonSig(a, s)
	}
	e.w(mysqljson.SQLName(name) + "(" + sqlString(string(sig)))
	isValue := jsonValueArgs(name)
	for i, a := range x.Args {
		e.w(", ")
		if isValue(i) && sig[i] == mysqljson.SigDecimal {
			e.decArg(a, s)
			continue
		}
		e.expr(a, s)
	}
	e.w(")")
	return true
}

// jsonSig is the signature letter of a value MySQL converts to JSON: JSON stays
// what it is, a truth value is a boolean, a DECIMAL a decimal number, the rest by
// its SQL value (numbers, strings).
func (e *emitter) jsonSig(x ast.ExprNode, s *scope) byte {
	t := e.typeOf(x, s)
	switch {
	case t.Type == mp.TypeJSON:
		return mysqljson.SigJSON
	case truthValue(x):
		return mysqljson.SigBool
	case t.isDecimal():
		return mysqljson.SigDecimal
	}
	return mysqljson.SigSQL
}

// truthValue: MySQL's TRUE and FALSE, and expressions that answer true or false.
func truthValue(x ast.ExprNode) bool {
	switch x := x.(type) {
	case *ast.ParenthesesExpr:
		return truthValue(x.Expr)
	case *driver.ValueExpr:
		return mysql.HasIsBooleanFlag(x.Type.GetFlag())
	case *ast.BinaryOperationExpr:
		switch x.Op {
		case opcode.EQ, opcode.NE, opcode.LT, opcode.LE, opcode.GT, opcode.GE, opcode.NullEQ,
			opcode.LogicAnd, opcode.LogicOr, opcode.LogicXor:
			return true
		}
	case *ast.UnaryOperationExpr:
		return x.Op == opcode.Not || x.Op == opcode.Not2
	case *ast.IsNullExpr, *ast.IsTruthExpr, *ast.PatternInExpr, *ast.PatternLikeOrIlikeExpr,
		*ast.BetweenExpr, *ast.ExistsSubqueryExpr, *ast.PatternRegexpExpr:
		return true
	}
	return false
}

// jsonValue renders x converted to JSON text as MySQL converts a value written
// into a JSON column or compared with JSON.
func (e *emitter) jsonOperand(x ast.ExprNode, s *scope) byte {
	sig := e.jsonSig(x, s)
	if sig == mysqljson.SigDecimal {
		e.decArg(x, s)
	} else {
		e.expr(x, s)
	}
	return sig
}

// jsonCompare renders a comparison with a JSON side as MySQL compares JSON
// values (a string is a JSON string, numbers by value, mysqljson.Compare): it
// reports false when neither side is JSON.
func (e *emitter) jsonCompare(x *ast.BinaryOperationExpr, op string, s *scope) bool {
	switch x.Op {
	case opcode.EQ, opcode.NE, opcode.LT, opcode.LE, opcode.GT, opcode.GE, opcode.NullEQ:
	default:
		return false
	}
	if e.typeOf(x.L, s).Type != mp.TypeJSON && e.typeOf(x.R, s).Type != mp.TypeJSON {
		return false
	}
	cmp := func() {
		e.w(mysqljson.SQLName("json_cmp") + "(")
		sig := []byte{e.jsonSig(x.L, s), e.jsonSig(x.R, s)}
		e.w(sqlString(string(sig)) + ", ")
		e.jsonOperand(x.L, s)
		e.w(", ")
		e.jsonOperand(x.R, s)
		e.w(")")
	}
	if x.Op == opcode.NullEQ {
		e.w("coalesce(")
		cmp()
		e.w(" = 0, (")
		e.expr(x.L, s)
		e.w(") IS NULL AND (")
		e.expr(x.R, s)
		e.w(") IS NULL)")
		return true
	}
	e.w("(")
	cmp()
	e.w(" " + op + " 0)")
	return true
}

// jsonStore renders a value written into JSON column col as the column keeps it:
// MySQL's text of the document (3140 for what is not JSON text).
func (e *emitter) jsonStore(x ast.ExprNode, col string, s *scope) {
	e.jsonStoreAs(x, e.jsonSig(x, s), col, s)
}

// jsonStoreAs is jsonStore of a value whose signature letter is sig.
func (e *emitter) jsonStoreAs(x ast.ExprNode, sig byte, col string, s *scope) {
	e.w(mysqljson.SQLName("json_store") + "(" + sqlString(string(sig)) + ", ")
	if sig == mysqljson.SigDecimal {
		e.decArg(x, s)
	} else {
		e.expr(x, s)
	}
	e.w(", " + sqlString(col) + ")")
}

// jsonLiteral renders a literal written into JSON column col: its text as MySQL
// stores it, worked out here; MySQL's error for what is not JSON text.
func (e *emitter) jsonLiteral(v *driver.ValueExpr, col string) bool {
	switch v.Kind() {
	case driver.KindNull:
		return false
	case driver.KindString:
		if v.Type.GetCharset() == "binary" {
			return false
		}
		text, err := mysqljson.Store(v.GetString(), col)
		if err != nil {
			e.fail(err)
			return true
		}
		e.w(sqlString(text))
		return true
	}
	e.fail(mysqlerr.New(mysqlerr.ErInvalidJSONText, "Invalid JSON text: \"not a JSON text, may need CAST\" at position 0 in value for column '%s'.", col))
	return true
}

// jsonCast renders CAST(x AS JSON).
func (e *emitter) jsonCast(x ast.ExprNode, s *scope) {
	e.w(mysqljson.SQLName("json_cast") + "(")
	sig := e.jsonSig(x, s)
	e.w(sqlString(string(sig)) + ", ")
	e.jsonOperand(x, s)
	e.w(")")
}

// binCollatedString is a string result in utf8mb4_bin of at most chars
// characters: a binary collation, so MySQL sets the BINARY flag.
func binCollatedString[N int | uint64](chars N) ColType {
	t := stringResult(uint64(chars), collationID("utf8mb4_bin"))
	t.Flags |= mp.BinaryFlag
	return t
}

// jsonType is the result type of MySQL's JSON functions; ok=false for others.
func (c *compiler) jsonType(name string, x *ast.FuncCallExpr, s *scope) (ColType, bool) {
	switch name {
	case "json_extract", "json_object", "json_array", "json_set", "json_insert", "json_replace", "json_remove",
		"json_merge", "json_merge_patch", "json_merge_preserve", "json_keys", "json_array_append",
		"json_array_insert", "json_search":
		return columnType(catalogJSON), true
	case "json_pretty":
		return binCollatedString(4294967295), true
	case "json_type":
		return binCollatedString(len("UNSIGNED INTEGER") + 1), true
	case "json_unquote", "json_quote":
		// As long as the argument (in characters); JSON_QUOTE may escape each one.
		if len(x.Args) != 1 {
			return ColType{}, false
		}
		t := c.expr(x.Args[0], s)
		chars := uint64(t.Length)
		if !binaryString(t) && t.Type != mp.TypeJSON {
			chars /= 4
		}
		if t.Type == mp.TypeJSON || !t.Known() || t.Length == 0 && t.Type != mp.TypeNull {
			chars = 4294967295
		}
		if name == "json_quote" {
			chars = 6*chars + 2
		}
		return binCollatedString(chars), true
	case "json_length", "json_depth", "json_valid", "json_contains", "json_contains_path", "json_overlaps", "json_memberof":
		return typeBigint, true
	}
	return ColType{}, false
}

// warnDeprecatedSyntax is ER_WARN_DEPRECATED_SYNTAX.
const warnDeprecatedSyntax = 1287

var catalogJSON = catalog.Type{Base: "json"}

// binCollated finds, among strings compared, a function result MySQL gives the
// utf8mb4_bin collation (JSON_UNQUOTE and ->>, JSON_TYPE, JSON_QUOTE): its
// collation is stronger than a literal's, so the comparison is by bytes.
func (e *emitter) binCollated(s *scope, xs ...ast.ExprNode) (*collation.Collation, bool) {
	for _, x := range xs {
		if _, ok := x.(*ast.FuncCallExpr); ok && e.typeOf(x, s).Charset == collationID("utf8mb4_bin") {
			return collation.Lookup("utf8mb4_bin")
		}
	}
	return nil, false
}

// jsonAggregate renders JSON_ARRAYAGG(value) and JSON_OBJECTAGG(key, value) as
// mysqljson's aggregates, with the signature of their arguments.
func (e *emitter) jsonAggregate(name string, x *ast.AggregateFuncExpr, s *scope) {
	want := map[string]int{"json_arrayagg": 1, "json_objectagg": 2}[name]
	if len(x.Args) != want || x.Distinct || x.Order != nil {
		e.fail(notYet("%s with these arguments", name))
		return
	}
	sig := make([]byte, len(x.Args))
	for i, a := range x.Args {
		sig[i] = e.jsonSig(a, s)
	}
	e.w(mysqljson.SQLName(name) + "(" + sqlString(string(sig)))
	for i, a := range x.Args {
		e.w(", ")
		if sig[i] == mysqljson.SigDecimal {
			e.decArg(a, s)
		} else {
			e.expr(a, s)
		}
	}
	e.w(")")
}

// jsonIn rewrites x [NOT] IN (a, b, ...) where x is JSON as comparisons of JSON
// values (x = a OR x = b ...), as MySQL compares each item with x.
func (e *emitter) jsonIn(x ast.ExprNode, s *scope) (ast.ExprNode, bool) {
	in, ok := x.(*ast.PatternInExpr)
	if !ok || in.Sel != nil || len(in.List) == 0 || e.typeOf(in.Expr, s).Type != mp.TypeJSON {
		return nil, false
	}
	var or ast.ExprNode
	for _, item := range in.List {
		eq := &ast.BinaryOperationExpr{Op: opcode.EQ, L: in.Expr, R: item}
		if or == nil {
			or = eq
		} else {
			or = &ast.BinaryOperationExpr{Op: opcode.LogicOr, L: or, R: eq}
		}
	}
	or = &ast.ParenthesesExpr{Expr: or}
	if in.Not {
		return &ast.UnaryOperationExpr{Op: opcode.Not, V: or}, true
	}
	return or, true
}
