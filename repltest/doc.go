// Package repltest proves binlite's asynchronous GTID replication end to end, the
// way a MySQL DBA would check it: real nodes (in-process, and as separate binlite
// processes for kill -9), real clients (go-sql-driver/mysql, sysbench), and after
// every scenario an exact comparison of the data (checksum.Compare, the logic of
// `binlite checksum`) and of the GTID sets.
//
// What is covered:
//   - DDL and DML replication, SHOW REPLICA STATUS / SHOW SLAVE STATUS fields,
//     CHANGE MASTER TO, SHOW REPLICAS, settings persisted across a replica restart;
//   - a sysbench oltp_read_write run replicated exactly;
//   - apply errors (1062) stopping the SQL thread, and START REPLICA retrying;
//   - read_only / super_read_only on a replica while the applier keeps writing;
//   - a chain source → replica → replica keeping the original GTIDs;
//   - a replica asking for purged GTIDs (1236 → 13114);
//   - a link cut by toxiproxy: reconnect, Last_IO_Error meanwhile, no gap or duplicate;
//   - kill -9 of the replica dozens of times under load, and of the source;
//   - WAIT_FOR_EXECUTED_GTID_SET, GTID_SUBSET, GTID_SUBTRACT, @@gtid_purged,
//     SOURCE_POS_WAIT;
//   - RESET REPLICA ALL and starting/stopping the IO and SQL threads separately;
//   - file/position replication (COM_BINLOG_DUMP), failover with auto-positioning,
//     rows larger than a protocol packet, misconfigured replicas (1045, 1227, 1593),
//     SOURCE_RETRY_COUNT, a replica ahead of a reset source;
//   - read-your-writes: a GTID in @@gtid_executed (or WAIT_FOR_EXECUTED_GTID_SET
//     returning 0) means its data is visible;
//   - a replica provisioned from a mariadb-dump with SET GLOBAL gtid_purged, durable
//     across kill -9, fetching nothing the dump held;
//   - the tools DBAs run, from Debian: pt-heartbeat, prometheus-mysqld-exporter, and
//     orchestrator's discovery queries replayed, with a failover driven by them.
//
// Kill tests run binlite as separate processes (built once from ./cmd/binlite);
// toxiproxy runs in process.
//
// Every build and test needs the sqlite_preupdate_hook build tag:
//
//	GOFLAGS=-tags=sqlite_preupdate_hook go test -race ./repltest/
package repltest
