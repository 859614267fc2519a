package sqlitec

/*
#include <stdlib.h>
#include "sc.h"

extern int sc_create_go_function(sqlite3 *db, const char *name, int nargs, int deterministic, int aggregate, uintptr_t fn);
extern void sc_result_text(sqlite3_context *ctx, const char *p, int n);
extern void sc_result_blob(sqlite3_context *ctx, const void *p, int n);
*/
import "C"

import (
	"fmt"
	"runtime/cgo"
	"unsafe"

	"github.com/mattn/go-sqlite3"
)

// SQLite's value types (its fundamental datatype codes), as Value.Type
// reports them.
const (
	TypeInteger = 1
	TypeFloat   = 2
	TypeText    = 3
	TypeBlob    = 4
	TypeNull    = 5
)

// Value is one argument of a Go SQL function: read once, in C, before the
// function runs. The bytes of a TEXT or BLOB are SQLite's and valid only
// during the call: a function that keeps them must copy them.
type Value C.sc_val

// Type is the value's SQLite type (TypeInteger ... TypeNull).
func (v *Value) Type() int { return int(v.typ()) }

func (v *Value) typ() C.int { return (*C.sc_val)(v)._type }

// IsNull reports whether the value is SQL NULL.
func (v *Value) IsNull() bool { return v.typ() == TypeNull }

// Int is an INTEGER's value (0 for other types).
func (v *Value) Int() int64 {
	if v.typ() == TypeInteger {
		return int64((*C.sc_val)(v).i)
	}
	return 0
}

// Float is a REAL's value (0 for other types).
func (v *Value) Float() float64 {
	if v.typ() == TypeFloat {
		return float64((*C.sc_val)(v).r)
	}
	return 0
}

// Bytes are a TEXT's or BLOB's bytes, without a copy: valid during the call
// only. Nil for other types; empty, not nil, for an empty string.
func (v *Value) Bytes() []byte {
	c := (*C.sc_val)(v)
	if c._type != TypeText && c._type != TypeBlob {
		return nil
	}
	if c.n == 0 {
		return []byte{}
	}
	return unsafe.Slice((*byte)(c.p), int(c.n))
}

// Context is where a Go SQL function gives its result; each call gives one.
// With none, the result is NULL.
type Context struct{ ctx *C.sqlite3_context }

// ResultNull makes the result NULL.
func (c Context) ResultNull() { C.sqlite3_result_null(c.ctx) }

// ResultInt makes the result an INTEGER.
func (c Context) ResultInt(n int64) { C.sqlite3_result_int64(c.ctx, C.longlong(n)) }

// ResultFloat makes the result a REAL.
func (c Context) ResultFloat(f float64) { C.sqlite3_result_double(c.ctx, C.double(f)) }

// ResultText makes the result TEXT (SQLite copies b).
func (c Context) ResultText(b []byte) {
	C.sc_result_text(c.ctx, (*C.char)(unsafe.Pointer(unsafe.SliceData(b))), C.int(len(b)))
}

// ResultString makes the result TEXT (SQLite copies s).
func (c Context) ResultString(s string) {
	C.sc_result_text(c.ctx, (*C.char)(unsafe.Pointer(unsafe.StringData(s))), C.int(len(s)))
}

// ResultBlob makes the result a BLOB (SQLite copies b).
func (c Context) ResultBlob(b []byte) {
	C.sc_result_blob(c.ctx, unsafe.Pointer(unsafe.SliceData(b)), C.int(len(b)))
}

// ResultValue passes an argument through unchanged.
func (c Context) ResultValue(v *Value) {
	switch v.Type() {
	case TypeInteger:
		c.ResultInt(v.Int())
	case TypeFloat:
		c.ResultFloat(v.Float())
	case TypeText:
		c.ResultText(v.Bytes())
	case TypeBlob:
		c.ResultBlob(v.Bytes())
	default:
		c.ResultNull()
	}
}

// ResultError fails the statement with msg (binlite's functions give MySQL
// errors as "binlite-error:<code>:<message>", which the engine translates).
func (c Context) ResultError(msg string) {
	cs := C.CString(msg)
	defer C.free(unsafe.Pointer(cs))
	C.sqlite3_result_error(c.ctx, cs, -1)
}

// Func is a scalar SQL function written in Go: it reads args and gives its
// result through c. It runs on the goroutine that steps the statement.
type Func func(c Context, args []Value)

// Aggregate is an aggregate SQL function written in Go: New makes the state of
// one group, which Step sees each row of and Final turns into the result (for
// a group of no rows, Final gets a fresh state).
type Aggregate interface {
	Step(c Context, args []Value)
	Final(c Context)
}

// goFunction is what a registered function's handle holds.
type goFunction struct {
	scalar Func
	newAgg func() Aggregate
}

// RegisterFunc makes fn the SQL function name of nargs arguments (-1: any
// number) on conn. Unlike the driver's RegisterFunc, a call reads its arguments
// without reflection or an interface value per argument, and gives its result
// without one: the functions run once per row. deterministic: the same
// arguments always give the same result (SQLite may then use it in indexes and
// evaluate it once for constant arguments).
func RegisterFunc(conn *sqlite3.SQLiteConn, name string, nargs int, deterministic bool, fn Func) error {
	return register(conn, name, nargs, deterministic, false, &goFunction{scalar: fn})
}

// RegisterAggregate makes an aggregate SQL function name of nargs arguments on
// conn, whose groups' states newState makes.
func RegisterAggregate(conn *sqlite3.SQLiteConn, name string, nargs int, newState func() Aggregate) error {
	return register(conn, name, nargs, true, true, &goFunction{newAgg: newState})
}

func register(conn *sqlite3.SQLiteConn, name string, nargs int, deterministic, aggregate bool, f *goFunction) error {
	h, err := Handle(conn)
	if err != nil {
		return err
	}
	fn := cgo.NewHandle(f)
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	if rc := C.sc_create_go_function((*C.sqlite3)(h), cname, C.int(nargs), cbool(deterministic), cbool(aggregate), C.uintptr_t(fn)); rc != 0 {
		// SQLite calls the destructor when creating the function fails too.
		return fmt.Errorf("sqlitec: create function %s: SQLite error %d", name, int(rc))
	}
	return nil
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

func args(argc C.int, argv *C.sc_val) []Value {
	if argc == 0 {
		return nil
	}
	return unsafe.Slice((*Value)(unsafe.Pointer(argv)), int(argc))
}

//export scGoScalar
func scGoScalar(fn C.uintptr_t, ctx *C.sqlite3_context, argc C.int, argv *C.sc_val) {
	cgo.Handle(fn).Value().(*goFunction).scalar(Context{ctx}, args(argc, argv))
}

//export scGoStep
func scGoStep(fn C.uintptr_t, state C.uintptr_t, ctx *C.sqlite3_context, argc C.int, argv *C.sc_val) C.uintptr_t {
	if state == 0 {
		state = C.uintptr_t(cgo.NewHandle(cgo.Handle(fn).Value().(*goFunction).newAgg()))
	}
	cgo.Handle(state).Value().(Aggregate).Step(Context{ctx}, args(argc, argv))
	return state
}

//export scGoFinal
func scGoFinal(fn C.uintptr_t, state C.uintptr_t, ctx *C.sqlite3_context) {
	if state == 0 {
		cgo.Handle(fn).Value().(*goFunction).newAgg().Final(Context{ctx})
		return
	}
	h := cgo.Handle(state)
	h.Value().(Aggregate).Final(Context{ctx})
	h.Delete()
}

//export scGoGone
func scGoGone(fn C.uintptr_t) { cgo.Handle(fn).Delete() }
