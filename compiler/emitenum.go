package compiler

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/pingcap/tidb/pkg/parser/types"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/collation"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/mysqljson"
	mp "github.com/binlite/binlite/mysqlproto"
)

// ENUM and SET columns keep their members' text; MySQL's numeric view of them is
// an index (ENUM, from 1) or a bit mask (SET), computed by the engine's
// binlite_enum_index and binlite_set_mask from the member list the compiler
// passes (a JSON array). Where MySQL uses an ENUM or SET column as a number
// (arithmetic, bit operators, comparison with a number, CAST to a number,
// SUM/AVG) or sorts by it, the column is replaced by that view.

const (
	fnEnumIndex = "binlite_enum_index"
	fnSetMask   = "binlite_set_mask"
	fnEnumStore = "binlite_enum_store"
)

// catalogColumn is the table column cn names, nil if it names none (an alias, a
// derived table's column, a table without a definition).
func (s *scope) catalogColumn(cn *ast.ColumnName) *catalog.Column {
	for sc := s; sc != nil; sc = sc.outer {
		for _, src := range sc.sources {
			if cn.Table.O != "" && !strings.EqualFold(cn.Table.O, src.name) {
				continue
			}
			if cn.Schema.O != "" && !strings.EqualFold(cn.Schema.O, src.schema) {
				continue
			}
			if src.def != nil {
				if col, ok := src.def.Column(cn.Name.O); ok {
					return col
				}
				continue
			}
			for _, nt := range src.cols {
				if strings.EqualFold(nt.name, cn.Name.O) {
					return nil
				}
			}
		}
	}
	return nil
}

// enumColumn is x's ENUM or SET column, if x is a reference to one.
func (e *emitter) enumColumn(x ast.ExprNode, s *scope) (*ast.ColumnNameExpr, *catalog.Column) {
	for {
		p, ok := x.(*ast.ParenthesesExpr)
		if !ok {
			break
		}
		x = p.Expr
	}
	cn, ok := x.(*ast.ColumnNameExpr)
	if !ok || s == nil {
		return nil, nil
	}
	col := s.catalogColumn(cn.Name)
	if col == nil || col.Type.Base != "enum" && col.Type.Base != "set" {
		return nil, nil
	}
	return cn, col
}

// membersLiteral is the member list as the engine's functions take it.
func membersLiteral(elems []string) string {
	b, _ := json.Marshal(elems) // strings always encode
	return string(b)
}

// enumNumber is x's numeric view when x is an ENUM or SET column: a call of
// the engine's index (mask) function; nil otherwise.
func (e *emitter) enumNumber(x ast.ExprNode, s *scope) ast.ExprNode {
	cn, col := e.enumColumn(x, s)
	if col == nil {
		return nil
	}
	fn := fnEnumIndex
	if col.Type.Base == "set" {
		fn = fnSetMask
	}
	lit := &driver.ValueExpr{}
	lit.SetValue(membersLiteral(col.Type.Elems))
	return &ast.FuncCallExpr{FnName: ast.NewCIStr(fn), Args: []ast.ExprNode{cn, lit}}
}

// numberType: a number MySQL compares an ENUM with by its index.
func numberType(t ColType) bool { return t.isInt() || t.isDecimal() || t.isApprox() }

// enumNumeric rewrites x where MySQL reads an ENUM or SET column in it as a
// number; ok=false leaves x alone.
func (e *emitter) enumNumeric(x ast.ExprNode, s *scope) (ast.ExprNode, bool) {
	switch y := x.(type) {
	case *ast.BinaryOperationExpr:
		l, r := e.enumNumber(y.L, s), e.enumNumber(y.R, s)
		if l == nil && r == nil {
			return nil, false
		}
		switch y.Op {
		case opcode.Plus, opcode.Minus, opcode.Mul, opcode.Div, opcode.IntDiv, opcode.Mod,
			opcode.And, opcode.Or, opcode.Xor, opcode.LeftShift, opcode.RightShift:
		case opcode.EQ, opcode.NE, opcode.LT, opcode.LE, opcode.GT, opcode.GE, opcode.NullEQ:
			// Compared with a number, by index; with a string (or each other), as text.
			switch {
			case l != nil && r == nil && numberType(e.typeOf(y.R, s)):
			case r != nil && l == nil && numberType(e.typeOf(y.L, s)):
			case l != nil && isParam(y.R) || r != nil && isParam(y.L):
				return enumParamCompare(y, l, r), true
			default:
				return nil, false
			}
		default:
			return nil, false
		}
		c := *y
		if l != nil {
			c.L = l
		}
		if r != nil {
			c.R = r
		}
		return &c, true
	case *ast.UnaryOperationExpr:
		if v := e.enumNumber(y.V, s); v != nil && (y.Op == opcode.Minus || y.Op == opcode.BitNeg) {
			c := *y
			c.V = v
			return &c, true
		}
	case *ast.PatternInExpr:
		v := e.enumNumber(y.Expr, s)
		if v == nil || y.Sel != nil {
			return nil, false
		}
		params := false
		for _, it := range y.List {
			switch {
			case isParam(it):
				params = true
			case !numberType(e.typeOf(it, s)):
				return nil, false
			}
		}
		if params {
			// Each item compared as its value is bound: col = a OR col = b ...
			var or ast.ExprNode
			for _, it := range y.List {
				eq := &ast.BinaryOperationExpr{Op: opcode.EQ, L: y.Expr, R: it}
				var cmp ast.ExprNode = &ast.BinaryOperationExpr{Op: opcode.EQ, L: v, R: it}
				if isParam(it) {
					cmp = enumParamCompare(eq, v, nil)
				}
				if or == nil {
					or = cmp
				} else {
					or = &ast.BinaryOperationExpr{Op: opcode.LogicOr, L: or, R: cmp}
				}
			}
			or = &ast.ParenthesesExpr{Expr: or}
			if y.Not {
				or = &ast.UnaryOperationExpr{Op: opcode.Not, V: or}
			}
			return or, true
		}
		c := *y
		c.Expr = v
		return &c, true
	case *ast.BetweenExpr:
		v := e.enumNumber(y.Expr, s)
		bound := func(x ast.ExprNode) bool { return isParam(x) || numberType(e.typeOf(x, s)) }
		if v != nil && (isParam(y.Left) || isParam(y.Right)) && bound(y.Left) && bound(y.Right) {
			// col >= a AND col <= b, each compared as its value is bound
			side := func(op opcode.Op, x ast.ExprNode) ast.ExprNode {
				cmp := &ast.BinaryOperationExpr{Op: op, L: y.Expr, R: x}
				if isParam(x) {
					return enumParamCompare(cmp, v, nil)
				}
				return &ast.BinaryOperationExpr{Op: op, L: v, R: x}
			}
			var both ast.ExprNode = &ast.ParenthesesExpr{Expr: &ast.BinaryOperationExpr{Op: opcode.LogicAnd, L: side(opcode.GE, y.Left), R: side(opcode.LE, y.Right)}}
			if y.Not {
				both = &ast.UnaryOperationExpr{Op: opcode.Not, V: both}
			}
			return both, true
		}
		if v != nil && numberType(e.typeOf(y.Left, s)) && numberType(e.typeOf(y.Right, s)) {
			c := *y
			c.Expr = v
			return &c, true
		}
	case *ast.FuncCastExpr:
		switch y.Tp.GetType() {
		case mysql.TypeLonglong, mysql.TypeNewDecimal, mysql.TypeDouble, mysql.TypeFloat:
			if v := e.enumNumber(y.Expr, s); v != nil {
				c := *y
				c.Expr = v
				return &c, true
			}
		}
	case *ast.AggregateFuncExpr:
		if f := strings.ToLower(y.F); (f == "sum" || f == "avg") && len(y.Args) == 1 {
			if v := e.enumNumber(y.Args[0], s); v != nil {
				c := *y
				c.Args = []ast.ExprNode{v}
				return &c, true
			}
		}
	}
	return nil, false
}

func isParam(x ast.ExprNode) bool {
	_, ok := x.(*driver.ParamMarkerExpr)
	return ok
}

// enumParamCompare compares an ENUM or SET column with a parameter as MySQL
// does with the value bound: a number with the index (mask), anything else with
// the text. l or r is the column's numeric view.
func enumParamCompare(y *ast.BinaryOperationExpr, l, r ast.ExprNode) ast.ExprNode {
	param := y.R
	byNumber, byText := *y, *y
	if r != nil {
		param = y.L
	}
	asText := &ast.FuncCastExpr{Expr: param, Tp: types.NewFieldType(mysql.TypeVarString), FunctionType: ast.CastFunction}
	if r != nil {
		byNumber.R, byText.L = r, asText
	} else {
		byNumber.L, byText.R = l, asText
	}
	integer, real := &driver.ValueExpr{}, &driver.ValueExpr{}
	integer.SetValue("integer")
	real.SetValue("real")
	isNumber := &ast.PatternInExpr{Expr: &ast.FuncCallExpr{FnName: ast.NewCIStr("typeof"), Args: []ast.ExprNode{param}}, List: []ast.ExprNode{integer, real}}
	return &ast.CaseExpr{WhenClauses: []*ast.WhenClause{{Expr: isNumber, Result: &byNumber}}, ElseClause: &byText}
}

// enumOrder is what ORDER BY sorts an ENUM or SET column by: its index (mask),
// MySQL's order; x itself otherwise.
func (e *emitter) enumOrder(x ast.ExprNode, s *scope) ast.ExprNode {
	if v := e.enumNumber(x, s); v != nil {
		return v
	}
	return x
}

// enumLiteral renders a literal written into ENUM or SET column col as what the
// column keeps (Type.EnumStoreText, EnumStoreNumber); a value MySQL truncates
// is 1265, under IGNORE a warning and the value MySQL keeps. It reports false
// for what it does not render (NULL).
func (e *emitter) enumLiteral(v *driver.ValueExpr, col *catalog.Column, row int) bool {
	ty := col.Type
	var out string
	var truncated bool
	switch v.Kind() {
	case driver.KindString, driver.KindBytes:
		out, truncated = ty.EnumStoreText(v.GetString())
	case driver.KindInt64:
		out, truncated = ty.EnumStoreNumber(v.GetInt64())
	case driver.KindUint64:
		n := v.GetUint64()
		if n > math.MaxInt64 {
			n = math.MaxInt64
		}
		out, truncated = ty.EnumStoreNumber(int64(n))
	case driver.KindMysqlDecimal, driver.KindFloat64, driver.KindFloat32:
		f, err := strconv.ParseFloat(e.literalText(v), 64)
		if err != nil {
			return false
		}
		out, truncated = ty.EnumStoreNumber(int64(math.Round(f)))
	default:
		return false
	}
	if truncated {
		if !e.adjust {
			e.fail(mysqlerr.New(mysqlerr.ErWarnDataTruncated, "Data truncated for column '%s' at row %d", col.Name, row))
			return true
		}
		e.notes = append(e.notes, mysqlerr.Warn(mysqlerr.ErWarnDataTruncated, "Data truncated for column '%s' at row %d", col.Name, row))
	}
	e.w(sqlString(out))
	return true
}

// enumStore renders a computed or bound value written into ENUM or SET column
// col: a number is an index (mask), a string names members under the column's
// collation (engine's binlite_enum_store).
func (e *emitter) enumStore(x ast.ExprNode, col *catalog.Column, s *scope) {
	coll := col.Type.Collation
	if _, ok := collation.Lookup(coll); !ok {
		coll = "utf8mb4_general_ci"
	}
	ignore := "0"
	if e.adjust {
		ignore = "1"
	}
	e.w(fnEnumStore + "(")
	e.expr(x, s)
	e.w(", " + sqlString(membersLiteral(col.Type.Elems)) + ", " + sqlString(coll) + ", " + sqlString(col.Type.Base) + ", " + ignore + ")")
}

// findInSet renders FIND_IN_SET(str, list) with the collation MySQL compares
// by: a column argument's, else the connection's.
func (e *emitter) findInSet(x *ast.FuncCallExpr, s *scope) bool {
	if len(x.Args) != 2 {
		return false
	}
	coll := e.c.collation
	for _, a := range x.Args {
		if cn, ok := a.(*ast.ColumnNameExpr); ok && s != nil {
			if col := s.catalogColumn(cn.Name); col != nil && col.Type.Collation != "" {
				coll = col.Type.Collation
				break
			}
		}
	}
	if _, ok := collation.Lookup(coll); !ok {
		coll = "utf8mb4_general_ci"
	}
	e.w("find_in_set(")
	e.list(x.Args, s)
	e.w(", " + sqlString(coll) + ")")
	return true
}

// enumFuncType is the type of the engine's ENUM/SET functions the compiler
// puts in expressions.
func enumFuncType(name string) (ColType, bool) {
	switch name {
	case fnEnumIndex, fnSetMask:
		return typeBigint, true
	}
	return ColType{}, false
}

// enumView is the type MySQL computes with where an ENUM or SET is a number.
func enumView(t ColType) ColType {
	if t.Type != 0 && t.Flags&(enumSetFlags) != 0 {
		return typeBigint
	}
	return t
}

const enumSetFlags = mp.EnumFlag | mp.SetFlag

// storedTyped renders a computed value written into a column whose type MySQL
// converts it to on the way in (ENUM, SET, JSON); false for other columns.
func (e *emitter) storedTyped(x ast.ExprNode, col *catalog.Column, s *scope) bool {
	switch col.Type.Base {
	case "enum", "set":
		e.enumStore(x, col, s)
	case "json":
		e.jsonStore(x, col.Name, s)
	case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob":
		e.binaryStore(x, col, s)
	default:
		return false
	}
	return true
}

// convertedSelect renders INSERT ... SELECT into columns that convert what is
// written into them (ENUM, SET, JSON, binary strings, DECIMAL) as the query's
// rows converted column by column, as VALUES are (storedExpr). It reports false
// when no column needs it or the query's width is not known.
func (e *emitter) convertedSelect(x *ast.InsertStmt, cols []*catalog.Column) bool {
	need := false
	for _, c := range cols {
		switch {
		case c == nil || c.Type.Base == "":
			return false
		case c.ExactDecimal(), c.Type.IsBinary():
			need = true
		}
		switch c.Type.Base {
		case "enum", "set", "json":
			need = true
		}
	}
	types := e.c.queryColumns(x.Select, nil)
	if !need || len(types) != len(cols) {
		return false
	}
	names := make([]string, len(cols))
	for i := range cols {
		names[i] = quoteIdent("binlite_c" + strconv.Itoa(i+1))
	}
	e.w("WITH binlite_src(" + strings.Join(names, ", ") + ") AS (")
	e.fieldOut = make([]ColType, len(types)) // typed below, as the query's columns
	for i := range types {
		e.fieldOut[i] = types[i].t
	}
	e.query(x.Select)
	e.w(") SELECT ")
	// The derived columns keep the query's types, for the conversions that follow them.
	src := source{name: "binlite_src", cols: make([]namedType, len(cols))}
	for i := range cols {
		src.cols[i] = namedType{"binlite_c" + strconv.Itoa(i+1), types[i].t}
	}
	sc := &scope{sources: []source{src}}
	for i, c := range cols {
		if i > 0 {
			e.w(", ")
		}
		ref := &ast.ColumnNameExpr{Name: &ast.ColumnName{Name: ast.NewCIStr("binlite_c" + strconv.Itoa(i+1))}}
		if c.Type.Base == "json" && types[i].t.Type == mp.TypeJSON {
			e.jsonStoreAs(ref, mysqljson.SigJSON, c.Name, nil) // the query's JSON as it is
			continue
		}
		e.storedExpr(ref, c, sc, 0)
	}
	e.w(" FROM binlite_src")
	if len(x.OnDuplicate) > 0 {
		e.w(" WHERE true") // SQLite would read the upsert's ON as a join's
	}
	return true
}

// typedRewrite rewrites an expression whose meaning in MySQL follows its
// operands' types where SQLite's would not: ENUM/SET as numbers, IN over JSON.
func (e *emitter) typedRewrite(x ast.ExprNode, s *scope) (ast.ExprNode, bool) {
	if y, ok := e.enumNumeric(x, s); ok {
		return y, true
	}
	if y, ok := e.binaryIn(x, s); ok {
		return y, true
	}
	if y, ok := e.binaryLike(x, s); ok {
		return y, true
	}
	return e.jsonIn(x, s)
}
