// Package rawsqlite measures the physical limit that binlite is compared against:
// the same single-row statements executed in-process on a sysbench-shaped SQLite
// table through mattn/go-sqlite3, one connection, a prepared statement reused for
// every transaction, WAL with synchronous=NORMAL, no wire protocol, no binary log and
// no fsync per commit (so, unlike binlite, not durable at each commit).
package rawsqlite
