// MySQL's mathematical functions (manual 14.6.2) on the C library's, as
// MySQL computes them: the same last digits as MySQL on the same platform,
// NULL for NULL and outside a function's domain, warning 3020 for a
// logarithm of a value that is not positive. A result that overflows is
// infinity, which the compiler's binlite_double turns into MySQL's 1690.
#include <math.h>
#include <string.h>
#include "_cgo_export.h"
#include "sc.h"

// sc_arg reads a double argument; 0 for NULL.
static int sc_arg(sqlite3_value *v, double *x) {
	if (sqlite3_value_type(v) == SC_NULL)
		return 0;
	*x = sqlite3_value_double(v);
	return 1;
}

#define SC_UNARY(name, expr)                                                   \
	static void name(sqlite3_context *ctx, int argc, sqlite3_value **argv) { \
		double x;                                                            \
		if (!sc_arg(argv[0], &x)) {                                          \
			sqlite3_result_null(ctx);                                        \
			return;                                                          \
		}                                                                    \
		sqlite3_result_double(ctx, (expr));                                  \
	}

SC_UNARY(sc_sin, sin(x))
SC_UNARY(sc_cos, cos(x))
SC_UNARY(sc_tan, tan(x))
SC_UNARY(sc_cot, 1.0 / tan(x))
SC_UNARY(sc_exp, exp(x))
SC_UNARY(sc_floor, floor(x))
SC_UNARY(sc_ceil, ceil(x))
SC_UNARY(sc_degrees, x * (180.0 / M_PI))
SC_UNARY(sc_radians, x * (M_PI / 180.0))

// sc_partial: NULL outside the function's domain (SQRT(-1), ASIN(2)).
#define SC_PARTIAL(name, inside, expr)                                         \
	static void name(sqlite3_context *ctx, int argc, sqlite3_value **argv) { \
		double x;                                                            \
		if (!sc_arg(argv[0], &x) || !(inside)) {                             \
			sqlite3_result_null(ctx);                                        \
			return;                                                          \
		}                                                                    \
		sqlite3_result_double(ctx, (expr));                                  \
	}

SC_PARTIAL(sc_sqrt, x >= 0, sqrt(x))
SC_PARTIAL(sc_asin, x >= -1 && x <= 1, asin(x))
SC_PARTIAL(sc_acos, x >= -1 && x <= 1, acos(x))

static void sc_bad_log(sqlite3_context *ctx) {
	scWarn((uintptr_t)sqlite3_user_data(ctx), 3020, (char *)"Invalid argument for logarithm");
	sqlite3_result_null(ctx);
}

#define SC_LOG(name, fn)                                                       \
	static void name(sqlite3_context *ctx, int argc, sqlite3_value **argv) { \
		double x;                                                            \
		if (!sc_arg(argv[0], &x)) {                                          \
			sqlite3_result_null(ctx);                                        \
			return;                                                          \
		}                                                                    \
		if (x <= 0) {                                                        \
			sc_bad_log(ctx);                                                 \
			return;                                                          \
		}                                                                    \
		sqlite3_result_double(ctx, fn(x));                                   \
	}

SC_LOG(sc_ln, log)
SC_LOG(sc_log2, log2)
SC_LOG(sc_log10, log10)

// binlite_log(b, x): the logarithm of x to base b (MySQL's LOG(b, x)).
static void sc_log_base(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	double b, x;
	if (!sc_arg(argv[0], &b) || !sc_arg(argv[1], &x)) {
		sqlite3_result_null(ctx);
		return;
	}
	if (x <= 0 || b <= 0 || b == 1) {
		sc_bad_log(ctx);
		return;
	}
	sqlite3_result_double(ctx, log(x) / log(b));
}

// binlite_atan(y[, x]): ATAN(y) or ATAN(y, x) = ATAN2(y, x).
static void sc_atan(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	double y, x;
	if (!sc_arg(argv[0], &y) || argc == 2 && !sc_arg(argv[1], &x)) {
		sqlite3_result_null(ctx);
		return;
	}
	sqlite3_result_double(ctx, argc == 2 ? atan2(y, x) : atan(y));
}

// binlite_pow(x, y): a result that is no number (POW(-8, 1/3)) is out of
// range, as MySQL's check says.
static void sc_pow(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	double x, y;
	if (!sc_arg(argv[0], &x) || !sc_arg(argv[1], &y)) {
		sqlite3_result_null(ctx);
		return;
	}
	double r = pow(x, y);
	sqlite3_result_double(ctx, isnan(r) ? INFINITY : r);
}

// sc_clean_number: s (NUL-terminated) is a decimal number between spaces, as
// MySQL reads a string without a warning.
static int sc_clean_number(const unsigned char *s) {
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	if (*s == '+' || *s == '-')
		s++;
	int digits = 0;
	while (*s >= '0' && *s <= '9')
		s++, digits++;
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9')
			s++, digits++;
	}
	if (!digits)
		return 0;
	if (*s == 'e' || *s == 'E') {
		const unsigned char *e = s + 1;
		if (*e == '+' || *e == '-')
			e++;
		if (*e >= '0' && *e <= '9') {
			while (*e >= '0' && *e <= '9')
				e++;
			s = e;
		}
	}
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return *s == 0;
}

// binlite_to_double(x): a string read as a number where MySQL compares or
// computes with it as a DOUBLE: the number it starts with, and warning 1292
// when more than spaces follows (SQLite converts without a word). Numbers and
// NULL pass through.
static void sc_to_double(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	int t = sqlite3_value_type(argv[0]);
	if (t != SC_TEXT && t != SC_BLOB) {
		sqlite3_result_value(ctx, argv[0]);
		return;
	}
	const unsigned char *text = sqlite3_value_text(argv[0]);
	if (text && !sc_clean_number(text)) {
		char *msg = sqlite3_mprintf("Truncated incorrect DOUBLE value: '%s'", text);
		if (msg) {
			scWarn((uintptr_t)sqlite3_user_data(ctx), 1292, msg);
			sqlite3_free(msg);
		}
	}
	sqlite3_result_double(ctx, sqlite3_value_double(argv[0]));
}

// sc_clean_integer: s (NUL-terminated) is an integer between spaces.
static int sc_clean_integer(const unsigned char *s) {
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	if (*s == '+' || *s == '-')
		s++;
	if (*s < '0' || *s > '9')
		return 0;
	int digits = 0;
	while (*s >= '0' && *s <= '9')
		s++, digits++;
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return *s == 0 && digits <= 18; // more digits may be beyond BIGINT: checked by SQLite's clamp below
}

// binlite_to_int(x): CAST(x AS SIGNED) of a string: the integer it starts
// with (SQLite's CAST), and warning 1292 when more than spaces follows it.
static void sc_to_int(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	int t = sqlite3_value_type(argv[0]);
	if (t != SC_TEXT && t != SC_BLOB) {
		sqlite3_result_value(ctx, argv[0]);
		return;
	}
	const unsigned char *text = sqlite3_value_text(argv[0]);
	long long n = sqlite3_value_int64(argv[0]);
	if (text && !sc_clean_integer(text)) {
		// a long clean integer SQLite read exactly is no truncation
		char *back = sqlite3_mprintf("%lld", n);
		const unsigned char *p = text;
		while (*p == ' ' || *p == '+')
			p++;
		int exact = back && strcmp((const char *)p, back) == 0;
		sqlite3_free(back);
		if (!exact) {
			char *msg = sqlite3_mprintf("Truncated incorrect INTEGER value: '%s'", text);
			if (msg) {
				scWarn((uintptr_t)sqlite3_user_data(ctx), 1292, msg);
				sqlite3_free(msg);
			}
		}
	}
	sqlite3_result_int64(ctx, n);
}

// sc_register_math adds the functions to db; warn is the handle warnings go to.
int sc_register_math(sqlite3 *db, uintptr_t warn) {
	static const struct {
		const char *name;
		int nargs;
		sc_fn fn;
	} fns[] = {
		{"binlite_sin", 1, sc_sin},       {"binlite_cos", 1, sc_cos},         {"binlite_tan", 1, sc_tan},
		{"binlite_cot", 1, sc_cot},       {"binlite_exp", 1, sc_exp},         {"binlite_floor", 1, sc_floor},
		{"binlite_ceil", 1, sc_ceil},     {"binlite_degrees", 1, sc_degrees}, {"binlite_radians", 1, sc_radians},
		{"binlite_sqrt", 1, sc_sqrt},     {"binlite_asin", 1, sc_asin},       {"binlite_acos", 1, sc_acos},
		{"binlite_atan", 1, sc_atan},     {"binlite_atan", 2, sc_atan},       {"binlite_pow", 2, sc_pow},
		{"binlite_ln", 1, sc_ln},         {"binlite_log2", 1, sc_log2},       {"binlite_log10", 1, sc_log10},
		{"binlite_log", 2, sc_log_base},  {"binlite_to_double", 1, sc_to_double}, {"binlite_to_int", 1, sc_to_int},
	};
	for (unsigned i = 0; i < sizeof fns / sizeof fns[0]; i++) {
		// The logarithms warn: not deterministic, so each row's call warns.
		int det = fns[i].fn == sc_ln || fns[i].fn == sc_log2 || fns[i].fn == sc_log10 || fns[i].fn == sc_log_base ||
				fns[i].fn == sc_to_double || fns[i].fn == sc_to_int
			? 0
			: SC_DETERMINISTIC;
		int rc = sqlite3_create_function_v2(db, fns[i].name, fns[i].nargs, SC_UTF8 | det, (void *)warn, fns[i].fn, 0, 0, 0);
		if (rc != 0)
			return rc;
	}
	return 0;
}
