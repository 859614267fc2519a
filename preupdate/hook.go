package preupdate

/*
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_value sqlite3_value;
typedef long long sqlite3_int64;

extern void *sqlite3_preupdate_hook(sqlite3*, void(*)(void*,sqlite3*,int,const char*,const char*,sqlite3_int64,sqlite3_int64), void*);
extern int sqlite3_preupdate_old(sqlite3*, int, sqlite3_value**);
extern int sqlite3_preupdate_new(sqlite3*, int, sqlite3_value**);
extern int sqlite3_preupdate_count(sqlite3*);
extern int sqlite3_preupdate_depth(sqlite3*);
extern int sqlite3_value_type(sqlite3_value*);
extern sqlite3_int64 sqlite3_value_int64(sqlite3_value*);
extern double sqlite3_value_double(sqlite3_value*);
extern const void *sqlite3_value_blob(sqlite3_value*);
extern const unsigned char *sqlite3_value_text(sqlite3_value*);
extern int sqlite3_value_bytes(sqlite3_value*);

// SQLite's codes, repeated here because sqlite3.h is not on this package's path.
#define PU_INSERT 18
#define PU_DELETE 9
#define PU_UPDATE 23
#define PU_INTEGER 1
#define PU_FLOAT 2
#define PU_TEXT 3
#define PU_BLOB 4
#define PU_NULL 5
#define PU_RANGE 25

typedef struct {
	unsigned char *buf;
	size_t len, cap;
	int active;
	int failed;
} recorder;

static int pu_reserve(recorder *r, size_t n) {
	if (r->failed) return 0;
	if (r->len + n <= r->cap) return 1;
	size_t cap = r->cap ? r->cap * 2 : 4096;
	while (cap < r->len + n) cap *= 2;
	unsigned char *b = realloc(r->buf, cap);
	if (!b) { r->failed = 1; return 0; }
	r->buf = b;
	r->cap = cap;
	return 1;
}

static void pu_put(recorder *r, const void *p, size_t n) {
	if (!pu_reserve(r, n)) return;
	memcpy(r->buf + r->len, p, n);
	r->len += n;
}

static void pu_u32(recorder *r, uint32_t v) { pu_put(r, &v, 4); }

static void pu_str(recorder *r, const char *s) {
	uint32_t n = s ? (uint32_t)strlen(s) : 0;
	pu_u32(r, n);
	pu_put(r, s, n);
}

static void pu_value(recorder *r, sqlite3_value *v) {
	unsigned char t = v ? (unsigned char)sqlite3_value_type(v) : PU_NULL;
	pu_put(r, &t, 1);
	switch (t) {
	case PU_INTEGER: { sqlite3_int64 i = sqlite3_value_int64(v); pu_put(r, &i, 8); break; }
	case PU_FLOAT: { double d = sqlite3_value_double(v); pu_put(r, &d, 8); break; }
	case PU_TEXT: {
		const unsigned char *s = sqlite3_value_text(v);
		uint32_t n = (uint32_t)sqlite3_value_bytes(v);
		pu_u32(r, n);
		pu_put(r, s, n);
		break;
	}
	case PU_BLOB: {
		const void *b = sqlite3_value_blob(v);
		uint32_t n = (uint32_t)sqlite3_value_bytes(v);
		pu_u32(r, n);
		pu_put(r, b, n);
		break;
	}
	default: break;
	}
}

// Record layout (little endian): op u8, depth u8 (0 for the statement's own changes,
// more for a trigger's or a foreign key action's), db str, table str, ncols u32, then ncols old
// values if op is DELETE or UPDATE, then ncols new values if op is INSERT or UPDATE.
// A value is its type u8, then i64 | f64 | u32 length + bytes | nothing (NULL).
static void pu_hook(void *ctx, sqlite3 *db, int op, const char *zDb, const char *zTbl, sqlite3_int64 k1, sqlite3_int64 k2) {
	recorder *r = (recorder*)ctx;
	if (!r->active || r->failed) return;
	if (zTbl && (strncmp(zTbl, "binlite_", 8) == 0 || strncmp(zTbl, "sqlite_", 7) == 0)) return;
	unsigned char o = (unsigned char)op;
	pu_put(r, &o, 1);
	int depth = sqlite3_preupdate_depth(db);
	unsigned char d = (unsigned char)(depth > 255 ? 255 : depth);
	pu_put(r, &d, 1);
	pu_str(r, zDb);
	pu_str(r, zTbl);
	int n = sqlite3_preupdate_count(db);
	pu_u32(r, (uint32_t)n);
	sqlite3_value *v;
	int rc;
	// A VIRTUAL generated column is not in the stored row: SQLite answers
	// SQLITE_RANGE for it, and it is recorded as NULL (rows events leave
	// generated columns out; see engine.Table.logged).
	if (op == PU_DELETE || op == PU_UPDATE) {
		for (int i = 0; i < n; i++) {
			v = 0;
			rc = sqlite3_preupdate_old(db, i, &v);
			if (rc == PU_RANGE) v = 0;
			else if (rc != 0) { r->failed = 1; return; }
			pu_value(r, v);
		}
	}
	if (op == PU_INSERT || op == PU_UPDATE) {
		for (int i = 0; i < n; i++) {
			v = 0;
			rc = sqlite3_preupdate_new(db, i, &v);
			if (rc == PU_RANGE) v = 0;
			else if (rc != 0) { r->failed = 1; return; }
			pu_value(r, v);
		}
	}
}

static recorder *pu_install(void *db) {
	recorder *r = calloc(1, sizeof(recorder));
	if (r) sqlite3_preupdate_hook((sqlite3*)db, pu_hook, r);
	return r;
}

static void pu_uninstall(void *db, recorder *r) {
	sqlite3_preupdate_hook((sqlite3*)db, 0, 0);
	free(r->buf);
	free(r);
}
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/binlite/binlite/sqlitec"
	"github.com/mattn/go-sqlite3"
)

// Recorder captures the changes of one connection. It is used by one goroutine at a
// time (whoever drives the connection).
type Recorder struct {
	db unsafe.Pointer // the connection's sqlite3*
	r  *C.recorder
}

// Install puts the capture hook on a connection, replacing any other preupdate hook.
func Install(conn *sqlite3.SQLiteConn) (*Recorder, error) {
	db, err := sqlitec.Handle(conn)
	if err != nil {
		return nil, fmt.Errorf("preupdate: %w", err)
	}
	r := C.pu_install(db)
	if r == nil {
		return nil, errors.New("preupdate: out of memory")
	}
	return &Recorder{db: db, r: r}, nil
}

// Start begins recording a statement's changes (discarding anything recorded before).
func (rec *Recorder) Start() {
	rec.r.len, rec.r.failed, rec.r.active = 0, 0, 1
}

// Mark is where the changes recorded so far end, for Rewind.
func (rec *Recorder) Mark() int { return int(rec.r.len) }

// Rewind forgets the changes recorded after mark: those of a savepoint rolled
// back while the statement goes on.
func (rec *Recorder) Rewind(mark int) {
	if mark >= 0 && mark <= int(rec.r.len) {
		rec.r.len = C.size_t(mark)
	}
}

// Stop ends recording and returns a copy of what was recorded.
func (rec *Recorder) Stop() ([]byte, error) {
	rec.r.active = 0
	if rec.r.failed != 0 {
		return nil, errors.New("preupdate: capture failed (out of memory or unreadable row image)")
	}
	if rec.r.len == 0 {
		return nil, nil
	}
	return C.GoBytes(unsafe.Pointer(rec.r.buf), C.int(rec.r.len)), nil
}

// Close removes the hook and frees the buffer; call it before closing the connection.
func (rec *Recorder) Close() {
	if rec.r != nil {
		C.pu_uninstall(rec.db, rec.r)
		rec.r = nil
	}
}

// Operation codes in records (SQLite's).
const (
	OpInsert = 18
	OpDelete = 9
	OpUpdate = 23
)

// Storage classes in records (SQLite's).
const (
	TypeInteger = 1
	TypeFloat   = 2
	TypeText    = 3
	TypeBlob    = 4
	TypeNull    = 5
)

var errShort = fmt.Errorf("preupdate: truncated record")
