// Package preupdate owns row capture at the C level: a SQLite preupdate hook, written
// against SQLite's C API, that serialises every change a statement makes (operation,
// table, full before and after images with each value's storage class) into a buffer
// owned by the connection. Go reads the buffer once per statement, so capture costs no
// callback into Go per row and no reflection per column, and TEXT stays distinct from
// BLOB (mattn/go-sqlite3's hook hands both over as bytes).
//
// It needs mattn/go-sqlite3 built with the sqlite_preupdate_hook tag, which compiles
// SQLite with SQLITE_ENABLE_PREUPDATE_HOOK; without it tag.go stops the build with a
// message naming the tag.
package preupdate
