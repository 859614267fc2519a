package sqlitec

/*
#include <stdint.h>

typedef struct sqlite3 sqlite3;
extern int sc_register_checks(sqlite3 *db, uintptr_t warn);
*/
import "C"

import (
	"fmt"
	"runtime/cgo"

	"github.com/mattn/go-sqlite3"
)

// Division-by-zero modes of the divisions' mode argument.
const (
	DivisionWarn  = 1 // MySQL's warning 1365 (ERROR_FOR_DIVISION_BY_ZERO)
	DivisionError = 2 // MySQL's error 1365 (that mode in a write under strict mode)
)

// RegisterChecks adds the SQL functions the compiler uses where SQLite's
// arithmetic would answer without a word what MySQL refuses or warns about:
//
//	binlite_int(x, expr)      x, or error 1690 if x (a signed BIGINT result) overflowed
//	binlite_int_args(x, a, b, expr)  the same for x = a op b of operands of unknown types
//	binlite_uint(x, expr)     x, or error 1690 if x (a BIGINT UNSIGNED result) is below 0
//	binlite_double(x, expr)   x, or error 1690 if x (a DOUBLE result) is infinite
//	binlite_div(a, b, mode, expr)     a / b as DOUBLE
//	binlite_intdiv(a, b, mode, expr)  a DIV b of integers
//	binlite_mod(a, b, mode)           a MOD b of integers
//
// expr is the expression as MySQL's message names it. SQLite gives a REAL for an
// integer result beyond 64 bits, infinity for a DOUBLE beyond its range, and NULL
// for a division by zero, which MySQL answers with a warning or an error as mode
// says (DivisionWarn, DivisionError). They are C: the common path never leaves
// it. warn receives the warnings; SQLite calls it only from the goroutine running
// a statement on conn.
//
// It also adds the functions over the stored form of unsigned 64-bit
// values (package u64: below 2^63 an INTEGER, from 2^63 an 8-byte big-endian
// BLOB), which the compiler emits wherever MySQL computes with a BIGINT UNSIGNED
// or BIT(64) value (u64.c):
//
//	binlite_u64(x, expr)          x, or 1235 for a stored value of 2^63 or more: where
//	                              the compiler has no rule for one
//	binlite_u64_add(a, b, expr)   a + b as BIGINT UNSIGNED, exact, 1690 outside [0, 2^64)
//	binlite_u64_sub(a, b, expr)   a - b, the same
//	binlite_u64_mul(a, b, expr)   a * b, the same
//	binlite_u64_neg(x, expr)      -x as a signed BIGINT, 1690 below its minimum
//	binlite_u64_intdiv(a, b, mode, expr)  a DIV b as BIGINT UNSIGNED (1690 below 0)
//	binlite_u64_mod(a, b, mode, expr)     a MOD b with an unsigned operand
//	binlite_u64_dec(x)            x as exact decimal text (for the decimal functions and text)
//	binlite_u64_real(x)           x as a DOUBLE
//	binlite_u64_key(x)            a value compared with a stored one, in the stored form
//	binlite_u64_from(x, expr)     a number (decimal text, REAL) in the stored form, 1690 outside
//	binlite_u64_store(x, col)     a decimal or double written into a column, 1264 outside
//	binlite_u64_narrow(x, col)    x written into a signed integer column: 1264 from 2^63
//	binlite_u64_bits(x)           a bit operator's signed result as its unsigned value
//	binlite_u64_signed(x)         a stored value as the signed BIGINT of its bits
//	binlite_u64_shl(a, n)         MySQL's a << n over 64 unsigned bits
//	binlite_u64_shr(a, n)         MySQL's a >> n
//	binlite_u64_cast(x)           CAST(x AS UNSIGNED) of an integer
//
// And MySQL's mathematical functions on the C library's (math.c):
// binlite_sin, _cos, _tan, _cot, _exp, _floor, _ceil, _degrees, _radians,
// _sqrt, _asin, _acos, _atan (one or two arguments), _pow, _ln, _log2, _log10
// and _log(b, x), NULL outside their domains, the logarithms warning 3020;
// binlite_to_double(x), a string read as a DOUBLE with warning 1292 when it
// is not a clean number; binlite_to_int(x), CAST(x AS SIGNED) of a string,
// the same for an integer.
//
// Operands are read exactly: a signed INTEGER, the stored form (or a shorter
// big-endian BLOB, as a BIT value may be kept), an integer's text; a REAL or
// other text as MySQL converts it, rounded half away from zero.
func RegisterChecks(conn *sqlite3.SQLiteConn, warn func(code uint16, msg string)) error {
	h, err := Handle(conn)
	if err != nil {
		return err
	}
	fn := cgo.NewHandle(warn)
	if rc := C.sc_register_checks((*C.sqlite3)(h), C.uintptr_t(fn)); rc != 0 {
		return fmt.Errorf("sqlitec: register arithmetic checks: SQLite error %d", int(rc))
	}
	return nil
}

//export scWarn
func scWarn(fn C.uintptr_t, code C.int, msg *C.char) {
	cgo.Handle(fn).Value().(func(uint16, string))(uint16(code), C.GoString(msg))
}

//export scWarnGone
func scWarnGone(fn C.uintptr_t) { cgo.Handle(fn).Delete() }
