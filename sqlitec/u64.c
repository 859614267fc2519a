// Functions over the stored form of unsigned 64-bit values (package u64): a value
// below 2^63 is an INTEGER, one from 2^63 up an 8-byte big-endian BLOB. The
// compiler emits them wherever MySQL computes with a BIGINT UNSIGNED (or BIT(64))
// value (see u64.go); they run once per row and operator, so they are C.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "_cgo_export.h"
#include "sc.h"

typedef __int128 i128;

static const char *outOfRange = "binlite-error:1690:BIGINT UNSIGNED value is out of range in '%s'";

// u_blob reads a BLOB of one to eight bytes as a big-endian number: the stored
// form, or a BIT value kept as bytes. 0 when x is no such BLOB.
static int u_blob(sqlite3_value *x, uint64_t *out) {
	if (sqlite3_value_type(x) != SC_BLOB) {
		return 0;
	}
	int n = sqlite3_value_bytes(x);
	const unsigned char *b = sqlite3_value_blob(x);
	if (n < 1 || n > 8 || !b) {
		return 0;
	}
	uint64_t v = 0;
	for (int i = 0; i < n; i++) {
		v = v << 8 | b[i];
	}
	*out = v;
	return 1;
}

// u_wide: x is the stored form of a value of 2^63 or more.
static int u_wide(sqlite3_value *x) {
	if (sqlite3_value_type(x) != SC_BLOB || sqlite3_value_bytes(x) != 8) {
		return 0;
	}
	const unsigned char *b = sqlite3_value_blob(x);
	return b && b[0] >= 0x80;
}

static int u_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// u_text_num reads a number's text exactly (spaces, a sign, up to 38 digits, a
// point and digits, spaces), rounded half away from zero to an integer; *frac
// tells whether digits after the point were not all zeros. 0 for other text
// (an exponent, no digits, more digits).
static int u_text_num(const unsigned char *s, i128 *out, int *frac) {
	if (!s) {
		return 0;
	}
	while (u_space(*s)) {
		s++;
	}
	int neg = *s == '-';
	if (*s == '-' || *s == '+') {
		s++;
	}
	i128 v = 0;
	int digits = 0, up = 0;
	*frac = 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (++digits > 38) {
			return 0;
		}
		v = v * 10 + (*s - '0');
	}
	if (*s == '.') {
		s++;
		for (int first = 1; *s >= '0' && *s <= '9'; s++, first = 0) {
			digits++;
			if (first) {
				up = *s >= '5';
			}
			if (*s != '0') {
				*frac = 1;
			}
		}
	}
	while (u_space(*s)) {
		s++;
	}
	if (digits == 0 || *s) {
		return 0;
	}
	v += up;
	*out = neg ? -v : v;
	return 1;
}

// u_text_double reads text that is a number (strtod's, spaces around it).
static int u_text_double(const unsigned char *s, double *out) {
	if (!s) {
		return 0;
	}
	char *end;
	double d = strtod((const char *)s, &end);
	if (end == (const char *)s) {
		return 0;
	}
	while (u_space((unsigned char)*end)) {
		end++;
	}
	if (*end) {
		return 0;
	}
	*out = d;
	return 1;
}

enum { U_NULL, U_OK, U_RANGE };

// u_read reads an operand as an exact integer: a signed INTEGER, the stored form,
// a number's text exactly; a REAL, or other text as SQLite reads it as a number;
// rounded half away from zero as MySQL converts to an integer. U_RANGE: beyond
// any 64-bit integer.
static int u_read(sqlite3_value *x, i128 *out) {
	uint64_t u;
	switch (sqlite3_value_type(x)) {
	case SC_NULL:
		return U_NULL;
	case SC_INTEGER:
		*out = sqlite3_value_int64(x);
		return U_OK;
	case SC_BLOB:
		if (u_blob(x, &u)) {
			*out = u;
			return U_OK;
		}
		break;
	case SC_TEXT: {
		int frac;
		if (u_text_num(sqlite3_value_text(x), out, &frac)) {
			return U_OK;
		}
		break;
	}
	}
	double d = round(sqlite3_value_double(x));
	if (!(d >= -TWO63 && d < TWO64)) {
		return U_RANGE; // NaN too
	}
	*out = (i128)d;
	return U_OK;
}

// u_result answers v in its stored form.
static void u_result(sqlite3_context *ctx, uint64_t v) {
	if (v <= INT64_MAX) {
		sqlite3_result_int64(ctx, (long long)v);
		return;
	}
	unsigned char b[8];
	for (int i = 7; i >= 0; i--) {
		b[i] = (unsigned char)v;
		v >>= 8;
	}
	sqlite3_result_blob(ctx, b, 8, SC_TRANSIENT);
}

// u_checked answers r, a BIGINT UNSIGNED result: MySQL's 1690 outside [0, 2^64).
static void u_checked(sqlite3_context *ctx, i128 r, sqlite3_value *expr) {
	if (r < 0 || r > (i128)UINT64_MAX) {
		sc_fail(ctx, outOfRange, expr);
		return;
	}
	u_result(ctx, (uint64_t)r);
}

// u_operands reads a binary operation's operands; 0 when the answer is given
// already (NULL for a NULL operand, 1690 for one beyond 64 bits).
static int u_operands(sqlite3_context *ctx, sqlite3_value **argv, i128 *a, i128 *b, sqlite3_value *expr) {
	int ka = u_read(argv[0], a), kb = u_read(argv[1], b);
	if (ka == U_NULL || kb == U_NULL) {
		sqlite3_result_null(ctx);
		return 0;
	}
	if (ka == U_RANGE || kb == U_RANGE) {
		sc_fail(ctx, outOfRange, expr);
		return 0;
	}
	return 1;
}

// binlite_u64_add(a, b, expr), _sub, _mul: a + b, a - b, a * b whose MySQL type is
// BIGINT UNSIGNED (an operand is unsigned): exact, 1690 below 0 or beyond 2^64-1.
static void u_add(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	i128 a, b;
	if (u_operands(ctx, argv, &a, &b, argv[2])) {
		u_checked(ctx, a + b, argv[2]);
	}
}

static void u_sub(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	i128 a, b;
	if (u_operands(ctx, argv, &a, &b, argv[2])) {
		u_checked(ctx, a - b, argv[2]);
	}
}

static void u_mul(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	i128 a, b, r;
	if (!u_operands(ctx, argv, &a, &b, argv[2])) {
		return;
	}
	if (__builtin_mul_overflow(a, b, &r)) {
		sc_fail(ctx, outOfRange, argv[2]);
		return;
	}
	u_checked(ctx, r, argv[2]);
}

// u_zero answers a division by zero: NULL without a word for mode 0, else as
// sc_zero does.
static void u_zero(sqlite3_context *ctx, sqlite3_value *mode) {
	if (sqlite3_value_int64(mode) == 0) {
		sqlite3_result_null(ctx);
		return;
	}
	sc_zero(ctx, mode);
}

// binlite_u64_intdiv(a, b, mode, expr): a DIV b whose type is BIGINT UNSIGNED:
// the quotient toward zero, 1690 when it is negative (MySQL's
// Item_func_int_div); a division by zero answers as the mode says (sc_zero).
static void u_intdiv(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	i128 a, b;
	int ka = u_read(argv[0], &a), kb = u_read(argv[1], &b);
	if (ka == U_NULL || kb == U_NULL) {
		sqlite3_result_null(ctx);
		return;
	}
	if (kb == U_OK && b == 0) {
		u_zero(ctx, argv[2]);
		return;
	}
	if (ka == U_RANGE || kb == U_RANGE) {
		sc_fail(ctx, outOfRange, argv[3]);
		return;
	}
	u_checked(ctx, a / b, argv[3]);
}

// binlite_u64_mod(a, b, mode, expr): a MOD b where an operand is unsigned: the
// remainder takes the dividend's sign (MySQL's Item_func_mod).
static void u_mod(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	i128 a, b;
	int ka = u_read(argv[0], &a), kb = u_read(argv[1], &b);
	if (ka == U_NULL || kb == U_NULL) {
		sqlite3_result_null(ctx);
		return;
	}
	if (kb == U_OK && b == 0) {
		u_zero(ctx, argv[2]);
		return;
	}
	if (ka == U_RANGE || kb == U_RANGE) {
		sc_fail(ctx, outOfRange, argv[3]);
		return;
	}
	i128 r = a % b;
	if (r < 0) {
		sqlite3_result_int64(ctx, (long long)r); // |r| < |a| <= 2^63
		return;
	}
	u_result(ctx, (uint64_t)r);
}

// binlite_u64(x, expr): x where the compiler has no rule for a value of 2^63 or
// more: such a value fails with 1235 rather than be computed with as a BLOB.
static void u_strict(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	if (u_wide(argv[0])) {
		sc_fail(ctx, "binlite-error:1235:This version of binlite doesn't yet support 'computing with BIGINT UNSIGNED values above 9223372036854775807 here (%s)'", argv[1]);
		return;
	}
	sqlite3_result_value(ctx, argv[0]);
}

// binlite_u64_neg(x, expr): -x of a BIGINT UNSIGNED x, a signed BIGINT: 1690
// below its minimum.
static void u_neg(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	i128 v;
	switch (u_read(argv[0], &v)) {
	case U_NULL:
		sqlite3_result_null(ctx);
		return;
	case U_OK:
		if (-v >= (i128)INT64_MIN && -v <= (i128)INT64_MAX) {
			sqlite3_result_int64(ctx, (long long)-v);
			return;
		}
	}
	sc_fail(ctx, "binlite-error:1690:BIGINT value is out of range in '%s'", argv[1]);
}

// binlite_u64_dec(x): x for exact decimal arithmetic and text: a stored value of
// 2^63 or more as its digits, anything else as it is.
static void u_dec(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	uint64_t u;
	if (!u_blob(argv[0], &u)) {
		sqlite3_result_value(ctx, argv[0]);
		return;
	}
	if (u <= INT64_MAX) {
		sqlite3_result_int64(ctx, (long long)u);
		return;
	}
	char buf[24];
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)u);
	sqlite3_result_text(ctx, buf, -1, SC_TRANSIENT);
}

// binlite_u64_real(x): x as MySQL reads it as a DOUBLE.
static void u_real(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	uint64_t u;
	if (u_blob(argv[0], &u)) {
		sqlite3_result_double(ctx, (double)u);
		return;
	}
	sqlite3_result_value(ctx, argv[0]);
}

// u_key_double answers a number compared with a stored value: 2^64 or more is a
// 9-byte BLOB, which orders after every stored value; from 2^63 its stored form.
static void u_key_double(sqlite3_context *ctx, double d) {
	if (d >= TWO64) {
		static const unsigned char above[9] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
		sqlite3_result_blob(ctx, above, 9, SC_TRANSIENT);
		return;
	}
	if (d >= TWO63) {
		u_result(ctx, (uint64_t)d);
		return;
	}
	sqlite3_result_double(ctx, d);
}

// binlite_u64_key(x): a value compared with a BIGINT UNSIGNED (a parameter, whose
// type comes with each execution) as the compared value's stored form, so that
// SQLite's comparison (and an index) answers as MySQL's: a number or number text
// of 2^63 or more becomes the BLOB form; below that the column's affinity
// already makes it the number.
static void u_key(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	sqlite3_value *x = argv[0];
	i128 v;
	double d;
	switch (sqlite3_value_type(x)) {
	case SC_TEXT: {
		const unsigned char *s = sqlite3_value_text(x);
		int frac;
		if (u_text_num(s, &v, &frac) && !frac) {
			if (v > (i128)UINT64_MAX) {
				u_key_double(ctx, TWO64);
			} else if (v >= (i128)INT64_MIN) {
				if (v > INT64_MAX) {
					u_result(ctx, (uint64_t)v);
				} else {
					sqlite3_result_int64(ctx, (long long)v);
				}
			} else {
				sqlite3_result_value(ctx, x);
			}
			return;
		}
		if (!u_text_double(s, &d)) {
			d = sqlite3_value_double(x); // the number it starts with, as MySQL reads it
		}
		u_key_double(ctx, d);
		return;
	}
	case SC_FLOAT:
		u_key_double(ctx, sqlite3_value_double(x));
		return;
	}
	sqlite3_result_value(ctx, x);
}

// binlite_u64_from(x, expr): a number whose MySQL type is BIGINT UNSIGNED but
// which the engine computed otherwise (an exact decimal's text, a REAL) in its
// stored form; 1690 outside [0, 2^64).
static void u_from(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	i128 v;
	switch (u_read(argv[0], &v)) {
	case U_NULL:
		sqlite3_result_null(ctx);
		return;
	case U_RANGE:
		sc_fail(ctx, outOfRange, argv[1]);
		return;
	}
	u_checked(ctx, v, argv[1]);
}

// binlite_u64_store(x, col): a number written into BIGINT UNSIGNED column col,
// rounded half away from zero, in its stored form; outside the column's range
// MySQL's 1264. Text that is no number is left as it is, for the column's value
// check to refuse (1366).
static void u_store(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	i128 v;
	double d;
	int frac;
	if (sqlite3_value_type(argv[0]) == SC_TEXT) {
		const unsigned char *s = sqlite3_value_text(argv[0]);
		if (!u_text_num(s, &v, &frac) && !u_text_double(s, &d)) {
			sqlite3_result_value(ctx, argv[0]);
			return;
		}
	}
	switch (u_read(argv[0], &v)) {
	case U_NULL:
		sqlite3_result_null(ctx);
		return;
	case U_OK:
		if (v >= 0 && v <= (i128)UINT64_MAX) {
			u_result(ctx, (uint64_t)v);
			return;
		}
	}
	sc_fail(ctx, "binlite-error:1264:Out of range value for column '%s' at row 1", argv[1]);
}

// binlite_u64_narrow(x, col): a BIGINT UNSIGNED written into a signed integer
// column col: a value from 2^63 is beyond any, MySQL's 1264.
static void u_narrow(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	if (u_wide(argv[0])) {
		sc_fail(ctx, "binlite-error:1264:Out of range value for column '%s' at row 1", argv[1]);
		return;
	}
	sqlite3_result_value(ctx, argv[0]);
}

// binlite_u64_bits(x): the result of one of SQLite's bit operators, whose MySQL
// type is BIGINT UNSIGNED: a negative INTEGER is the two's complement's value.
static void u_bits(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	if (sqlite3_value_type(argv[0]) == SC_INTEGER) {
		u_result(ctx, (uint64_t)sqlite3_value_int64(argv[0]));
		return;
	}
	sqlite3_result_value(ctx, argv[0]);
}

// binlite_u64_signed(x): a stored value as the signed BIGINT with its bits (CAST
// AS SIGNED, an operand of SQLite's bit operators); anything else as it is.
static void u_signed(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	uint64_t u;
	if (u_wide(argv[0]) && u_blob(argv[0], &u)) {
		sqlite3_result_int64(ctx, (long long)u);
		return;
	}
	sqlite3_result_value(ctx, argv[0]);
}

// u_bits_arg reads a bit operator's operand as 64 bits: the stored form, else
// SQLite's integer of the value (a negative one in two's complement). 0: NULL.
static int u_bits_arg(sqlite3_value *x, uint64_t *out) {
	switch (sqlite3_value_type(x)) {
	case SC_NULL:
		return 0;
	case SC_BLOB:
		if (u_blob(x, out)) {
			return 1;
		}
		break;
	}
	*out = (uint64_t)sqlite3_value_int64(x);
	return 1;
}

// binlite_u64_shl(a, n), binlite_u64_shr(a, n): MySQL's << and >> over 64
// unsigned bits (SQLite's >> keeps the sign, and shifts the other way for a
// negative count); a count of 64 or more (a negative one is one) gives 0.
static void u_shift(sqlite3_context *ctx, sqlite3_value **argv, int left) {
	uint64_t a, n;
	if (!u_bits_arg(argv[0], &a) || !u_bits_arg(argv[1], &n)) {
		sqlite3_result_null(ctx);
		return;
	}
	if (n >= 64) {
		sqlite3_result_int64(ctx, 0);
		return;
	}
	u_result(ctx, left ? a << n : a >> n);
}

static void u_shl(sqlite3_context *ctx, int argc, sqlite3_value **argv) { u_shift(ctx, argv, 1); }
static void u_shr(sqlite3_context *ctx, int argc, sqlite3_value **argv) { u_shift(ctx, argv, 0); }

// binlite_u64_cast(x): CAST(x AS UNSIGNED) of an integer: a negative one is its
// two's complement's value, as in MySQL.
static void u_cast(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	if (sqlite3_value_type(argv[0]) == SC_INTEGER) {
		u_result(ctx, (uint64_t)sqlite3_value_int64(argv[0]));
		return;
	}
	sqlite3_result_value(ctx, argv[0]);
}

int sc_register_u64(sqlite3 *db, uintptr_t warn) {
	static const struct {
		const char *name;
		int args;
		sc_fn fn;
	} pure[] = {
		{"binlite_u64", 2, u_strict},
		{"binlite_u64_add", 3, u_add},
		{"binlite_u64_sub", 3, u_sub},
		{"binlite_u64_mul", 3, u_mul},
		{"binlite_u64_neg", 2, u_neg},
		{"binlite_u64_dec", 1, u_dec},
		{"binlite_u64_real", 1, u_real},
		{"binlite_u64_key", 1, u_key},
		{"binlite_u64_from", 2, u_from},
		{"binlite_u64_store", 2, u_store},
		{"binlite_u64_narrow", 2, u_narrow},
		{"binlite_u64_bits", 1, u_bits},
		{"binlite_u64_signed", 1, u_signed},
		{"binlite_u64_shl", 2, u_shl},
		{"binlite_u64_shr", 2, u_shr},
		{"binlite_u64_cast", 1, u_cast},
	};
	int rc = 0;
	for (unsigned i = 0; rc == 0 && i < sizeof pure / sizeof pure[0]; i++) {
		rc = sqlite3_create_function_v2(db, pure[i].name, pure[i].args, SC_UTF8 | SC_DETERMINISTIC, 0, pure[i].fn, 0, 0, 0);
	}
	// Not deterministic: each row's division by zero is its own warning.
	if (rc == 0)
		rc = sqlite3_create_function_v2(db, "binlite_u64_intdiv", 4, SC_UTF8, (void *)warn, u_intdiv, 0, 0, 0);
	if (rc == 0)
		rc = sqlite3_create_function_v2(db, "binlite_u64_mod", 4, SC_UTF8, (void *)warn, u_mod, 0, 0, 0);
	return rc;
}
