// Package replica owns the replica side of replication: named channels with their
// persisted settings (CHANGE REPLICATION SOURCE), the receiver that streams a source's
// binary log into the channel's relay log (MySQL's IO thread), the applier that applies
// relay-log transactions through the engine keeping their GTIDs (the SQL thread), and
// SHOW REPLICA STATUS.
//
// Crash safety comes from the engine, not from position files: a transaction is
// applied only if its GTID is not in the node's gtid_executed, and the engine records
// GTIDs in the same SQLite transaction as the data (DESIGN invariant 2). The receiver
// asks the source for everything outside executed ∪ retrieved, so a relay log that
// lost its tail in a crash is simply refilled.
package replica
