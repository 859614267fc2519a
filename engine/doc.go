// Package engine owns binlite's storage: one SQLite file per schema, a single writer
// goroutine per schema that executes autocommit statements of many sessions in one
// SQLite transaction (group commit), row capture through SQLite's preupdate hook,
// explicit transactions interleaved on the writers under row locks (interleave.go,
// rowlocks.go; docs/transactions.md), the read-connection pools, and start-up
// recovery from the binary log.
//
// An explicit transaction's statements are jobs on the writer like autocommit
// statements; binlite's row locks keep open transactions apart (a statement that
// meets another's lock is undone and parked), and every storage commit takes the
// open transactions' changes out (inverse row images) and puts them back after, so
// storage only ever commits durable groups. A multi-schema COMMIT holds each
// writer it wrote from before its log write until that schema stored it;
// LOCK TABLES and FLUSH TABLES WITH READ LOCK still lease a writer whole.
//
// The ordering that keeps invariant 1 (binlog first) is fixed here: a group's row
// events are written and made durable by binlog.Log.Commit before the SQLite
// transaction that holds the same changes commits, and clients are answered only
// after that commit. Each schema file records, in the same SQLite transaction as the
// data, the highest sequence number applied per source uuid (table
// binlite_gtid_applied).
//
// The commit path is a pipeline (pipeline.go, commit.go, logstage.go): while a log
// stage goroutine writes and fdatasyncs group N, the writer executes group N+1 in
// the same SQLite transaction, inside a savepoint. That transaction commits only
// when every group executed in it is durable (at most Options.PipelineDepth groups
// share one commit); a group N+1 holding fewer clients than N is instead undone
// (its savepoint), N commits alone and is answered, and N+1's row events are applied
// again in the next transaction. Nothing is visible to readers or answered before
// its group is durable, and storage never commits a group the log lacks; a crash
// leaves the log ahead of storage by whole groups, which recovery re-applies.
// A group overlaps the next one only when statements have been arriving during
// log writes and those are quick (pipeline.overlapNext; Options.AlwaysOverlap for
// tests); otherwise the writer writes it inline. Explicit transactions, replicated
// transactions and calls drain the pipeline first. A lone client's statement is
// run by its own session goroutine when the writer is idle (inline.go), saving the
// two goroutine hand-offs per commit.
//
// Transactions that touch a schema reach it in increasing sequence order per uuid
// (one writer per schema, one binlog order), so that high-water mark is exactly the
// set of GTIDs the schema holds, and recovery re-applies every binlog transaction
// above it.
//
// Reads run as cursors (cursor.go) that a session reads row by row while it sends
// them; a cursor its client reads slowly leaves its pool's count (Cursor.Hold).
//
// A group the binary log refuses for want of disk space fails its statements with
// ER_DISK_FULL and the writer goes on (commit.go, logFull); any other log failure,
// and a storage commit that fails after the log write, stop the node, and the
// clients whose transactions may still commit get no answer (ErrOutcomeUnknown).
//
// A session's temporary tables live on a connection of its own to the schema's
// file, opened read-only (temp.go): nothing written there is captured or logged.
//
// The binary that uses this package must be built with the build tag
// sqlite_preupdate_hook; Open refuses to start when row capture does not work.
package engine
