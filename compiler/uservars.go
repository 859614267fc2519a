package compiler

import (
	"sort"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"

	"github.com/binlite/binlite/decimal"
)

// UserVars reads a session's user variables (@name, by lower-case name): nil
// for one never set. Values are int64, uint64, float64, decimal.Exact, string
// (text in the connection's character set), []byte (a binary string) or nil.
//
// A statement that reads user variables is compiled for their values at the
// time: each read becomes a literal of the variable's value and type (an INT
// variable reads as an integer, a DECIMAL one as an exact decimal, an unset one
// as a NULL binary string), and the values are part of the plan's cache key
// (varsKey). A statement that assigns one (@v := expr) is left to sqlcompat,
// whose order of evaluation it depends on.
type UserVars func(name string) any

// TypedNull is the value of a user variable set to NULL after it held a value:
// MySQL keeps the variable's type (an INT variable set to NULL still reads as a
// BIGINT). Its value names the kind of the value it held: see NullOf.
type TypedNull byte

// The kinds of TypedNull.
const (
	nullUntyped TypedNull = iota
	NullInt
	NullUint
	NullReal
	NullString
)

// NullOf is what SET @v = NULL leaves in a variable that held v: a TypedNull of
// v's kind, or nil where the NULL is untyped (never set, a binary string, a
// DECIMAL).
func NullOf(v any) any {
	switch x := v.(type) {
	case int64:
		return NullInt
	case uint64:
		return NullUint
	case float64:
		return NullReal
	case string:
		return NullString
	case TypedNull:
		return x
	}
	return nil
}

// varsKey is the part of a cache key that the user variables the text may read
// decide: "" for a text without '@' (the common case costs one scan), else each
// name the text could name with its value's type and value. A name read inside
// a string literal ('a@b.c') only adds to the key.
func varsKey(sql string, vars UserVars) string {
	if vars == nil || strings.IndexByte(sql, '@') < 0 {
		return ""
	}
	var names []string
	for i := 0; i < len(sql); i++ {
		if sql[i] != '@' {
			continue
		}
		if i+1 < len(sql) && sql[i+1] == '@' {
			i++
			for i+1 < len(sql) && isVarChar(sql[i+1]) {
				i++ // a system variable
			}
			continue
		}
		j := i + 1
		if j < len(sql) && (sql[j] == '`' || sql[j] == '\'' || sql[j] == '"') {
			// @`name`: up to the closing quote (a doubled quote stays in the name)
			q := sql[j]
			end := strings.IndexByte(sql[j+1:], q)
			if end < 0 {
				break
			}
			names = append(names, strings.ToLower(sql[j+1:j+1+end]))
			i = j + 1 + end
			continue
		}
		for j < len(sql) && isVarChar(sql[j]) {
			j++
		}
		if j > i+1 {
			names = append(names, strings.ToLower(sql[i+1:j]))
		}
		i = j - 1
	}
	sort.Strings(names)
	var b strings.Builder
	for k, n := range names {
		if k > 0 && names[k-1] == n {
			continue
		}
		b.WriteString(n)
		b.WriteByte('=')
		b.WriteString(varText(vars(n)))
		b.WriteByte(';')
	}
	return b.String()
}

func isVarChar(c byte) bool {
	return c == '_' || c == '$' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// varText spells a value with its type for varsKey.
func varText(v any) string {
	switch x := v.(type) {
	case nil:
		return "n"
	case TypedNull:
		return "N" + strconv.Itoa(int(x))
	case int64:
		return "i" + strconv.FormatInt(x, 10)
	case uint64:
		return "u" + strconv.FormatUint(x, 10)
	case float64:
		return "f" + strconv.FormatFloat(x, 'g', -1, 64)
	case decimal.Exact:
		return "d" + string(x)
	case string:
		return "s" + strconv.Quote(x)
	case []byte:
		return "b" + strconv.Quote(string(x))
	}
	return "?"
}

// bindUserVars replaces the reads of user variables in stmt by literals of
// their values (see UserVars); false if the statement assigns one or reads a
// value of a type it does not bind.
func bindUserVars(stmt ast.Node, vars UserVars) bool {
	b := &varBinder{vars: vars, ok: true}
	stmt.Accept(b)
	return b.ok
}

type varBinder struct {
	vars UserVars
	ok   bool
}

func (b *varBinder) Enter(n ast.Node) (ast.Node, bool) { return n, false }

func (b *varBinder) Leave(n ast.Node) (ast.Node, bool) {
	v, isVar := n.(*ast.VariableExpr)
	if !isVar || v.IsSystem {
		return n, true
	}
	if v.Value != nil || b.vars == nil {
		b.ok = false
		return n, true
	}
	lit, ok := varLiteral(b.vars(strings.ToLower(v.Name)))
	if !ok {
		b.ok = false
		return n, true
	}
	return lit, true
}

// varLiteral is the literal a variable's value reads as.
func varLiteral(v any) (ast.ValueExpr, bool) {
	switch x := v.(type) {
	case nil:
		// MySQL types a variable never set as a NULL binary string (LONGBLOB).
		ve := ast.NewValueExpr(nil, "binary", "binary")
		ve.GetType().SetType(mysql.TypeLongBlob)
		return ve, true
	case TypedNull:
		ve := ast.NewValueExpr(nil, "binary", "binary")
		switch x {
		case NullInt:
			ve.GetType().SetType(mysql.TypeLonglong)
		case NullUint:
			ve.GetType().SetType(mysql.TypeLonglong)
			ve.GetType().AddFlag(mysql.UnsignedFlag)
		case NullReal:
			ve.GetType().SetType(mysql.TypeDouble)
		case NullString:
			ve.GetType().SetType(mysql.TypeLongBlob)
			ve.GetType().SetCharset("utf8mb4")
			ve.GetType().SetCollate("")
		default:
			ve.GetType().SetType(mysql.TypeLongBlob)
		}
		return ve, true
	case int64, uint64, float64:
		return ast.NewValueExpr(x, "", ""), true
	case decimal.Exact:
		d, err := ast.NewDecimal(string(x))
		if err != nil {
			return nil, false
		}
		return ast.NewValueExpr(d, "", ""), true
	case string:
		ve := ast.NewValueExpr(x, "utf8mb4", "")
		ve.GetType().SetType(mysql.TypeLongBlob) // see literalType
		return ve, true
	case []byte:
		ve := ast.NewValueExpr(x, "binary", "binary")
		ve.GetType().SetType(mysql.TypeLongBlob)
		return ve, true
	}
	return nil, false
}
