// Declarations shared by the package's C files: SQLite's, repeated because
// sqlite3.h is not on this package's path (the functions are those of the SQLite
// mattn/go-sqlite3 links into the binary), and the helpers checks.c defines.
#ifndef BINLITE_SC_H
#define BINLITE_SC_H

#include <stdint.h>

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_context sqlite3_context;
typedef struct sqlite3_value sqlite3_value;
typedef void (*sc_fn)(sqlite3_context *, int, sqlite3_value **);

// sc_val is one argument of a Go SQL function as gofunc.c reads it: its SQLite
// type, and its integer, double, or text/blob bytes (SQLite's, valid for the call).
typedef struct {
	int type;
	int n;
	long long i;
	double r;
	const void *p;
} sc_val;

extern int sqlite3_create_function_v2(sqlite3 *, const char *, int, int, void *, sc_fn, sc_fn,
	void (*)(sqlite3_context *), void (*)(void *));
extern int sqlite3_value_type(sqlite3_value *);
extern double sqlite3_value_double(sqlite3_value *);
extern long long sqlite3_value_int64(sqlite3_value *);
extern const unsigned char *sqlite3_value_text(sqlite3_value *);
extern const void *sqlite3_value_blob(sqlite3_value *);
extern int sqlite3_value_bytes(sqlite3_value *);
extern void sqlite3_result_value(sqlite3_context *, sqlite3_value *);
extern void sqlite3_result_null(sqlite3_context *);
extern void sqlite3_result_double(sqlite3_context *, double);
extern void sqlite3_result_int64(sqlite3_context *, long long);
extern void sqlite3_result_blob(sqlite3_context *, const void *, int, void (*)(void *));
extern void sqlite3_result_text(sqlite3_context *, const char *, int, void (*)(void *));
extern void sqlite3_result_error(sqlite3_context *, const char *, int);
extern void *sqlite3_user_data(sqlite3_context *);
extern char *sqlite3_mprintf(const char *, ...);
extern void sqlite3_free(void *);

// SQLite's constants.
#define SC_INTEGER 1
#define SC_FLOAT 2
#define SC_TEXT 3
#define SC_BLOB 4
#define SC_NULL 5
#define SC_UTF8 1
#define SC_DETERMINISTIC 0x000000800
#define SC_TRANSIENT ((void (*)(void *))-1)

// 2^63 and 2^64 as doubles (both exact).
#define TWO63 9223372036854775808.0
#define TWO64 18446744073709551616.0

// sc_fail raises MySQL error code with the message format (one %s: the expression)
// in the form engine.translateError reads ("binlite-error:<code>:<message>").
void sc_fail(sqlite3_context *ctx, const char *format, sqlite3_value *expr);

// sc_zero answers a division by zero as the divisions' mode argument says.
void sc_zero(sqlite3_context *ctx, sqlite3_value *mode);

// sc_register_u64 adds the functions over unsigned 64-bit values (u64.c); warn is
// the Go handle division warnings go to.
int sc_register_u64(sqlite3 *db, uintptr_t warn);

// sc_register_math adds MySQL's mathematical functions (math.c).
int sc_register_math(sqlite3 *db, uintptr_t warn);

#endif
