// Package semisync owns the source side of semi-synchronous replication as a state
// machine, apart from any I/O: which replicas are semi-sync clients, the binlog
// position each has acknowledged (after making it durable in its relay log), commit
// groups waiting for acknowledgements, the fall-back to asynchronous replication on
// timeout and the return to semi-sync once a replica has caught up, and the
// Rpl_semi_sync_source_* status counters.
//
// One wait covers a whole commit group: every transaction in the group is in the
// binary log before the group's end position, so one acknowledgement of that
// position releases them all.
package semisync
