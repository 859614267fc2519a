// Command singlenode is the single-node benchmark: sysbench oltp_update_index and
// oltp_insert on one schema at several thread counts, against binlite (sync_binlog=1),
// against our own MariaDB 10.11 (binary log on, sync_binlog=1,
// innodb_flush_log_at_trx_commit=1) in the same run, and against raw SQLite doing the
// same single-row transactions in-process (no protocol, no binary log: the limit).
//
//	go run ./bench/singlenode [--repeats 3] [--seconds 10] [--threads 1,16,64]
//	    [--table-size 10000] [--out bench/results] [--skip-mariadb]
//
// Each repeat runs every workload × thread count on each system in turn (the order of
// the systems alternates between repeats) while the other server is paused with
// SIGSTOP, then the raw SQLite run of that workload. Around every run it reads
// server-side counters and checks that each transaction sysbench counted is in the
// table and in the binary log. It prints medians of the repeats and the ratios
// binlite/MariaDB and binlite/raw SQLite, writes singlenode.json, singlenode.csv and
// singlenode.md to --out, and draws docs/bench-singlenode.svg. With --chart-only it
// recomputes the summaries, tables and chart from the runs recorded in an earlier
// singlenode.json. See
// docs/benchmarks.md.
package main
