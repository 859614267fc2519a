// The one xFunc and xStep/xFinal of every Go SQL function (see gofunc.go): the
// arguments are read into sc_val cells here, in C, so that Go reads plain memory
// instead of calling into C once per argument.
#include <stdint.h>
#include "_cgo_export.h"
#include "sc.h"

extern void *sqlite3_malloc64(uint64_t);
extern void *sqlite3_aggregate_context(sqlite3_context *, int);
extern void sqlite3_result_error_nomem(sqlite3_context *);

// sc_read fills v with argc arguments.
static void sc_read(sc_val *v, int argc, sqlite3_value **argv) {
	for (int i = 0; i < argc; i++) {
		int t = sqlite3_value_type(argv[i]);
		v[i].type = t;
		v[i].n = 0;
		v[i].p = 0;
		switch (t) {
		case SC_INTEGER:
			v[i].i = sqlite3_value_int64(argv[i]);
			break;
		case SC_FLOAT:
			v[i].r = sqlite3_value_double(argv[i]);
			break;
		case SC_TEXT:
			v[i].p = sqlite3_value_text(argv[i]);
			v[i].n = sqlite3_value_bytes(argv[i]);
			break;
		case SC_BLOB:
			v[i].p = sqlite3_value_blob(argv[i]);
			v[i].n = sqlite3_value_bytes(argv[i]);
			break;
		}
	}
}

#define SC_STACK_ARGS 8

static void sc_go_scalar(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	sc_val stack[SC_STACK_ARGS];
	sc_val *v = stack;
	if (argc > SC_STACK_ARGS) {
		v = sqlite3_malloc64((uint64_t)argc * sizeof(sc_val));
		if (!v) {
			sqlite3_result_error_nomem(ctx);
			return;
		}
	}
	sc_read(v, argc, argv);
	scGoScalar((uintptr_t)sqlite3_user_data(ctx), ctx, argc, v);
	if (v != stack)
		sqlite3_free(v);
}

// An aggregate's state is a Go handle kept in SQLite's aggregate context
// (0 until the first row).
static void sc_go_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	uintptr_t *state = sqlite3_aggregate_context(ctx, sizeof(uintptr_t));
	if (!state) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	sc_val stack[SC_STACK_ARGS];
	sc_val *v = stack;
	if (argc > SC_STACK_ARGS) {
		v = sqlite3_malloc64((uint64_t)argc * sizeof(sc_val));
		if (!v) {
			sqlite3_result_error_nomem(ctx);
			return;
		}
	}
	sc_read(v, argc, argv);
	*state = scGoStep((uintptr_t)sqlite3_user_data(ctx), *state, ctx, argc, v);
	if (v != stack)
		sqlite3_free(v);
}

static void sc_go_final(sqlite3_context *ctx) {
	uintptr_t *state = sqlite3_aggregate_context(ctx, 0);
	scGoFinal((uintptr_t)sqlite3_user_data(ctx), state ? *state : 0, ctx);
}

static void sc_go_gone(void *fn) { scGoGone((uintptr_t)fn); }

int sc_create_go_function(sqlite3 *db, const char *name, int nargs, int deterministic, int aggregate, uintptr_t fn) {
	int flags = SC_UTF8 | (deterministic ? SC_DETERMINISTIC : 0);
	if (aggregate)
		return sqlite3_create_function_v2(db, name, nargs, flags, (void *)fn, 0, sc_go_step, sc_go_final, sc_go_gone);
	return sqlite3_create_function_v2(db, name, nargs, flags, (void *)fn, sc_go_scalar, 0, 0, sc_go_gone);
}

void sc_result_text(sqlite3_context *ctx, const char *p, int n) {
	sqlite3_result_text(ctx, n == 0 ? "" : p, n, SC_TRANSIENT);
}

void sc_result_blob(sqlite3_context *ctx, const void *p, int n) {
	sqlite3_result_blob(ctx, n == 0 ? (const void *)"" : p, n, SC_TRANSIENT);
}
