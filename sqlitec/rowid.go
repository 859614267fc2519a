package sqlitec

/*
typedef struct sqlite3 sqlite3;
typedef long long sqlite3_int64;
extern sqlite3_int64 sqlite3_last_insert_rowid(sqlite3*);
*/
import "C"

import "unsafe"

// LastInsertRowid is sqlite3_last_insert_rowid of a handle (see Handle): the rowid
// of the connection's most recent successful INSERT. It reads a field of the
// connection, so it may be called from inside an SQL function the connection runs.
func LastInsertRowid(h unsafe.Pointer) int64 {
	return int64(C.sqlite3_last_insert_rowid((*C.sqlite3)(h)))
}
