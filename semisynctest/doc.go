// Package semisynctest proves binlite's semi-synchronous replication end to end,
// with real nodes (in-process, and the source as a separate binlite process for
// kill -9), real clients (go-sql-driver/mysql) and toxiproxy, in process, on the
// link between each replica and its source.
//
// What is covered:
//   - added latency: a single client's commit takes at least one round trip and
//     is counted in Rpl_semi_sync_source_yes_tx; with semi-sync off it is fast;
//     16 concurrent clients share each wait (one round trip per commit group);
//   - AFTER_SYNC: no other session sees a transaction before its acknowledgement;
//     AFTER_COMMIT: it is visible while the committing client still waits;
//   - a cut link and a stalled (slow) link: the commit waits for
//     rpl_semi_sync_source_timeout, the source falls back to asynchronous
//     (status OFF, _no_times, _no_tx, a log line), and switches back ON by itself
//     once the replica has caught up;
//   - rpl_semi_sync_source_wait_for_replica_count=2: one replica is not enough
//     (and does not switch the source back ON), two are;
//   - rpl_semi_sync_replica_enabled read when the IO thread connects: an
//     asynchronous replica does not acknowledge; restarting the IO thread with the
//     variable on makes it a semi-sync client;
//   - acknowledgements across binary log files (max_binlog_size rotation inside a
//     commit group, FLUSH BINARY LOGS);
//   - lossless failover: kill -9 of the source (a separate process) at a random
//     instant under concurrent autocommit and two-row transactions, promotion of
//     the replica, and every transaction a client saw acknowledged is on it (10
//     rounds, 3 with -short; plus an asynchronous control round that shows the
//     check does find losses without semi-sync);
//   - the status and variable names, current and legacy (master/slave), equal,
//     settable under either spelling, in SHOW STATUS, /status and /metrics.
//
// Every build and test needs the sqlite_preupdate_hook build tag:
//
//	GOFLAGS=-tags=sqlite_preupdate_hook go test -race ./semisynctest/
package semisynctest
