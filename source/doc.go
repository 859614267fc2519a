// Package source owns the source side of replication: the replica registry
// (COM_REGISTER_SLAVE, SHOW REPLICAS) and the dump service that streams the binary
// log to a replica (COM_BINLOG_DUMP_GTID with auto-positioning, COM_BINLOG_DUMP by
// file and position), sending only what is durable, with heartbeats when idle.
package source
