// Command replapply measures how fast a replica applies updates queued in its relay
// log, reproducing two seed experiments on binlite, on our own MariaDB 10.11 primary
// and replica in the same run, and on raw SQLite applying the same rows in-process
// (the physical limit):
//
//   - crashsafe (seeds/002, issue 3): one schema, 100,000 single-row updates applied by
//     one thread with crash-safe positions (binlite with replica_parallel_workers=0;
//     MariaDB with slave_parallel_threads=0 and mysql.gtid_slave_pos in InnoDB), plus
//     binlite with binlite_crash_safe_apply=OFF for the cost of crash safety;
//   - parallel (seeds/000, issue 4): ten schemas, 100,000 updates spread evenly, applied
//     with 0, 1, 2, 4, 8, 10, 16 and 24 workers (MariaDB: slave_parallel_threads in
//     conservative and optimistic mode).
//
// Usage:
//
//	go run ./bench/replapply [--bench crashsafe,parallel] [--repeats 3] [--rows 10000]
//	    [--updates 100000] [--schemas 10] [--threads 10] [--workers 0,1,2,4,8,10,16,24]
//	    [--modes conservative,optimistic] [--batch 1000,10000,100000] [--skip-mariadb] [--out bench/results]
//	    [--chart-dir docs] [--workdir DIR] [--keep] [--chart-only]
//
// For each system it starts a primary and a replica, creates the schemas with the
// seeds' sbtest table, fills them, lets the replica apply that, stops its SQL thread,
// has one sysbench client per schema send the updates to the primary, waits until the
// replica's relay log holds them all, stops the replica and copies its data directory
// aside. Every timed apply then restores that copy, restarts the replica, configures
// it, warms it up (MariaDB: refills the relay log with the IO thread, which
// relay_log_recovery=ON emptied at start-up), and times START REPLICA SQL_THREAD until
// WAIT_FOR_EXECUTED_GTID_SET / MASTER_GTID_WAIT returns. Every run is checked: SUM(k)
// and COUNT(*) of every table equal the primary's, no SQL error, and the replica holds
// exactly the primary's GTIDs. Systems alternate within each repeat; the primaries
// not needed by a timed apply are paused with SIGSTOP. It prints the tables, writes
// bench/results/replapply-<bench>.{json,csv,md} and draws
// docs/bench-replapply-<bench>.svg. See docs/benchmarks.md.
package main
