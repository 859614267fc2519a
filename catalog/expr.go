package catalog

import (
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
)

// mysqlExpr prints an expression the way MySQL prints stored expressions (generated
// columns, CHECK constraints, expression defaults): every operation parenthesised,
// lower-case operator words and function names, string literals with their
// character set introducer.
func mysqlExpr(e ast.ExprNode) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

var opText = map[opcode.Op]string{
	opcode.LogicAnd: "and", opcode.LogicOr: "or", opcode.LogicXor: "xor",
	opcode.GE: ">=", opcode.LE: "<=", opcode.EQ: "=", opcode.NE: "<>", opcode.LT: "<", opcode.GT: ">",
	opcode.NullEQ: "<=>", opcode.Plus: "+", opcode.Minus: "-", opcode.Mul: "*", opcode.Div: "/",
	opcode.IntDiv: "DIV", opcode.Mod: "%", opcode.And: "&", opcode.Or: "|", opcode.Xor: "^",
	opcode.LeftShift: "<<", opcode.RightShift: ">>",
}

func writeExpr(b *strings.Builder, e ast.ExprNode) {
	switch x := e.(type) {
	case *ast.ParenthesesExpr:
		writeExpr(b, x.Expr)
	case *ast.ColumnNameExpr:
		b.WriteString(quoteIdent(x.Name.Name.O))
	case *driver.ValueExpr:
		writeValue(b, x)
	case *ast.BinaryOperationExpr:
		op, ok := opText[x.Op]
		if !ok {
			restore(b, e)
			return
		}
		b.WriteByte('(')
		writeExpr(b, x.L)
		b.WriteString(" " + op + " ")
		writeExpr(b, x.R)
		b.WriteByte(')')
	case *ast.UnaryOperationExpr:
		switch x.Op {
		case opcode.Minus:
			b.WriteString("-(")
		case opcode.Not, opcode.Not2:
			b.WriteString("(not(")
			writeExpr(b, x.V)
			b.WriteString("))")
			return
		case opcode.BitNeg:
			b.WriteString("~(")
		default:
			writeExpr(b, x.V)
			return
		}
		writeExpr(b, x.V)
		b.WriteByte(')')
	case *ast.IsNullExpr:
		b.WriteByte('(')
		writeExpr(b, x.Expr)
		if x.Not {
			b.WriteString(" is not null)")
		} else {
			b.WriteString(" is null)")
		}
	case *ast.PatternInExpr:
		if x.Sel != nil {
			restore(b, e)
			return
		}
		b.WriteByte('(')
		writeExpr(b, x.Expr)
		if x.Not {
			b.WriteString(" not")
		}
		b.WriteString(" in (")
		for i, v := range x.List {
			if i > 0 {
				b.WriteByte(',')
			}
			writeExpr(b, v)
		}
		b.WriteString("))")
	case *ast.BetweenExpr:
		b.WriteByte('(')
		writeExpr(b, x.Expr)
		if x.Not {
			b.WriteString(" not")
		}
		b.WriteString(" between ")
		writeExpr(b, x.Left)
		b.WriteString(" and ")
		writeExpr(b, x.Right)
		b.WriteByte(')')
	case *ast.PatternLikeOrIlikeExpr:
		b.WriteByte('(')
		writeExpr(b, x.Expr)
		if x.Not {
			b.WriteString(" not")
		}
		b.WriteString(" like ")
		writeExpr(b, x.Pattern)
		b.WriteByte(')')
	case *ast.FuncCallExpr:
		name := x.FnName.L
		switch name {
		case "current_timestamp", "now", "localtime", "localtimestamp":
			b.WriteString("now(")
		case "curdate", "current_date":
			b.WriteString("curdate(")
		default:
			b.WriteString(name + "(")
		}
		for i, a := range x.Args {
			if i > 0 {
				b.WriteByte(',')
			}
			writeExpr(b, a)
		}
		b.WriteByte(')')
	default:
		restore(b, e)
	}
}

func writeValue(b *strings.Builder, v *driver.ValueExpr) {
	switch v.Kind() {
	case driver.KindNull:
		b.WriteString("NULL")
	case driver.KindInt64:
		b.WriteString(strconv.FormatInt(v.GetInt64(), 10))
	case driver.KindUint64:
		b.WriteString(strconv.FormatUint(v.GetUint64(), 10))
	case driver.KindString:
		cs := v.Type.GetCharset()
		if cs == "" || cs == "utf8mb4" {
			cs = "utf8mb4"
		}
		b.WriteString("_" + cs + quoteString(v.GetString()))
	case driver.KindBinaryLiteral:
		b.WriteString("0x" + hex.EncodeToString(v.GetBinaryLiteral()))
	default:
		restore(b, v)
	}
}

// restore falls back to the grammar's own printer for what mysqlExpr does not know.
func restore(b *strings.Builder, n ast.Node) {
	var sb strings.Builder
	if err := n.Restore(format.NewRestoreCtx(format.RestoreStringSingleQuotes|format.RestoreKeyWordLowercase|format.RestoreNameBackQuotes, &sb)); err != nil {
		b.WriteString("?")
		return
	}
	b.WriteString(sb.String())
}

// quoteIdent quotes a name with backticks as MySQL prints it.
func quoteIdent(s string) string {
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// quoteString quotes a string literal as SHOW CREATE TABLE prints it.
func quoteString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'':
			b.WriteString("''")
		case '\\':
			b.WriteString("\\\\")
		case 0:
			b.WriteString("\\0")
		case '\n':
			b.WriteString("\\n")
		case '\r':
			b.WriteString("\\r")
		case 26:
			b.WriteString("\\Z")
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}
