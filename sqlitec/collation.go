package sqlitec

/*
#include <stdint.h>
#include <stdlib.h>

typedef struct sqlite3 sqlite3;
extern int sc_create_collation(sqlite3 *db, const char *name, uintptr_t fn);
*/
import "C"

import (
	"fmt"
	"runtime/cgo"
	"unsafe"

	"github.com/mattn/go-sqlite3"
)

// RegisterCollation makes cmp the collation name on conn. Unlike the driver's
// RegisterCollation, SQLite's bytes reach cmp as strings without a copy (and
// without the driver's handle lookup): a comparison is called many times per
// row an index takes. cmp must not keep its arguments; SQLite calls it only from
// the goroutine using the connection.
func RegisterCollation(conn *sqlite3.SQLiteConn, name string, cmp func(a, b string) int) error {
	h, err := Handle(conn)
	if err != nil {
		return err
	}
	fn := cgo.NewHandle(cmp)
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	if rc := C.sc_create_collation((*C.sqlite3)(h), cname, C.uintptr_t(fn)); rc != 0 {
		fn.Delete() // SQLite calls the destructor only once the collation was made
		return fmt.Errorf("sqlitec: create collation %s: SQLite error %d", name, int(rc))
	}
	return nil
}

//export scCollate
func scCollate(fn C.uintptr_t, la C.int, a *C.char, lb C.int, b *C.char) C.int {
	cmp := cgo.Handle(fn).Value().(func(a, b string) int)
	return C.int(cmp(unsafe.String((*byte)(unsafe.Pointer(a)), int(la)), unsafe.String((*byte)(unsafe.Pointer(b)), int(lb))))
}

//export scCollationGone
func scCollationGone(fn C.uintptr_t) { cgo.Handle(fn).Delete() }
