// Package sqlitec owns binlite's direct use of SQLite's C API on connections opened by
// mattn/go-sqlite3: finding a connection's sqlite3 handle, and statements that bind a
// whole argument list and step in one call into C. The replica applier executes one
// statement per replicated row; through the driver that is a call into C per bound
// argument, one to reset, one to step, and an interface value per argument.
//
// The C code here is compiled against the SQLite that mattn/go-sqlite3 links into the
// binary (its declarations are repeated below, as sqlite3.h is not on this package's
// include path). A Conn and its statements belong to whoever drives the connection
// (one goroutine at a time), like the driver connection itself.
package sqlitec
