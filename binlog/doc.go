// Package binlog owns binlite's binary log (format version 1, described in
// docs/binlog-format.md): the event encoding, the writer with group commit and
// GTID assignment, rotation, purge and expiry, the GTIDs declared executed by SET
// GLOBAL gtid_purged (purged.go), crash recovery of a torn tail,
// readers for replication dump threads and recovery, and the mysqlbinlog-style
// dump. It is binlite's own format, not MySQL's byte format.
//
// A write failure stops the log (every later commit is refused), except a write
// the disk had no room for (diskfull.go): that group is cut off the file and its
// GTIDs handed out again, and commits go on once there is room.
package binlog
