package binlog

import "errors"

var (
	// ErrCorrupt marks bytes that can never become a valid event: a bad length,
	// a checksum mismatch, an unknown type or a malformed payload.
	ErrCorrupt = errors.New("binlog: corrupt event")
	// ErrTruncated marks an event cut short by the end of the data; in a live
	// file it may still be completed by the writer.
	ErrTruncated = errors.New("binlog: truncated event")
	// ErrDuplicateGTID is returned by Commit for a GTID that is already executed.
	ErrDuplicateGTID = errors.New("binlog: duplicate gtid")
	// ErrClosed is returned after Close.
	ErrClosed = errors.New("binlog: log closed")
)
