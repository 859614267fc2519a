package binlog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/binlite/binlite/gtid"
)

// recover rebuilds the in-memory state from the files and repairs the tail
// of the last file. Only the last file can be torn: earlier files were
// synced before their successor was created.
func (l *Log) recover() error {
	base := l.opts.BaseName
	names, haveIndex, err := readIndex(l.dir, base)
	if err != nil {
		return err
	}
	if !haveIndex {
		if names, err = listFiles(l.dir, base); err != nil {
			return err
		}
	}
	indexDirty := !haveIndex
	if len(names) == 0 {
		names = []string{fileName(base, 1)}
		if err := l.createFile(names[0], gtid.Set{}); err != nil {
			return err
		}
		indexDirty = true
	}
	for _, name := range names[:len(names)-1] {
		fh, err := readFileHeader(l.path(name))
		if err != nil {
			return fmt.Errorf("binlog: recover: %w", err)
		}
		l.files = append(l.files, fileEntry{name: name, prev: fh.prev})
	}

	last := names[len(names)-1]
	prev, gtids, next, err := l.recoverLast(last)
	if err != nil {
		return err
	}
	l.files = append(l.files, fileEntry{name: last, prev: prev})
	if l.declared, err = readDeclared(l.dir, base); err != nil {
		return err
	}
	l.execMu.Lock()
	l.executed = prev.Union(gtids).Union(l.declared)
	l.execMu.Unlock()
	if next != "" {
		// The last file ended cleanly (Stop or Rotate): like MySQL, continue
		// in a new file.
		if err := l.createFile(next, l.executed); err != nil {
			return err
		}
		l.files = append(l.files, fileEntry{name: next, prev: l.executed.Clone()})
		indexDirty = true
	}
	if indexDirty {
		if err := writeIndex(l.dir, base, l.fileNames()); err != nil {
			return err
		}
	}
	l.purged = l.files[0].prev.Union(l.declared)
	l.nextSeq = l.executed.Union(l.purged).Last(l.opts.ServerUUID) + 1
	return l.openActive()
}

// recoverLast checks the last file and truncates a torn tail. It returns the
// file's Previous_gtids, the GTIDs of its whole transactions, and the name of
// a file to continue in if it ended with Stop or Rotate.
func (l *Log) recoverLast(name string) (prev, gtids gtid.Set, next string, err error) {
	path := l.path(name)
	ef, err := openEventFile(path)
	var fh fileHeader
	if err == nil {
		fh, err = ef.readHeader()
		if err != nil {
			ef.Close()
		}
	}
	if err != nil {
		reason := err
		// Missing or torn header: a crash during rotation. The header was
		// never synced, so nothing after it can be durable either.
		if st, serr := os.Stat(path); serr == nil && st.Size() > 4096 {
			return prev, gtids, "", fmt.Errorf("binlog: recover: %s has a corrupt header and %d bytes; refusing to recreate it: %w", path, st.Size(), reason)
		} else if serr != nil && !errors.Is(serr, fs.ErrNotExist) {
			return prev, gtids, "", fmt.Errorf("binlog: recover: %w", serr)
		}
		if len(l.files) > 0 {
			p := l.files[len(l.files)-1]
			if prev, err = scanGTIDs(l.path(p.name)); err != nil {
				return prev, gtids, "", fmt.Errorf("binlog: recover: %w", err)
			}
		}
		l.log.Warn("binlog: recreating header of last file after crash during rotation", "file", path, "reason", reason)
		return prev, gtids, "", l.createFile(name, prev)
	}
	defer ef.Close()
	ts := ef.scanTail(fh.end)
	st, err := ef.f.Stat()
	if err != nil {
		return prev, gtids, "", fmt.Errorf("binlog: recover: %w", err)
	}
	if ts.good < st.Size() {
		reason := "trailing bytes after end of file"
		if ts.err != nil {
			reason = fmt.Sprintf("at %d: %v", ts.errAt, ts.err)
		}
		l.log.Warn("binlog: truncating torn tail", "file", path, "old_size", st.Size(), "new_size", ts.good, "reason", reason)
		if err := truncateSync(path, ts.good); err != nil {
			return prev, gtids, "", err
		}
	}
	switch e := ts.last.(type) {
	case *StopEvent:
		next = nextFileName(l.opts.BaseName, name)
	case *RotateEvent:
		next = e.NextFile
		if fileSeq(l.opts.BaseName, next) <= fileSeq(l.opts.BaseName, name) {
			next = nextFileName(l.opts.BaseName, name)
		}
	}
	return fh.prev, ts.gtids, next, nil
}

// scanGTIDs returns Previous_gtids ∪ the GTIDs of whole transactions in a file.
func scanGTIDs(path string) (gtid.Set, error) {
	ef, err := openEventFile(path)
	if err != nil {
		return gtid.Set{}, err
	}
	defer ef.Close()
	fh, err := ef.readHeader()
	if err != nil {
		return gtid.Set{}, err
	}
	ts := ef.scanTail(fh.end)
	return fh.prev.Union(ts.gtids), nil
}

func truncateSync(path string, size int64) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("binlog: truncate %s: %w", path, err)
	}
	err = f.Truncate(size)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("binlog: truncate %s to %d: %w", path, size, err)
	}
	return nil
}

// createFile writes a new file holding only the header, synced with its
// directory entry, before anything (the index) refers to it.
func (l *Log) createFile(name string, prev gtid.Set) error {
	path := l.path(name)
	b := appendFileHeader(nil, l.opts.ServerUUID, l.opts.ServerID, uint32(l.opts.Now().Unix()), prev)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o640)
	if err != nil {
		return fmt.Errorf("binlog: create %s: %w", path, err)
	}
	_, err = l.writeTo(f, b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = syncDir(l.dir)
	}
	if err != nil {
		return fmt.Errorf("binlog: create %s: %w", path, err)
	}
	return nil
}

// openActive opens the last file for appending.
func (l *Log) openActive() error {
	path := l.path(l.files[len(l.files)-1].name)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("binlog: open %s: %w", path, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("binlog: open %s: %w", path, err)
	}
	l.f, l.fd, l.size = f, int(f.Fd()), st.Size()
	l.durPos = l.size
	return nil
}

func (l *Log) fileNames() []string {
	names := make([]string, len(l.files))
	for i, e := range l.files {
		names[i] = e.name
	}
	return names
}
