package u64

import (
	"math"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
)

func isCompare(op opcode.Op) bool {
	switch op {
	case opcode.EQ, opcode.NE, opcode.LT, opcode.LE, opcode.GT, opcode.GE, opcode.NullEQ:
		return true
	}
	return false
}

func unparen(x ast.ExprNode) ast.ExprNode {
	for {
		p, ok := x.(*ast.ParenthesesExpr)
		if !ok {
			return x
		}
		x = p.Expr
	}
}

// ComputedReads tells, for a statement SQLite runs without the compiler's rules
// for BIGINT UNSIGNED (sqlcompat's translation of one the compiler does not
// compile yet, one over a table without a definition, whose columns' types the
// compiler does not know, or a CHECK constraint's expression), which columns it
// reads where SQLite could compute with the stored form of a value of 2^63 or
// more and answer wrong. Every
// read is such a read but those whose answer is the same on stored forms: a
// column the statement's own SELECT returns as it is (the session decodes it by
// its declared type), one ORDER BY or GROUP BY orders or groups by, one COUNT,
// MIN or MAX reads, one IS [NOT] NULL tests, one compared with an integer
// constant.
//
// names holds such columns' names (lower case); star: a * whose columns are read
// so (in a subquery, a set operation, INSERT ... SELECT). ok=false: the grammar
// does not parse the statement, and any column may be read so.
func ComputedReads(sql string) (names map[string]bool, star, ok bool) {
	stmts, _, err := parser.New().Parse(sql, "", "")
	if err != nil || len(stmts) != 1 {
		return nil, false, false
	}
	v := &readsVisitor{root: stmts[0], safe: map[*ast.ColumnNameExpr]bool{}, names: map[string]bool{}}
	stmts[0].Accept(v)
	return v.names, v.star, true
}

// readsVisitor marks, on entering a node, the columns its children read in a
// safe position (a parent is entered before its children), and notes every
// column read otherwise.
type readsVisitor struct {
	root  ast.Node
	safe  map[*ast.ColumnNameExpr]bool
	names map[string]bool
	star  bool
}

func (v *readsVisitor) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.SelectStmt:
		if x.Kind == ast.SelectStmtKindTable && ast.Node(x) != v.root {
			v.star = true
		}
		if x.Fields != nil {
			for _, f := range x.Fields.Fields {
				switch {
				case f.WildCard != nil && ast.Node(x) != v.root:
					v.star = true
				case f.WildCard == nil && ast.Node(x) == v.root:
					v.markSafe(f.Expr)
				}
			}
		}
		if x.GroupBy != nil {
			for _, it := range x.GroupBy.Items {
				v.markSafe(it.Expr)
			}
		}
		if x.OrderBy != nil {
			for _, it := range x.OrderBy.Items {
				v.markSafe(it.Expr)
			}
		}
	case *ast.AggregateFuncExpr:
		switch strings.ToLower(x.F) {
		case "count", "min", "max":
			if len(x.Args) == 1 {
				v.markSafe(x.Args[0])
			}
		}
	case *ast.IsNullExpr:
		v.markSafe(x.Expr)
	case *ast.BinaryOperationExpr:
		if isCompare(x.Op) {
			if intConstant(x.R) {
				v.markSafe(x.L)
			}
			if intConstant(x.L) {
				v.markSafe(x.R)
			}
		}
	case *ast.PatternInExpr:
		all := x.Sel == nil
		for _, it := range x.List {
			all = all && intConstant(it)
		}
		if all {
			v.markSafe(x.Expr)
		}
	case *ast.ColumnNameExpr:
		if !v.safe[x] {
			v.names[x.Name.Name.L] = true
		}
	case *ast.ValuesExpr:
		v.names[x.Column.Name.Name.L] = true
	}
	return n, false
}

func (v *readsVisitor) Leave(n ast.Node) (ast.Node, bool) { return n, true }

func (v *readsVisitor) markSafe(x ast.ExprNode) {
	if cn, ok := unparen(x).(*ast.ColumnNameExpr); ok {
		v.safe[cn] = true
	}
}

// intConstant: an integer below 2^63 that sqlcompat's text translation keeps an
// integer: a literal, or a function of the session it substitutes with its value.
func intConstant(x ast.ExprNode) bool {
	x = unparen(x)
	if u, ok := x.(*ast.UnaryOperationExpr); ok && u.Op == opcode.Minus {
		x = unparen(u.V)
	}
	switch y := x.(type) {
	case *driver.ValueExpr:
		return y.Kind() == driver.KindInt64 || y.Kind() == driver.KindUint64 && y.GetUint64() <= math.MaxInt64
	case *ast.FuncCallExpr:
		switch y.FnName.L {
		case "last_insert_id", "connection_id", "row_count", "found_rows":
			return len(y.Args) == 0
		}
	}
	return false
}
