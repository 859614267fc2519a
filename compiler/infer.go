package compiler

import (
	"strings"
	"unicode/utf8"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/catalog"
	mp "github.com/binlite/binlite/mysqlproto"
)

// compiler holds one compilation's state.
type compiler struct {
	cat Catalog
	db  string
	// collation is the connection's collation, by which two strings neither of
	// which is a column compare (emitting only).
	collation string
	mode      Mode // the session's sql_mode (emitting only)
	// tz is the session's time zone, seconds east of UTC (emitting only).
	tz int
	// vars reads the session's user variables and the values of its context
	// functions (contextfuncs.go; emitting only).
	vars UserVars
	// contextKey is contextKey's value for the text being emitted.
	contextKey string
	// valueTyped: a type was worked out from a literal's value, not only its
	// kind (NOW(3), STR_TO_DATE's format, ROUND(x, 2)): the plan is not one for
	// every statement of its shape.
	valueTyped bool
	// derived caches the collation derivations worked out (derivation.go).
	derived map[typedKey]derived
	// typed caches the types of function calls worked out, by call and scope:
	// a function's type reads its arguments' several times (length, collation,
	// kind), which must not cost that many times over at each level of nesting.
	typed map[typedKey]ColType
	// row is the scope of a trigger's NEW and OLD rows (trigger.go), the
	// outermost scope of every statement of its body; nil elsewhere.
	row *scope
}

type typedKey struct {
	x ast.ExprNode
	s *scope
}

// divPrecisionIncrement is MySQL's div_precision_increment default.
const divPrecisionIncrement = 4

// queryColumns types the result columns of a query; nil when their number is
// not known (SELECT * over a table without a definition).
func (c *compiler) queryColumns(n ast.ResultSetNode, outer *scope) []namedType {
	switch q := n.(type) {
	case *ast.SelectStmt:
		s := c.newScope(q.From, outer)
		var out []namedType
		for _, f := range q.Fields.Fields {
			if f.WildCard != nil {
				cols, ok := s.expand(f.WildCard)
				if !ok {
					return nil
				}
				out = append(out, cols...)
				continue
			}
			name := f.AsName.O
			if cn, ok := f.Expr.(*ast.ColumnNameExpr); ok && name == "" {
				name = cn.Name.Name.O
			}
			out = append(out, namedType{name, c.expr(f.Expr, s)})
		}
		return out
	case *ast.SetOprStmt:
		if q.SelectList == nil || len(q.SelectList.Selects) == 0 {
			return nil
		}
		var out []namedType
		for i, sel := range q.SelectList.Selects {
			rs, ok := sel.(ast.ResultSetNode)
			if !ok {
				return nil
			}
			cols := c.queryColumns(rs, outer)
			if cols == nil || i > 0 && len(cols) != len(out) {
				return nil
			}
			if i == 0 {
				out = cols
				continue
			}
			for j := range out {
				out[j].t = merge(out[j].t, cols[j].t)
			}
		}
		return out
	}
	return nil
}

// expr types an expression; the zero ColType when it cannot be worked out.
func (c *compiler) expr(e ast.ExprNode, s *scope) ColType {
	switch x := e.(type) {
	case *ast.ParenthesesExpr:
		return c.expr(x.Expr, s)
	case *ast.ColumnNameExpr:
		t, _ := s.column(x.Name)
		t.Flags &^= mp.AutoIncrementFlag
		return t
	case *ast.ValuesExpr: // VALUES(col) of ON DUPLICATE KEY UPDATE: the proposed value
		t, _ := s.column(x.Column.Name)
		t.Flags &^= mp.AutoIncrementFlag | mp.NotNullFlag
		return t
	case *driver.ParamMarkerExpr:
		return ColType{}
	case *driver.ValueExpr:
		return literalType(x)
	case *ast.BinaryOperationExpr:
		switch x.Op {
		case opcode.Plus, opcode.Minus, opcode.Mul, opcode.Div, opcode.Mod, opcode.IntDiv:
			return arith(x.Op, c.expr(x.L, s), c.expr(x.R, s))
		case opcode.And, opcode.Or, opcode.Xor, opcode.LeftShift, opcode.RightShift:
			t := typeBigint
			t.Flags |= mp.UnsignedFlag
			return t
		}
		return typeBool
	case *ast.UnaryOperationExpr:
		t := c.expr(x.V, s)
		switch x.Op {
		case opcode.Minus:
			if t.isInt() {
				return typeBigint
			}
			t.Flags &^= mp.UnsignedFlag | mp.NotNullFlag
			if t.isDecimal() || t.isApprox() {
				return t
			}
			return ColType{}
		case opcode.Plus:
			return t
		case opcode.BitNeg:
			u := typeBigint
			u.Flags |= mp.UnsignedFlag
			return u
		}
		return typeBool
	case *ast.IsNullExpr, *ast.IsTruthExpr, *ast.PatternInExpr, *ast.BetweenExpr,
		*ast.PatternLikeOrIlikeExpr, *ast.PatternRegexpExpr, *ast.ExistsSubqueryExpr, *ast.CompareSubqueryExpr:
		return typeBool
	case *ast.SubqueryExpr:
		cols := c.queryColumns(x.Query, s)
		if len(cols) != 1 {
			return ColType{}
		}
		t := cols[0].t
		t.Flags &^= mp.NotNullFlag
		return t
	case *ast.CaseExpr:
		var t ColType
		first := true
		for _, w := range x.WhenClauses {
			t, first = mergeNext(t, c.expr(w.Result, s), first)
		}
		if x.ElseClause != nil {
			t, _ = mergeNext(t, c.expr(x.ElseClause, s), first)
		}
		return t
	case *ast.AggregateFuncExpr:
		return c.aggregate(x, s)
	case *ast.FuncCastExpr:
		return castType(x)
	case *ast.FuncCallExpr:
		k := typedKey{x, s}
		if t, ok := c.typed[k]; ok {
			return t
		}
		t := c.function(x, s)
		if c.typed == nil {
			c.typed = map[typedKey]ColType{}
		}
		c.typed[k] = t
		return t
	}
	return ColType{}
}

func literalType(v *driver.ValueExpr) ColType {
	switch v.Kind() {
	case driver.KindNull:
		switch v.Type.GetType() {
		case mysql.TypeLongBlob:
			if v.Type.GetCharset() != "binary" {
				// a string user variable set to NULL (varLiteral)
				return ColType{Type: mp.TypeLongBlob, Charset: typeVarchar.Charset, Flags: mp.BlobFlag, Length: 4294967295}
			}
			// an unset user variable (varLiteral)
			return ColType{Type: mp.TypeLongBlob, Charset: mp.CharsetBinary, Flags: mp.BlobFlag | mp.BinaryFlag, Length: 4294967295}
		case mysql.TypeLonglong:
			// an integer user variable set to NULL (varLiteral)
			t := typeBigint
			if mysql.HasUnsignedFlag(v.Type.GetFlag()) {
				t.Flags |= mp.UnsignedFlag
			}
			return t
		case mysql.TypeDouble:
			return typeDouble
		}
		return typeNull
	case driver.KindInt64, driver.KindUint64:
		t := typeBigint
		if v.Kind() == driver.KindUint64 {
			t.Flags |= mp.UnsignedFlag
		}
		t.Flags |= mp.NotNullFlag
		return t
	case driver.KindMysqlDecimal:
		d := v.GetMysqlDecimal()
		s := d.String()
		digits := strings.TrimLeft(strings.ReplaceAll(strings.TrimPrefix(s, "-"), ".", ""), "0")
		scale := 0
		if i := strings.IndexByte(s, '.'); i >= 0 {
			scale = len(s) - i - 1
		}
		t := decimalType(max(len(digits), scale, 1), scale, false)
		t.Flags |= mp.NotNullFlag
		return t
	case driver.KindFloat64, driver.KindFloat32:
		t := typeDouble
		t.Flags |= mp.NotNullFlag
		return t
	case driver.KindString:
		if v.Type.GetType() == mysql.TypeLongBlob {
			// a user variable's string (varLiteral): MySQL sizes it as a LONGTEXT
			return ColType{Type: mp.TypeLongBlob, Charset: typeVarchar.Charset, Flags: mp.BlobFlag | mp.NotNullFlag, Length: 4294967295}
		}
		if v.Type.GetCharset() == "binary" {
			// _binary'..': a binary string
			return ColType{Type: mp.TypeVarString, Charset: mp.CharsetBinary, Flags: mp.BinaryFlag | mp.NotNullFlag, Length: uint32(len(v.GetBytes()))}
		}
		t := typeVarchar
		t.Length = uint32(utf8.RuneCount(v.GetBytes())) * 4
		t.Flags |= mp.NotNullFlag
		return t
	case driver.KindBytes:
		if v.Type.GetType() == mysql.TypeLongBlob {
			return ColType{Type: mp.TypeLongBlob, Charset: mp.CharsetBinary, Flags: mp.BlobFlag | mp.BinaryFlag | mp.NotNullFlag, Length: 4294967295}
		}
	case driver.KindBinaryLiteral:
		// MySQL marks a hexadecimal or bit literal UNSIGNED: it is also a number.
		return ColType{Type: mp.TypeVarString, Charset: mp.CharsetBinary, Flags: mp.BinaryFlag | mp.UnsignedFlag | mp.NotNullFlag, Length: uint32(len(v.GetBinaryLiteral()))}
	}
	return ColType{}
}

// arith is MySQL's result type of an arithmetic operator.
func arith(op opcode.Op, l, r ColType) ColType {
	l, r = numericForm(enumView(l)), numericForm(enumView(r)) // ENUM/SET by index, a date by its number
	if !l.Known() || !r.Known() || l.Type == mp.TypeNull || r.Type == mp.TypeNull {
		return ColType{}
	}
	unsigned := l.Flags&mp.UnsignedFlag != 0 || r.Flags&mp.UnsignedFlag != 0
	if op == opcode.Mod {
		unsigned = l.Flags&mp.UnsignedFlag != 0 // the remainder has the dividend's sign
	}
	if op == opcode.IntDiv {
		if l.isApprox() || r.isApprox() || !numeric(l) || !numeric(r) {
			return ColType{}
		}
		t := typeBigint
		if unsigned {
			t.Flags |= mp.UnsignedFlag
		}
		return t
	}
	if l.isApprox() || r.isApprox() || l.isString() || r.isString() {
		if !numeric(l) && !l.isString() || !numeric(r) && !r.isString() {
			return ColType{}
		}
		return typeDouble
	}
	if !numeric(l) || !numeric(r) {
		return ColType{}
	}
	lp, ls := l.precisionScale()
	rp, rs := r.precisionScale()
	switch op {
	case opcode.Div:
		scale := ls + divPrecisionIncrement
		return decimalType(lp+divPrecisionIncrement+rs, scale, false)
	case opcode.Mul:
		if l.isInt() && r.isInt() {
			return intResult(unsigned)
		}
		return decimalType(lp+rp, ls+rs, false)
	default: // + - %
		if l.isInt() && r.isInt() {
			return intResult(unsigned)
		}
		scale := max(ls, rs)
		return decimalType(max(lp-ls, rp-rs)+scale+1, scale, false)
	}
}

func intResult(unsigned bool) ColType {
	t := typeBigint
	if unsigned {
		t.Flags |= mp.UnsignedFlag
	}
	return t
}

func numeric(t ColType) bool { return t.isInt() || t.isDecimal() || t.isApprox() }

// mergeNext merges a branch's type into the result so far (CASE, IF, COALESCE).
func mergeNext(acc, t ColType, first bool) (ColType, bool) {
	if first {
		return t, false
	}
	return merge(acc, t), false
}

// merge is the type of a value that may come from either of two expressions.
func merge(a, b ColType) ColType {
	switch {
	case !a.Known() || !b.Known():
		return ColType{}
	case a.Type == mp.TypeNull:
		b.Flags &^= mp.NotNullFlag
		return b
	case b.Type == mp.TypeNull:
		a.Flags &^= mp.NotNullFlag
		return a
	}
	notNull := a.Flags & b.Flags & mp.NotNullFlag
	var t ColType
	switch {
	case a.isInt() && b.isInt():
		if a.Type == b.Type && a.Flags&mp.UnsignedFlag == b.Flags&mp.UnsignedFlag {
			t = a
			t.Length = max(a.Length, b.Length)
		} else {
			t = intResult(a.Flags&mp.UnsignedFlag != 0 && b.Flags&mp.UnsignedFlag != 0)
		}
	case numeric(a) && numeric(b) && !a.isApprox() && !b.isApprox():
		ap, as := a.precisionScale()
		bp, bs := b.precisionScale()
		scale := max(as, bs)
		t = decimalType(max(ap-as, bp-bs)+scale, scale, a.Flags&b.Flags&mp.UnsignedFlag != 0)
	case numeric(a) && numeric(b):
		t = typeDouble
	case a.Type == b.Type && a.isTemporal():
		t = a
		t.Decimals = max(a.Decimals, b.Decimals)
	case a.isTemporal() && b.isString() || a.isString() && b.isTemporal():
		// MySQL aggregates a date or time with a string to a string
		t = typeVarchar
		t.Length = max(a.Length, b.Length)
	case a.isString() && b.isString() || a.isString() && numeric(b) || numeric(a) && b.isString():
		t = typeVarchar
		t.Length = max(a.Length, b.Length)
		if a.Charset == mp.CharsetBinary && a.isString() || b.Charset == mp.CharsetBinary && b.isString() {
			t.Charset, t.Flags = mp.CharsetBinary, mp.BinaryFlag
		}
	default:
		return ColType{}
	}
	t.Flags = t.Flags&^mp.NotNullFlag | notNull
	t.Flags &^= mp.AutoIncrementFlag | mp.PriKeyFlag | mp.UniqueKeyFlag | mp.MultipleKeyFlag
	return t
}

func (c *compiler) aggregate(x *ast.AggregateFuncExpr, s *scope) ColType {
	var arg ColType
	if len(x.Args) > 0 {
		arg = c.expr(x.Args[0], s)
	}
	switch strings.ToLower(x.F) {
	case "count":
		t := typeBigint
		t.Flags |= mp.NotNullFlag
		return t
	case "sum", "avg":
		avg := strings.EqualFold(x.F, "avg")
		arg = numericForm(arg) // dates are summed as numbers
		switch {
		case !arg.Known() || arg.Type == mp.TypeNull:
			return ColType{}
		case arg.isApprox() || arg.isString():
			return typeDouble
		case arg.isInt() || arg.isDecimal():
			p, sc := arg.precisionScale()
			if avg {
				return decimalType(p+divPrecisionIncrement, sc+divPrecisionIncrement, false)
			}
			return decimalType(p+22, sc, false)
		}
		return ColType{}
	case "min", "max", "any_value":
		arg.Flags &^= mp.NotNullFlag | mp.AutoIncrementFlag | mp.PriKeyFlag | mp.UniqueKeyFlag | mp.MultipleKeyFlag
		return arg
	case "group_concat":
		// TEXT, as group_concat_max_len (1024) is above 512 (manual 14.19.1),
		// in the values' collation (BLOB of binary strings).
		var vals []ast.ExprNode
		if len(x.Args) > 1 {
			vals = x.Args[:len(x.Args)-1] // the last is the separator
		}
		t := c.resultString(1024, s, vals...)
		t.Type, t.Length = mp.TypeBlob, 1024*4
		if t.Charset == mp.CharsetBinary {
			t.Length = 1024
		}
		return t
	case "json_arrayagg", "json_objectagg":
		return columnType(catalogJSON)
	case "std", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp":
		// DOUBLE with the argument's decimals and div_precision_increment more
		// (Item_sum_variance): DOUBLE/4 for integers, not fixed for doubles.
		arg = numericForm(arg)
		t := typeDouble
		switch {
		case arg.isInt() || arg.isDecimal():
			t.Decimals = byte(min(int(arg.Decimals)+divPrecisionIncrement, 30))
		case arg.isApprox() && arg.Decimals < notFixed:
			t.Decimals = byte(min(int(arg.Decimals)+divPrecisionIncrement, int(notFixed)))
		}
		return t
	case "bit_and", "bit_or", "bit_xor":
		t := typeBigint
		t.Flags |= mp.UnsignedFlag | mp.NotNullFlag
		return t
	}
	return ColType{}
}

func castType(x *ast.FuncCastExpr) ColType {
	tp := x.Tp
	switch tp.GetType() {
	case mysql.TypeLonglong:
		return intResult(mysql.HasUnsignedFlag(tp.GetFlag()))
	case mysql.TypeNewDecimal:
		p, s := tp.GetFlen(), tp.GetDecimal()
		if p <= 0 {
			p = 10
		}
		return decimalType(p, max(s, 0), false)
	case mysql.TypeDouble:
		return typeDouble
	case mysql.TypeFloat:
		return ColType{Type: mp.TypeFloat, Charset: mp.CharsetBinary, Flags: mp.NumFlag | mp.BinaryFlag, Length: 12, Decimals: notFixed}
	case mysql.TypeDate:
		return columnType(catalog.Type{Base: "date"})
	case mysql.TypeDatetime:
		return columnType(catalog.Type{Base: "datetime", Scale: max(tp.GetDecimal(), 0)})
	case mysql.TypeDuration:
		return columnType(catalog.Type{Base: "time", Scale: max(tp.GetDecimal(), 0)})
	case mysql.TypeJSON:
		return columnType(catalog.Type{Base: "json"})
	case mysql.TypeYear:
		return columnType(catalog.Type{Base: "year"})
	case mysql.TypeVarString, mysql.TypeString, mysql.TypeVarchar:
		if x.FunctionType == ast.CastBinaryOperator {
			return ColType{Type: mp.TypeVarString, Charset: mp.CharsetBinary, Flags: mp.BinaryFlag}
		}
		if tp.GetCharset() == "binary" {
			return ColType{Type: mp.TypeVarString, Charset: mp.CharsetBinary, Flags: mp.BinaryFlag, Length: uint32(max(tp.GetFlen(), 0))}
		}
		return typeVarchar
	}
	return ColType{}
}

// stringFuncs return text, intFuncs integers, doubleFuncs approximate numbers.
var (
	stringFuncs = set("concat", "concat_ws", "upper", "lower", "ucase", "lcase", "substring", "substr", "mid", "trim", "ltrim", "rtrim",
		"replace", "lpad", "rpad", "left", "right", "repeat", "reverse", "hex", "md5", "sha1", "sha", "sha2", "date_format",
		"database", "schema", "user", "current_user", "session_user", "system_user", "version", "uuid", "space", "char",
		"insert", "substring_index", "quote", "format", "time_format", "monthname", "dayname", "bin", "oct", "conv",
		"inet_ntoa", "elt", "export_set", "make_set", "soundex", "to_base64", "json_unquote")
	intFuncs = set("length", "octet_length", "char_length", "character_length", "bit_length", "locate", "instr", "position",
		"ascii", "ord", "find_in_set", "field", "strcmp", "year", "month", "day", "dayofmonth", "dayofweek", "dayofyear",
		"hour", "minute", "second", "quarter", "week", "weekday", "weekofyear", "yearweek", "to_days", "datediff",
		"timestampdiff", "period_add", "period_diff", "sign", "crc32", "inet_aton", "is_ipv4", "is_ipv6", "isnull",
		"json_length", "json_valid", "json_depth", "json_contains", "get_lock", "release_lock", "is_free_lock", "is_used_lock",
		"last_insert_id", "row_count", "found_rows", "connection_id", "sleep", "benchmark", "uuid_short", "interval", "bit_count")
	unsignedFuncs = set("last_insert_id", "connection_id", "crc32", "uuid_short", "bit_count", "inet_aton")
	doubleFuncs   = set("rand", "pi", "sqrt", "pow", "power", "exp", "ln", "log", "log2", "log10", "sin", "cos", "tan",
		"asin", "acos", "atan", "atan2", "cot", "degrees", "radians")
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func (c *compiler) function(x *ast.FuncCallExpr, s *scope) ColType {
	name := x.FnName.L
	arg := func(i int) ColType {
		if i < len(x.Args) {
			return c.expr(x.Args[i], s)
		}
		return ColType{}
	}
	if t, ok := c.temporalFunction(name, x, s); ok {
		return t
	}
	if t, ok := c.jsonType(name, x, s); ok {
		return t
	}
	if t, ok := enumFuncType(name); ok {
		return t
	}
	if t, ok := c.stringFuncType(name, x, s); ok {
		return t
	}
	if t, ok := c.builtinType(name, x, s); ok {
		return t
	}
	if t, ok := c.concatType(name, x, s); ok {
		return t
	}
	switch {
	case stringFuncs[name]:
		t := typeVarchar
		if name == "hex" || name == "md5" || name == "sha1" || name == "sha" || name == "sha2" || name == "uuid" {
			t.Charset = mp.CharsetUTF8MB40900
		}
		return t
	case intFuncs[name]:
		t := typeBigint
		if unsignedFuncs[name] {
			t.Flags |= mp.UnsignedFlag
		}
		return t
	case doubleFuncs[name]:
		return typeDouble
	}
	switch name {
	case "ifnull", "coalesce", "nullif", "if", "greatest", "least":
		args := x.Args
		if name == "if" && len(args) == 3 {
			args = args[1:]
		}
		if name == "nullif" && len(args) == 2 {
			t := c.expr(args[0], s)
			t.Flags &^= mp.NotNullFlag
			return t
		}
		var t ColType
		first := true
		for _, a := range args {
			t, first = mergeNext(t, c.expr(a, s), first)
		}
		if name == "ifnull" && len(args) == 2 {
			second := c.expr(args[1], s)
			t.Flags = t.Flags&^mp.NotNullFlag | second.Flags&mp.NotNullFlag
		}
		return t
	case "abs":
		t := arg(0)
		if t.isInt() || t.isDecimal() || t.isApprox() {
			return t
		}
		return ColType{}
	case "floor", "ceil", "ceiling":
		t := arg(0)
		switch {
		case t.isInt():
			return typeBigint
		case t.isDecimal():
			if p, sc := t.precisionScale(); p-sc <= 18 {
				return typeBigint
			}
			return ColType{}
		case t.isApprox():
			return typeDouble
		}
		return ColType{}
	case "round", "truncate":
		t := arg(0)
		d := 0
		if len(x.Args) == 2 {
			n, ok := intLiteral(x.Args[1])
			if !ok {
				return ColType{}
			}
			c.valueTyped = true
			d = n
		}
		switch {
		case t.isInt():
			return intResult(t.Flags&mp.UnsignedFlag != 0) // BIGINT (Item_func_round)
		case t.isDecimal():
			p, sc := t.precisionScale()
			d = max(min(d, 30), 0)
			return decimalType(p-sc+d+1, d, false)
		case t.isApprox() || t.isString() || t.isTemporal():
			r := typeDouble
			if d >= 0 && d < int(notFixed) {
				r.Decimals = byte(d)
			}
			return r
		}
		return ColType{}
	case "json_extract", "json_object", "json_array", "json_set", "json_insert", "json_replace", "json_remove", "json_merge_patch", "json_merge_preserve", "json_keys":
		return columnType(catalog.Type{Base: "json"})
	}
	return ColType{}
}

// intLiteral reads an integer literal, a negative one included.
func intLiteral(x ast.ExprNode) (int, bool) {
	neg := false
	if u, ok := x.(*ast.UnaryOperationExpr); ok && u.Op == opcode.Minus {
		neg, x = true, u.V
	}
	v, ok := x.(*driver.ValueExpr)
	if !ok || v.Kind() != driver.KindInt64 {
		return 0, false
	}
	n := int(v.GetInt64())
	if neg {
		n = -n
	}
	return n, true
}
