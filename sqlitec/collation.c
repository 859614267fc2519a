// SQLite calls a collation through these, with the Go function's handle as its
// argument (see collation.go).
#include <stdint.h>
#include "_cgo_export.h"

typedef struct sqlite3 sqlite3;
extern int sqlite3_create_collation_v2(sqlite3 *, const char *, int, void *,
	int (*)(void *, int, const void *, int, const void *), void (*)(void *));

static int sc_collate(void *fn, int la, const void *a, int lb, const void *b) {
	return scCollate((uintptr_t)fn, la, (char *)a, lb, (char *)b);
}

static void sc_collation_gone(void *fn) { scCollationGone((uintptr_t)fn); }

int sc_create_collation(sqlite3 *db, const char *name, uintptr_t fn) {
	return sqlite3_create_collation_v2(db, name, 1 /* SQLITE_UTF8 */, (void *)fn, sc_collate, sc_collation_gone);
}
