package compiler

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"
)

// aggregateFuncs are the engine's aggregates for MySQL's (engine/aggregatefuncs.go):
// over 64 unsigned bits, and standard deviations and variances as doubles.
var aggregateFuncs = map[string]string{
	"bit_and": "binlite_bit_and", "bit_or": "binlite_bit_or", "bit_xor": "binlite_bit_xor",
	"std": "binlite_std_pop", "stddev": "binlite_std_pop", "stddev_pop": "binlite_std_pop", "stddev_samp": "binlite_std_samp",
	"variance": "binlite_var_pop", "var_pop": "binlite_var_pop", "var_samp": "binlite_var_samp",
}

// groupConcat renders GROUP_CONCAT([DISTINCT] v, ... [ORDER BY ...] [SEPARATOR
// s]) as binlite_group_concat(distinct, separator, v, ...), which leaves out
// rows with a NULL, repeats when distinct, and cuts the result at
// group_concat_max_len with MySQL's warning; SQLite passes the rows in the
// ORDER BY's order. The parser gives the separator as the last argument.
func (e *emitter) groupConcat(x *ast.AggregateFuncExpr, s *scope) {
	if len(x.Args) < 2 {
		e.fail(notYet("GROUP_CONCAT"))
		return
	}
	vals, sep := x.Args[:len(x.Args)-1], x.Args[len(x.Args)-1]
	sv, ok := sep.(*driver.ValueExpr)
	if !ok {
		e.fail(notYet("GROUP_CONCAT separator"))
		return
	}
	distinct := "0"
	if x.Distinct {
		distinct = "1"
	}
	e.w("binlite_group_concat(" + distinct + ", " + sqlString(sv.GetString()))
	for _, v := range vals {
		e.w(", ")
		e.digitArg(v, s)
	}
	if x.Order != nil {
		e.w(" ")
		e.orderBy(x.Order, s)
	}
	e.w(")")
}
