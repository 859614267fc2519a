// Package session owns one client connection's state and the meaning of every
// statement: it parses MySQL text with sqlcompat, keeps the current database,
// autocommit, the open transaction, session and user variables, and dispatches to
// the engine (reads, writes, DDL), the binary log (SHOW/FLUSH/PURGE/RESET) and the
// system-variable registry. It implements mysqlproto.Handler.
package session
