// Checks the compiler wraps around MySQL's arithmetic where SQLite would answer
// without an error what MySQL refuses or warns about (see checks.go). They run once
// per row and operator, so they are C: only a warning calls into Go.
#include <math.h>
#include "_cgo_export.h"
#include "sc.h"

// sc_fail raises MySQL error code with the message format (one %s: the expression)
// in the form engine.translateError reads ("binlite-error:<code>:<message>").
void sc_fail(sqlite3_context *ctx, const char *format, sqlite3_value *expr) {
	const unsigned char *text = sqlite3_value_text(expr);
	char *msg = sqlite3_mprintf(format, text ? (const char *)text : "");
	sqlite3_result_error(ctx, msg ? msg : "binlite-error:1105:out of memory", -1);
	sqlite3_free(msg);
}

// binlite_int(x, expr): x is a signed BIGINT result of integer operands. SQLite
// computes a result beyond 64 bits as a REAL: MySQL's error 1690 instead.
static void sc_int(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	if (sqlite3_value_type(argv[0]) == SC_FLOAT) {
		double d = sqlite3_value_double(argv[0]);
		if (d >= TWO63 || d <= -TWO63) {
			sc_fail(ctx, "binlite-error:1690:BIGINT value is out of range in '%s'", argv[1]);
			return;
		}
	}
	sqlite3_result_value(ctx, argv[0]);
}

// binlite_int_args(x, a, b, expr): x is a + b, a - b or a * b where the compiler
// does not know the operands' types (a parameter): SQLite's REAL from two
// INTEGER operands is an overflow (a and b are plain values, cheap to pass twice).
static void sc_int_args(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	if (sqlite3_value_type(argv[0]) == SC_FLOAT && sqlite3_value_type(argv[1]) == SC_INTEGER &&
		sqlite3_value_type(argv[2]) == SC_INTEGER) {
		sc_fail(ctx, "binlite-error:1690:BIGINT value is out of range in '%s'", argv[3]);
		return;
	}
	sqlite3_result_value(ctx, argv[0]);
}

// binlite_uint(x, expr): x is a BIGINT UNSIGNED result. Below zero it is MySQL's
// error 1690; between 2^63 and 2^64 SQLite holds it only as an inexact REAL.
static void sc_uint(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	int t = sqlite3_value_type(argv[0]);
	if (t == SC_INTEGER && sqlite3_value_int64(argv[0]) < 0) {
		sc_fail(ctx, "binlite-error:1690:BIGINT UNSIGNED value is out of range in '%s'", argv[1]);
		return;
	}
	if (t == SC_FLOAT) {
		double d = sqlite3_value_double(argv[0]);
		if (d < 0 || d > TWO64) {
			sc_fail(ctx, "binlite-error:1690:BIGINT UNSIGNED value is out of range in '%s'", argv[1]);
			return;
		}
		if (d >= TWO63) {
			sc_fail(ctx, "binlite-error:1235:This version of binlite doesn't yet support 'BIGINT UNSIGNED results above 9223372036854775807 (%s)'", argv[1]);
			return;
		}
	}
	sqlite3_result_value(ctx, argv[0]);
}

// binlite_double(x, expr): x is a DOUBLE result; SQLite's infinity is MySQL's 1690.
static void sc_double(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	if (sqlite3_value_type(argv[0]) == SC_FLOAT && isinf(sqlite3_value_double(argv[0]))) {
		sc_fail(ctx, "binlite-error:1690:DOUBLE value is out of range in '%s'", argv[1]);
		return;
	}
	sqlite3_result_value(ctx, argv[0]);
}

// sc_zero answers a division by zero: NULL, as SQLite's, but MySQL also warns
// (mode 1) or, in a write under strict mode, fails (mode 2) with 1365.
void sc_zero(sqlite3_context *ctx, sqlite3_value *mode) {
	if (sqlite3_value_int64(mode) == 2) {
		sqlite3_result_error(ctx, "binlite-error:1365:Division by 0", -1);
		return;
	}
	scWarn((uintptr_t)sqlite3_user_data(ctx), 1365, (char *)"Division by 0");
	sqlite3_result_null(ctx);
}

static int sc_null(sqlite3_value *a, sqlite3_value *b) {
	return sqlite3_value_type(a) == SC_NULL || sqlite3_value_type(b) == SC_NULL;
}

// binlite_div(a, b, mode, expr): a / b as DOUBLE (SQLite's a * 1.0 / b; text
// counts as the number it starts with). A NULL operand is NULL without a word,
// as in MySQL, which looks at the divisor only then.
static void sc_div(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	if (sc_null(argv[0], argv[1])) {
		sqlite3_result_null(ctx);
		return;
	}
	double y = sqlite3_value_double(argv[1]);
	if (y == 0) {
		sc_zero(ctx, argv[2]);
		return;
	}
	double r = sqlite3_value_double(argv[0]) / y;
	if (isinf(r)) {
		sc_fail(ctx, "binlite-error:1690:DOUBLE value is out of range in '%s'", argv[3]);
		return;
	}
	sqlite3_result_double(ctx, r);
}

// binlite_mod(a, b, mode): a MOD b of integers (SQLite's a % b).
static void sc_mod(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	if (sc_null(argv[0], argv[1])) {
		sqlite3_result_null(ctx);
		return;
	}
	long long y = sqlite3_value_int64(argv[1]);
	if (y == 0) {
		sc_zero(ctx, argv[2]);
		return;
	}
	if (y == -1) {
		y = 1; // the remainder is 0; INT64_MIN % -1 would trap
	}
	sqlite3_result_int64(ctx, sqlite3_value_int64(argv[0]) % y);
}

// binlite_intdiv(a, b, mode, expr): a DIV b of integers (SQLite's a / b); the
// one quotient beyond BIGINT (its minimum DIV -1) is MySQL's 1690.
static void sc_intdiv(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	if (sc_null(argv[0], argv[1])) {
		sqlite3_result_null(ctx);
		return;
	}
	long long y = sqlite3_value_int64(argv[1]);
	if (y == 0) {
		sc_zero(ctx, argv[2]);
		return;
	}
	long long x = sqlite3_value_int64(argv[0]);
	if (y == -1 && x == INT64_MIN) {
		sc_fail(ctx, "binlite-error:1690:BIGINT value is out of range in '%s'", argv[3]);
		return;
	}
	sqlite3_result_int64(ctx, x / y);
}

static void sc_warn_gone(void *h) { scWarnGone((uintptr_t)h); }

// sc_register_checks adds the checks to db; warn is the Go handle the
// divisions' warnings go to, released by SQLite with binlite_div (also when
// registering it fails).
int sc_register_checks(sqlite3 *db, uintptr_t warn) {
	// Not deterministic: each row's division by zero is its own warning.
	int rc = sqlite3_create_function_v2(db, "binlite_div", 4, SC_UTF8, (void *)warn, sc_div, 0, 0, sc_warn_gone);
	if (rc == 0)
		rc = sqlite3_create_function_v2(db, "binlite_mod", 3, SC_UTF8, (void *)warn, sc_mod, 0, 0, 0);
	if (rc == 0)
		rc = sqlite3_create_function_v2(db, "binlite_intdiv", 4, SC_UTF8, (void *)warn, sc_intdiv, 0, 0, 0);
	if (rc == 0)
		rc = sqlite3_create_function_v2(db, "binlite_int", 2, SC_UTF8 | SC_DETERMINISTIC, 0, sc_int, 0, 0, 0);
	if (rc == 0)
		rc = sqlite3_create_function_v2(db, "binlite_int_args", 4, SC_UTF8 | SC_DETERMINISTIC, 0, sc_int_args, 0, 0, 0);
	if (rc == 0)
		rc = sqlite3_create_function_v2(db, "binlite_uint", 2, SC_UTF8 | SC_DETERMINISTIC, 0, sc_uint, 0, 0, 0);
	if (rc == 0)
		rc = sqlite3_create_function_v2(db, "binlite_double", 2, SC_UTF8 | SC_DETERMINISTIC, 0, sc_double, 0, 0, 0);
	if (rc == 0)
		rc = sc_register_u64(db, warn);
	if (rc == 0)
		rc = sc_register_math(db, warn);
	return rc;
}
