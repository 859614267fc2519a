package sqlitec

import (
	"errors"
	"reflect"
	"unsafe"

	"github.com/mattn/go-sqlite3"
)

// Handle returns the sqlite3* of a connection, which mattn/go-sqlite3 does not export.
func Handle(conn *sqlite3.SQLiteConn) (unsafe.Pointer, error) {
	if conn == nil {
		return nil, errors.New("sqlitec: no connection")
	}
	f := reflect.ValueOf(conn).Elem().FieldByName("db")
	if !f.IsValid() || f.Kind() != reflect.Pointer || f.IsNil() {
		return nil, errors.New("sqlitec: cannot reach the connection's sqlite3 handle")
	}
	return f.UnsafePointer(), nil
}
