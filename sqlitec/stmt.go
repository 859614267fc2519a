package sqlitec

/*
#include <stdlib.h>
#include <string.h>

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;
typedef long long sqlite3_int64;

extern int sqlite3_prepare_v3(sqlite3*, const char*, int, unsigned int, sqlite3_stmt**, const char**);
extern int sqlite3_finalize(sqlite3_stmt*);
extern int sqlite3_bind_int64(sqlite3_stmt*, int, sqlite3_int64);
extern int sqlite3_bind_double(sqlite3_stmt*, int, double);
extern int sqlite3_bind_text(sqlite3_stmt*, int, const char*, int, void(*)(void*));
extern int sqlite3_bind_blob(sqlite3_stmt*, int, const void*, int, void(*)(void*));
extern int sqlite3_bind_null(sqlite3_stmt*, int);
extern int sqlite3_step(sqlite3_stmt*);
extern int sqlite3_reset(sqlite3_stmt*);
extern int sqlite3_clear_bindings(sqlite3_stmt*);
extern sqlite3_int64 sqlite3_changes64(sqlite3*);
extern int sqlite3_extended_errcode(sqlite3*);
extern const char *sqlite3_errmsg(sqlite3*);

// SQLite's codes, repeated because sqlite3.h is not on this package's path.
#define SC_OK 0
#define SC_ROW 100
#define SC_DONE 101
#define SC_MISUSE 21
#define SC_PREPARE_PERSISTENT 0x01

enum { SC_NULL, SC_INT, SC_REAL, SC_TEXT, SC_BLOB };

typedef struct {
	int kind;
	int len;
	sqlite3_int64 i;
	double r;
	size_t off; // of text and blobs, in the argument list's bytes
} sc_arg;

// An argument list lives in C memory: Go fills it, sc_exec binds it with SQLITE_STATIC
// (no copy by SQLite) and clears the bindings before returning.
typedef struct {
	sc_arg *v;
	int n, cap;
	char *bytes;
	size_t blen, bcap;
} sc_args;

static int sc_grow(sc_args *a) {
	int cap = a->cap ? 2 * a->cap : 16;
	sc_arg *v = realloc(a->v, (size_t)cap * sizeof(sc_arg));
	if (!v) return 0;
	a->v = v;
	a->cap = cap;
	return 1;
}

static int sc_reserve(sc_args *a, size_t n) {
	if (a->bcap - a->blen >= n) return 1;
	size_t cap = a->bcap ? 2 * a->bcap : 4096;
	while (cap - a->blen < n) cap *= 2;
	char *b = realloc(a->bytes, cap);
	if (!b) return 0;
	a->bytes = b;
	a->bcap = cap;
	return 1;
}

static void sc_free(sc_args *a) {
	free(a->v);
	free(a->bytes);
	free(a);
}

static int sc_prepare(sqlite3 *db, const char *sql, int n, sqlite3_stmt **st) {
	return sqlite3_prepare_v3(db, sql, n, SC_PREPARE_PERSISTENT, st, 0);
}

// sc_exec binds the arguments, steps the statement to its end and resets it; changes
// gets the rows it changed. It returns SQLite's result code (SC_OK on success).
static int sc_exec(sqlite3 *db, sqlite3_stmt *st, sc_args *a, sqlite3_int64 *changes) {
	static const char empty[1] = {0}; // a zero-length value is not NULL: never bind a null pointer
	int rc = SC_OK;
	for (int i = 0; i < a->n && rc == SC_OK; i++) {
		sc_arg *x = &a->v[i];
		const char *p = x->len ? a->bytes + x->off : empty;
		switch (x->kind) {
		case SC_INT: rc = sqlite3_bind_int64(st, i + 1, x->i); break;
		case SC_REAL: rc = sqlite3_bind_double(st, i + 1, x->r); break;
		case SC_TEXT: rc = sqlite3_bind_text(st, i + 1, p, x->len, 0); break;
		case SC_BLOB: rc = sqlite3_bind_blob(st, i + 1, p, x->len, 0); break;
		default: rc = sqlite3_bind_null(st, i + 1);
		}
	}
	if (rc == SC_OK) {
		do {
			rc = sqlite3_step(st);
		} while (rc == SC_ROW);
		if (rc == SC_DONE) {
			rc = SC_OK;
			*changes = sqlite3_changes64(db);
		}
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st); // the bytes are reused for the next row
	return rc;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"unsafe"

	"github.com/mattn/go-sqlite3"
)

// Conn is direct access to one connection: its handle and an argument list.
type Conn struct {
	db   *C.sqlite3
	args *C.sc_args
}

// Open gives direct access to conn. Close it before the connection is closed.
func Open(conn *sqlite3.SQLiteConn) (*Conn, error) {
	h, err := Handle(conn)
	if err != nil {
		return nil, err
	}
	a := (*C.sc_args)(C.calloc(1, C.size_t(unsafe.Sizeof(C.sc_args{}))))
	if a == nil {
		return nil, errors.New("sqlitec: out of memory")
	}
	return &Conn{db: (*C.sqlite3)(h), args: a}, nil
}

// Close frees the argument list; statements are closed on their own.
func (c *Conn) Close() {
	if c.args != nil {
		C.sc_free(c.args)
		c.args = nil
	}
}

// Error is a failed SQLite call: its extended result code and message.
type Error struct {
	Code         int // primary result code (ExtendedCode & 0xff)
	ExtendedCode int
	Msg          string
}

func (e *Error) Error() string { return e.Msg }

func (c *Conn) err(rc C.int) error {
	ext := int(C.sqlite3_extended_errcode(c.db))
	if ext&0xff != int(rc)&0xff {
		ext = int(rc) // the handle's last error is another call's
	}
	return &Error{Code: ext & 0xff, ExtendedCode: ext, Msg: C.GoString(C.sqlite3_errmsg(c.db))}
}

// Stmt is a prepared statement of a Conn.
type Stmt struct {
	c  *Conn
	st *C.sqlite3_stmt
}

// Prepare compiles one SQL statement.
func (c *Conn) Prepare(sql string) (*Stmt, error) {
	if len(sql) > math.MaxInt32 {
		return nil, fmt.Errorf("sqlitec: statement of %d bytes", len(sql))
	}
	q := C.CString(sql)
	defer C.free(unsafe.Pointer(q))
	var st *C.sqlite3_stmt
	if rc := C.sc_prepare(c.db, q, C.int(len(sql)), &st); rc != C.SC_OK {
		return nil, c.err(rc)
	}
	if st == nil {
		return nil, fmt.Errorf("sqlitec: %q holds no statement", sql)
	}
	return &Stmt{c: c, st: st}, nil
}

// Close finalizes the statement.
func (s *Stmt) Close() {
	if s.st != nil {
		C.sqlite3_finalize(s.st)
		s.st = nil
	}
}

// ResetArgs starts a new argument list.
func (c *Conn) ResetArgs() {
	c.args.n, c.args.blen = 0, 0
}

// next returns the next argument slot.
func (c *Conn) next() *C.sc_arg {
	a := c.args
	if a.n == a.cap && C.sc_grow(a) == 0 {
		panic("sqlitec: out of memory")
	}
	x := &unsafe.Slice(a.v, a.cap)[a.n]
	a.n++
	return x
}

// Int, Real, Text, Blob and Null append an argument.
func (c *Conn) Int(v int64)    { *c.next() = C.sc_arg{kind: C.SC_INT, i: C.sqlite3_int64(v)} }
func (c *Conn) Real(v float64) { *c.next() = C.sc_arg{kind: C.SC_REAL, r: C.double(v)} }
func (c *Conn) Null()          { *c.next() = C.sc_arg{kind: C.SC_NULL} }
func (c *Conn) Text(b []byte)  { c.bytes(C.SC_TEXT, b) }
func (c *Conn) Blob(b []byte)  { c.bytes(C.SC_BLOB, b) }

func (c *Conn) bytes(kind C.int, b []byte) {
	if len(b) > math.MaxInt32 {
		panic(fmt.Sprintf("sqlitec: value of %d bytes", len(b)))
	}
	a := c.args
	if C.sc_reserve(a, C.size_t(len(b))) == 0 {
		panic("sqlitec: out of memory")
	}
	off := a.blen
	if len(b) > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(a.bytes)), a.bcap)[off:], b)
	}
	a.blen += C.size_t(len(b))
	*c.next() = C.sc_arg{kind: kind, len: C.int(len(b)), off: off}
}

// Exec binds the argument list, runs the statement to its end and returns the number
// of rows it changed (sqlite3_changes64). The argument list is kept: ResetArgs starts
// the next.
func (s *Stmt) Exec() (int64, error) {
	if s.st == nil {
		return 0, errors.New("sqlitec: statement is closed")
	}
	var n C.sqlite3_int64
	if rc := C.sc_exec(s.c.db, s.st, s.c.args, &n); rc != C.SC_OK {
		return 0, s.c.err(rc)
	}
	return int64(n), nil
}
