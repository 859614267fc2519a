package binlog

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// ErrDiskFull marks a write the disk had no room for (ENOSPC, or EDQUOT: a quota
// is full). The log has taken nothing of it back in: a group commit that fails
// with it left the file as it was before the group, handed out none of its
// GTIDs, and later commits are accepted again (they succeed once space returns).
var ErrDiskFull = errors.New("binlog: disk full")

// IsDiskFull reports whether err is a write that found no room on the disk.
func IsDiskFull(err error) bool {
	return errors.Is(err, ErrDiskFull) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// write appends b to the active file, through Options.Write when set.
func (l *Log) write(b []byte) (int, error) {
	return l.writeTo(l.f, b)
}

func (l *Log) writeTo(f *os.File, b []byte) (int, error) {
	if l.opts.Write != nil {
		return l.opts.Write(f, b)
	}
	return f.Write(b)
}

// undoWrite cuts the active file back to size after a write the disk had no
// room for (it may have taken part of it), and makes the cut durable, so that
// neither a reader now nor recovery later sees a torn tail. ok=false: the file
// could not be cut, and the failure must stop the log.
func (l *Log) undoWrite(size int64) (ok bool) {
	if err := l.f.Truncate(size); err != nil {
		l.log.Error("binlog: cutting off a write the disk had no room for failed", "file", l.f.Name(), "err", err)
		return false
	}
	if err := l.f.Sync(); err != nil {
		l.log.Error("binlog: syncing a file cut back after a full disk failed", "file", l.f.Name(), "err", err)
		return false
	}
	l.size = size
	return true
}

// diskFull wraps a write error that found the disk full.
func diskFull(err error) error {
	return fmt.Errorf("%w: %w", ErrDiskFull, err)
}
