package binlog

import (
	"fmt"
	"os"
	"time"

	"github.com/binlite/binlite/gtid"
)

// Flush closes the active file and starts the next (FLUSH BINARY LOGS).
func (l *Log) Flush() error {
	l.ioMu.Lock()
	defer l.ioMu.Unlock()
	l.mu.Lock()
	err := l.unusableLocked()
	l.mu.Unlock()
	if err != nil {
		return err
	}
	return l.rotate()
}

// rotate ends the active file with a Rotate event, creates the next file
// with Previous_gtids = executed, and updates the index. The order matters
// for recovery: the old file is synced with its Rotate before the new file
// exists, and the new file is synced before the index names it. Caller holds
// ioMu; a failure is sticky.
func (l *Log) rotate() error {
	l.mu.Lock()
	cur := l.files[len(l.files)-1].name
	prev := l.executed.Clone()
	l.mu.Unlock()
	next := nextFileName(l.opts.BaseName, cur)
	now := l.opts.Now()
	b := AppendEvent(l.buf[:0], &RotateEvent{NextFile: next, Position: uint64(FirstEventPos)}, uint32(now.Unix()), l.opts.ServerID)
	l.buf = b
	if _, err := l.write(b); err != nil {
		err = fmt.Errorf("binlog: rotate: write %s: %w", l.f.Name(), err)
		if IsDiskFull(err) && l.undoWrite(l.size) {
			return diskFull(err) // the file goes on; a later group rotates
		}
		return l.fail(err)
	}
	if err := l.f.Sync(); err != nil {
		return l.fail(fmt.Errorf("binlog: rotate: sync %s: %w", l.f.Name(), err))
	}
	if err := l.f.Close(); err != nil {
		return l.fail(fmt.Errorf("binlog: rotate: close %s: %w", l.f.Name(), err))
	}
	rotatedAt := l.size
	l.size += int64(len(b))
	if err := l.createFile(next, prev); err != nil {
		return l.rotateFailed(fmt.Errorf("binlog: rotate: %w", err), next, rotatedAt)
	}
	l.mu.Lock()
	files := append(l.files[:len(l.files):len(l.files)], fileEntry{name: next, prev: prev})
	l.mu.Unlock()
	if err := writeIndex(l.dir, l.opts.BaseName, entryNames(files)); err != nil {
		return l.rotateFailed(fmt.Errorf("binlog: rotate: %w", err), next, rotatedAt)
	}
	l.mu.Lock()
	l.files = files
	err := l.openActive() // sets durPos to the new file's header end
	if err == nil {
		l.publishLocked(l.durPos)
	}
	l.mu.Unlock()
	if err != nil {
		return l.fail(fmt.Errorf("binlog: rotate: %w", err))
	}
	l.unsynced = 0
	if l.opts.ExpireSeconds > 0 {
		// Expiry failing to delete a file must not stop commits.
		if err := l.purgeBefore(now.Add(-time.Duration(l.opts.ExpireSeconds) * time.Second)); err != nil {
			l.log.Warn("binlog: expiring old files failed", "err", err)
		}
	}
	return nil
}

// rotateFailed handles a rotation that found the disk full after the active file
// got its Rotate event and was closed: the next file goes, the active one is
// opened again and cut back to before the Rotate event, and the log goes on in
// it (a later group rotates). Any other failure is sticky.
func (l *Log) rotateFailed(err error, next string, rotatedAt int64) error {
	if !IsDiskFull(err) {
		return l.fail(err)
	}
	if rerr := os.Remove(l.path(next)); rerr != nil && !os.IsNotExist(rerr) {
		return l.fail(err)
	}
	if rerr := syncDir(l.dir); rerr != nil {
		return l.fail(err)
	}
	l.mu.Lock()
	rerr := l.openActive()
	l.mu.Unlock()
	if rerr != nil || !l.undoWrite(rotatedAt) {
		return l.fail(err)
	}
	l.mu.Lock()
	l.durPos = rotatedAt // where it was: the end of the last group
	l.mu.Unlock()
	return diskFull(err)
}

func entryNames(files []fileEntry) []string {
	names := make([]string, len(files))
	for i, e := range files {
		names[i] = e.name
	}
	return names
}

// PurgeTo deletes every file before file (PURGE BINARY LOGS TO).
func (l *Log) PurgeTo(file string) error {
	l.ioMu.Lock()
	defer l.ioMu.Unlock()
	l.mu.Lock()
	idx := -1
	for i, e := range l.files {
		if e.name == file {
			idx = i
		}
	}
	l.mu.Unlock()
	if idx < 0 {
		return fmt.Errorf("binlog: purge to %s: file not found in index", file)
	}
	return l.purgeFirst(idx)
}

// PurgeBefore deletes the oldest files last modified before t, stopping at
// the first newer one (PURGE BINARY LOGS BEFORE). The active file stays.
func (l *Log) PurgeBefore(t time.Time) error {
	l.ioMu.Lock()
	defer l.ioMu.Unlock()
	return l.purgeBefore(t)
}

func (l *Log) purgeBefore(t time.Time) error {
	l.mu.Lock()
	names := l.fileNames()
	l.mu.Unlock()
	n := 0
	for _, name := range names[:len(names)-1] {
		st, err := os.Stat(l.path(name))
		if err != nil {
			return fmt.Errorf("binlog: purge before: %w", err)
		}
		if !st.ModTime().Before(t) {
			break
		}
		n++
	}
	return l.purgeFirst(n)
}

// purgeFirst removes the first n files: the index is rewritten first so a
// crash never leaves it naming a deleted file. Caller holds ioMu.
func (l *Log) purgeFirst(n int) error {
	if n <= 0 {
		return nil
	}
	l.mu.Lock()
	victims := l.fileNames()[:n]
	rest := append([]fileEntry(nil), l.files[n:]...)
	l.mu.Unlock()
	if err := writeIndex(l.dir, l.opts.BaseName, entryNames(rest)); err != nil {
		return fmt.Errorf("binlog: purge: %w", err)
	}
	l.mu.Lock()
	l.files = rest
	l.purged = rest[0].prev.Union(l.declared)
	l.mu.Unlock()
	for _, name := range victims {
		if err := os.Remove(l.path(name)); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("binlog: purge %s: %w", name, err)
		}
		l.log.Info("binlog: purged", "file", name)
	}
	return syncDirErr(l.dir)
}

func syncDirErr(dir string) error {
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("binlog: sync %s: %w", dir, err)
	}
	return nil
}

// Reset deletes every file and starts over with binlog.000001, empty
// executed and purged sets, and sequence numbers from 1 (RESET BINARY LOGS
// AND GTIDS).
func (l *Log) Reset() error {
	l.ioMu.Lock()
	defer l.ioMu.Unlock()
	l.mu.Lock()
	if err := l.unusableLocked(); err != nil {
		l.mu.Unlock()
		return err
	}
	names := l.fileNames()
	l.mu.Unlock()
	if err := l.f.Close(); err != nil {
		return l.fail(fmt.Errorf("binlog: reset: close: %w", err))
	}
	// The new first file is built aside and renamed in only after the old
	// files are gone, so binlog.000001 never mixes old and new content.
	first := fileName(l.opts.BaseName, 1)
	if err := l.createFile(first+".tmp", gtid.Set{}); err != nil {
		return l.fail(fmt.Errorf("binlog: reset: %w", err))
	}
	if err := l.removeDeclared(); err != nil {
		return l.fail(fmt.Errorf("binlog: reset: %w", err))
	}
	if err := os.Remove(indexPath(l.dir, l.opts.BaseName)); err != nil && !os.IsNotExist(err) {
		return l.fail(fmt.Errorf("binlog: reset: %w", err))
	}
	for _, name := range names {
		if err := os.Remove(l.path(name)); err != nil && !os.IsNotExist(err) {
			return l.fail(fmt.Errorf("binlog: reset: %w", err))
		}
	}
	if err := os.Rename(l.path(first+".tmp"), l.path(first)); err != nil {
		return l.fail(fmt.Errorf("binlog: reset: %w", err))
	}
	if err := writeIndex(l.dir, l.opts.BaseName, []string{first}); err != nil {
		return l.fail(fmt.Errorf("binlog: reset: %w", err))
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.files = []fileEntry{{name: first}}
	l.execMu.Lock()
	l.executed = gtid.Set{}
	l.execMu.Unlock()
	l.purged = gtid.Set{}
	l.declared = gtid.Set{}
	l.nextSeq = 1
	l.unsynced = 0
	if err := l.openActive(); err != nil {
		l.failed = fmt.Errorf("binlog: reset: %w", err)
		return l.failed
	}
	l.publishLocked(l.durPos)
	return nil
}
