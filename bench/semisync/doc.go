// Command semisync is the seeds/001 benchmark (issue 5): semi-synchronous
// replication over a link with an 85 ms round trip, against the physical limit of
// one round trip per commit group, and against MariaDB 10.11's semi-sync through the
// same delay in the same run.
//
//	go run ./bench/semisync [--threads 1,16,64] [--seconds 20] [--warmup 2]
//	    [--repeats 3] [--rtt-ms 85] [--mariadb=true] [--out bench/results]
//	    [--schemas 1]
//
// Each system gets a source and a semi-sync replica. The replica reaches its source
// through an in-process toxiproxy (harness.DelayLink) adding 42 ms to everything the
// source sends and 43 ms to everything the replica sends; clients talk to the source
// directly. Sources wait AFTER_SYNC with a timeout far longer than any run, so
// nothing falls back to asynchronous replication; every commit is durable on the
// source (sync_binlog=1, and for MariaDB innodb_flush_log_at_trx_commit=1) and in
// the replica's relay log (binlite's acknowledgement follows its relay-log fsync;
// MariaDB's replica runs with sync_relay_log=1) before the client hears of it.
//
// The client is the seed's: autocommit single-row INSERTs of 8 random capital
// letters into an AUTO_INCREMENT table, from N threads, each its own connection
// (go-sql-driver/mysql, text protocol, no prepared statements), the same code for
// both systems. Each run has --warmup untimed seconds, then --seconds timed; it
// reads the source's Rpl_semi_sync status before and after and checks that
// semi-sync stayed ON, that no transaction committed without an acknowledgement
// (_no_tx and _no_times unchanged), that every acknowledged INSERT is a row on the
// source, and that the replica ends with the same rows. Repeats alternate which
// system goes first; medians are reported.
//
// --schemas N (a diagnostic, not the seed) spreads the clients over N schemas, each
// with its own table: client i writes to schema i mod N.
//
// It prints the tables, writes semisync.json, semisync.csv and semisync.md to --out,
// and draws docs/bench-semisync.svg. With --chart-only it recomputes the summaries,
// tables and chart from the runs in an earlier semisync.json. See docs/benchmarks.md.
package main
