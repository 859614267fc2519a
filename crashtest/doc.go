// Package crashtest holds binlite's kill -9 tests: they build the binlite binary,
// run it as a subprocess under a concurrent write load, kill it with SIGKILL at
// random instants, restart it on the same data directory and check what the
// design promises after a crash (DESIGN.md §1, invariants 1, 3 and 5):
//
//   - every transaction a client saw acknowledged is present, with its values, and
//     nothing a client was told failed (or never committed) is;
//   - a multi-statement or multi-schema transaction is all there or not at all;
//   - storage equals the binary log: replaying the log's row events gives exactly
//     the rows the restarted server returns, and nothing else;
//   - GTIDs are never reused: gtid_executed is 1-N for the server's uuid, N is the
//     number of GTID events in the log, and a GTID keeps its content across crashes;
//   - a torn binary-log tail is cut at the last whole transaction, with a log line;
//   - the restarted server accepts writes, numbered after N;
//   - an error 1062 (duplicate key) is only ever about a row that survives: a
//     client must not learn of a row before it is committed.
//
// A few tests reproduce, without a kill, bugs the kill tests found.
// The package has no non-test code; everything is in the _test.go files.
package crashtest
