package compiler

import (
	"math"
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/pingcap/tidb/pkg/parser/types"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
	mp "github.com/binlite/binlite/mysqlproto"
)

// Binary strings (BINARY, VARBINARY, BLOB, X'..', _binary '...') are bytes: SQLite
// keeps them as BLOBs, which compare with each other byte by byte but never
// equal a TEXT. MySQL compares a binary string with a character string as bytes,
// so the text side becomes a BLOB; case functions leave bytes alone.

const fnBinaryCast = "binlite_binary_cast"

// binaryString: a string type of the binary character set (not JSON).
func binaryString(t ColType) bool {
	return t.isString() && t.Type != mp.TypeJSON && t.Charset == mp.CharsetBinary
}

// asBytes: x is compared with a binary string as bytes (a character string, or
// a value whose type is not known, like a parameter).
func (e *emitter) asBytes(x ast.ExprNode, s *scope) bool {
	t := e.typeOf(x, s)
	return !binaryString(t) && (t.isString() || !t.Known())
}

// binaryCompare renders a comparison of a binary string with a character string
// as a comparison of bytes; it reports false for other comparisons.
func (e *emitter) binaryCompare(x *ast.BinaryOperationExpr, op string, s *scope) bool {
	switch x.Op {
	case opcode.EQ, opcode.NE, opcode.LT, opcode.LE, opcode.GT, opcode.GE, opcode.NullEQ:
	default:
		return false
	}
	lt, rt := e.typeOf(x.L, s), e.typeOf(x.R, s)
	if n, ok := hexNumber(x.L); ok && numeric(rt) {
		e.w("(" + n + " " + op + " ")
		e.expr(x.R, s)
		e.w(")")
		return true
	}
	if n, ok := hexNumber(x.R); ok && numeric(lt) {
		e.w("(")
		e.expr(x.L, s)
		e.w(" " + op + " " + n + ")")
		return true
	}
	lb, rb := binaryString(lt), binaryString(rt)
	castL, castR := rb && e.asBytes(x.L, s), lb && e.asBytes(x.R, s)
	if !castL && !castR {
		return false
	}
	e.w("(")
	e.blobOperand(x.L, s, castL)
	e.w(" " + op + " ")
	e.blobOperand(x.R, s, castR)
	e.w(")")
	return true
}

func (e *emitter) blobOperand(x ast.ExprNode, s *scope, cast bool) {
	if !cast {
		e.expr(x, s)
		return
	}
	if v, ok := x.(*driver.ValueExpr); ok && v.Kind() == driver.KindString {
		e.w(blobLiteral([]byte(v.GetString())))
		return
	}
	e.w("CAST(")
	e.expr(x, s)
	e.w(" AS BLOB)")
}

// binaryStore renders a computed value written into a binary string column:
// as bytes, a BINARY(n) padded with NULs to n bytes as MySQL stores it.
func (e *emitter) binaryStore(x ast.ExprNode, col *catalog.Column, s *scope) {
	if col.Type.Base == "binary" {
		e.w("binlite_binary_pad(")
		e.expr(x, s)
		e.w(", " + strconv.Itoa(col.Type.Length) + ")")
		return
	}
	e.w("CAST(")
	e.expr(x, s)
	e.w(" AS BLOB)")
}

// binaryCast renders CAST(x AS BINARY(n)): the bytes cut or padded with NULs to
// n. A literal longer than n is cut with MySQL's warning (1292); the engine's
// function refuses to cut a computed value (1235), which it cannot warn about.
func (e *emitter) binaryCast(x ast.ExprNode, n int, s *scope) {
	if v, ok := x.(*driver.ValueExpr); ok && (v.Kind() == driver.KindString || v.Kind() == driver.KindBytes || v.Kind() == driver.KindBinaryLiteral && !e.bitLiteral(v)) {
		b := []byte(v.GetString())
		if v.Kind() == driver.KindBinaryLiteral {
			b = v.GetBytes()
		}
		if len(b) > n {
			e.notes = append(e.notes, mysqlerr.Warn(mysqlerr.ErTruncatedWrongValue, "Truncated incorrect BINARY(%d) value: '%s'", n, b))
			b = b[:n]
		}
		e.w(blobLiteral(append(b, make([]byte, n-len(b))...)))
		return
	}
	e.w(fnBinaryCast + "(")
	e.expr(x, s)
	e.w(", " + strconv.Itoa(n) + ")")
}

// binaryCall renders the string functions that treat a binary string as bytes:
// UPPER/LOWER leave it as it is, CHAR_LENGTH counts its bytes. It reports false
// for other calls.
func (e *emitter) binaryCall(name string, x *ast.FuncCallExpr, s *scope) bool {
	if len(x.Args) != 1 || !binaryString(e.typeOf(x.Args[0], s)) {
		return false
	}
	switch name {
	case "upper", "lower", "ucase", "lcase":
		e.w("(")
		e.expr(x.Args[0], s)
		e.w(")")
		return true
	case "char_length", "character_length":
		e.w("length(CAST(")
		e.expr(x.Args[0], s)
		e.w(" AS BLOB))")
		return true
	}
	return false
}

// stringResult is the type MySQL gives a string function's result of at most
// chars characters in charset cs (a collation id): VARCHAR up to 65,535 bytes,
// then MEDIUMTEXT/MEDIUMBLOB, then LONGTEXT/LONGBLOB.
func stringResult(chars uint64, cs uint16) ColType {
	bytes := chars
	if cs != mp.CharsetBinary {
		bytes *= 4
	}
	var t ColType
	switch {
	case bytes > 16777215:
		t = ColType{Type: mp.TypeLongBlob, Flags: mp.BlobFlag, Length: 4294967295}
	case bytes > 65535:
		t = ColType{Type: mp.TypeMediumBlob, Flags: mp.BlobFlag, Length: uint32(bytes)}
	default:
		t = ColType{Type: mp.TypeVarString, Length: uint32(bytes)}
	}
	t.Charset = cs
	if cs == mp.CharsetBinary {
		t.Flags |= mp.BinaryFlag
	}
	return t
}

// stringFuncType types the string functions whose result follows their
// argument: HEX (two characters a byte), UPPER/LOWER of a binary string (bytes).
func (c *compiler) stringFuncType(name string, x *ast.FuncCallExpr, s *scope) (ColType, bool) {
	if len(x.Args) != 1 {
		return ColType{}, false
	}
	arg := c.expr(x.Args[0], s)
	switch name {
	case "hex":
		if !arg.isString() || arg.Length == 0 {
			return ColType{}, false
		}
		return stringResult(2*uint64(arg.Length), mp.CharsetUTF8MB40900), true
	case "upper", "lower", "ucase", "lcase":
		if !binaryString(arg) {
			return ColType{}, false
		}
		return stringResult(uint64(arg.Length), mp.CharsetBinary), true
	}
	return ColType{}, false
}

// binaryIn rewrites bytes IN (items) so that character string items are
// compared as bytes, as in binaryCompare.
func (e *emitter) binaryIn(x ast.ExprNode, s *scope) (ast.ExprNode, bool) {
	in, ok := x.(*ast.PatternInExpr)
	if !ok || in.Sel != nil || !binaryString(e.typeOf(in.Expr, s)) {
		return nil, false
	}
	c := *in
	c.List = make([]ast.ExprNode, len(in.List))
	changed := false
	for i, item := range in.List {
		c.List[i] = item
		if e.asBytes(item, s) {
			tp := types.NewFieldType(mysql.TypeVarString)
			tp.SetCharset("binary")
			c.List[i] = &ast.FuncCastExpr{Expr: item, Tp: tp, FunctionType: ast.CastFunction}
			changed = true
		}
	}
	return &c, changed
}

// binaryLike rewrites bytes LIKE pattern as the engine's byte-wise LIKE:
// SQLite's folds ASCII letters, MySQL compares binary strings exactly.
func (e *emitter) binaryLike(x ast.ExprNode, s *scope) (ast.ExprNode, bool) {
	l, ok := x.(*ast.PatternLikeOrIlikeExpr)
	if !ok || !l.IsLike || !binaryString(e.typeOf(l.Expr, s)) && !binaryString(e.typeOf(l.Pattern, s)) {
		return nil, false
	}
	esc := &driver.ValueExpr{}
	esc.SetValue(e.likeEscape(l))
	var y ast.ExprNode = &ast.FuncCallExpr{FnName: ast.NewCIStr("binlite_like_bytes"), Args: []ast.ExprNode{l.Expr, l.Pattern, esc}}
	if l.Not {
		y = &ast.UnaryOperationExpr{Op: opcode.Not, V: y}
	}
	return y, true
}

// likeEscape is LIKE's escape character, "" for none: ESCAPE's, else \ unless
// NO_BACKSLASH_ESCAPES, where LIKE has none (ESCAPE ” has none too).
func (e *emitter) likeEscape(l *ast.PatternLikeOrIlikeExpr) string {
	if l.Escape == 0 || !l.EscapeExplicit && e.c.mode.NoBackslashEscapes {
		return ""
	}
	return string(l.Escape)
}

// hexNumber is a hexadecimal literal's value where MySQL compares it with a
// number: its bytes as a big-endian unsigned integer (X'41' = 65).
func hexNumber(x ast.ExprNode) (string, bool) {
	v, ok := x.(*driver.ValueExpr)
	if !ok || v.Kind() != driver.KindBinaryLiteral || len(v.GetBytes()) > 8 {
		return "", false
	}
	var n uint64
	for _, c := range v.GetBytes() {
		n = n<<8 | uint64(c)
	}
	if n > math.MaxInt64 {
		return sqlString(strconv.FormatUint(n, 10)), true
	}
	return strconv.FormatUint(n, 10), true
}
