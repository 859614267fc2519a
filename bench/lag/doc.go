// Command lag is the "no lag under load" benchmark (issue 4, item 2): one replica
// attached to a source while sysbench oltp_write_only runs against the source as
// fast as it goes, and the replica's lag sampled all along.
//
//	go run ./bench/lag [--seconds 60] [--modes ten,one] [--schemas 10]
//	    [--threads-per-schema 4] [--one-schema-threads 8] [--table-size 10000]
//	    [--sample-ms 200] [--mariadb=true] [--out bench/results]
//
// For each system (binlite source + binlite replica; then, unless --mariadb=false,
// a MariaDB 10.11 primary + replica of our own mariadbd processes with
// slave_parallel_threads=4 for context) it prepares --schemas databases lag1..lagN
// with sysbench's sbtest1 table, waits until the replica has them, and runs two
// loads of --seconds each: "ten" is one sysbench process per schema, all at once;
// "one" is one sysbench process on lag1 alone. Every --sample-ms it reads the
// replica's Seconds_Behind_Source and the GTID distance: binlite from the /status
// JSON of both nodes (replica first, then source, so the distance can only be
// over-stated), MariaDB from SHOW SLAVE STATUS and @@gtid_binlog_pos. From the
// source's GTID count over time it also derives a finer lag in seconds: how long
// ago the source committed the oldest transaction the replica has not applied yet.
// Sampling continues after sysbench stops until the replica has caught up. Then
// `binlite checksum --source --replica` must find no difference.
//
// It prints the table, writes lag.json (runs and every sample), lag.csv,
// lag-samples.csv and lag.md to --out, and draws docs/bench-lag.svg. With --chart-only
// it recomputes the summaries, tables and chart from the samples in an earlier
// lag.json. See docs/benchmarks.md.
package main
