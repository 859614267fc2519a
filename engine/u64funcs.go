package engine

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/binlite/binlite/decimal"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/u64"
)

// registerUint64 adds the functions over BIGINT UNSIGNED's stored form (package
// u64) that are Go's: the arithmetic the per-row C functions of package sqlitec
// leave to it.
func registerUint64(c *sqlite3.SQLiteConn) error {
	if err := c.RegisterFunc("binlite_u64_param_arith", u64ParamArith, true); err != nil {
		return fmt.Errorf("register binlite_u64_param_arith: %w", err)
	}
	return nil
}

// u64ParamArith is binlite_u64_param_arith(op, a, b, expr): a op b (op is +, - or
// *) of a BIGINT UNSIGNED and a parameter, whose type comes with each execution:
// MySQL's BIGINT UNSIGNED arithmetic when both are integers (1690 outside [0,
// 2^64)), exact decimal arithmetic for another number. The compiler does not know
// the result's type, so from 2^63 the result is its digits, which a reader that
// does not type it reads as the number (not the stored form, which it would not).
func u64ParamArith(op string, a, b any, expr string) (any, error) {
	if isNull(a) || isNull(b) {
		return nil, nil
	}
	x, xok := exactInt(a)
	y, yok := exactInt(b)
	if !xok || !yok {
		fn := map[string]func(a, b any) any{"+": decimal.Add, "-": decimal.Sub, "*": decimal.Mul}[op]
		if fn == nil {
			return nil, fmt.Errorf("binlite_u64_param_arith: operator %q", op)
		}
		return fn(decimalOperand(a), decimalOperand(b)), nil
	}
	r := new(big.Int)
	switch op {
	case "+":
		r.Add(x, y)
	case "-":
		r.Sub(x, y)
	case "*":
		r.Mul(x, y)
	default:
		return nil, fmt.Errorf("binlite_u64_param_arith: operator %q", op)
	}
	if r.Sign() < 0 || !r.IsUint64() {
		return nil, fnError(mysqlerr.ErDataOutOfRange, "BIGINT UNSIGNED value is out of range in '%s'", expr)
	}
	if r.IsInt64() {
		return r.Int64(), nil
	}
	return r.String(), nil
}

// exactInt reads an integer exactly: an INTEGER, BIGINT UNSIGNED's stored form, an
// integer's text.
func exactInt(v any) (*big.Int, bool) {
	switch x := v.(type) {
	case int64:
		return big.NewInt(x), true
	case []byte:
		if n, ok := u64.Wide(x); ok {
			return new(big.Int).SetUint64(n), true
		}
	case string:
		return new(big.Int).SetString(strings.TrimSpace(x), 10)
	}
	return nil, false
}

// decimalOperand is v for package decimal: BIGINT UNSIGNED's stored form as its digits.
func decimalOperand(v any) any {
	if n, ok := u64.Wide(v); ok {
		return strconv.FormatUint(n, 10)
	}
	return v
}
