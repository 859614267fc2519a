// Package testnode starts binlite nodes for tests: each on loopback with an
// ephemeral port, a temporary data directory, an HTTP endpoint, logs routed to the
// test's log, and shutdown registered with t.Cleanup. It also holds the small SQL
// helpers integration tests share (exec and query that fail the test, GTID-set
// parsing, MySQL error assertions).
package testnode
