package binlog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/binlite/binlite/gtid"
)

// SET GLOBAL gtid_purged declares GTIDs executed that no file of this log holds:
// a node restored from a dump has the data of the source's transactions but not
// their events. The declared set is kept in <base>.gtid_purged (replaced
// atomically, before the in-memory sets change) and joins gtid_executed and
// gtid_purged at every Open, until RESET BINARY LOGS AND GTIDS deletes it. Files
// rotated afterwards carry it in their Previous_gtids like any executed GTID.

// PurgedOverlapError is AddPurged's refusal of a set that shares GTIDs with
// gtid_executed; it carries the shared GTIDs.
type PurgedOverlapError struct{ Shared gtid.Set }

func (e *PurgedOverlapError) Error() string {
	return fmt.Sprintf("binlog: gtid_purged: %s is already in gtid_executed", e.Shared)
}

func declaredPath(dir, base string) string { return filepath.Join(dir, base+".gtid_purged") }

// readDeclared returns the declared set of an earlier SET gtid_purged (empty if none).
func readDeclared(dir, base string) (gtid.Set, error) {
	data, err := os.ReadFile(declaredPath(dir, base))
	if errors.Is(err, os.ErrNotExist) {
		return gtid.Set{}, nil
	}
	if err != nil {
		return gtid.Set{}, fmt.Errorf("binlog: read declared gtid_purged: %w", err)
	}
	set, err := gtid.Parse(strings.TrimSpace(string(data)))
	if err != nil {
		return gtid.Set{}, fmt.Errorf("binlog: %s: %w", declaredPath(dir, base), err)
	}
	return set, nil
}

// AddPurged adds set to gtid_executed and gtid_purged, durably (SET GLOBAL
// gtid_purged). A set sharing a GTID with gtid_executed is refused with
// *PurgedOverlapError and changes nothing. Sequence numbers of this server's uuid in
// set are never issued afterwards.
func (l *Log) AddPurged(set gtid.Set) error {
	l.ioMu.Lock()
	defer l.ioMu.Unlock()
	l.mu.Lock()
	err := l.unusableLocked()
	shared := l.executed.Intersect(set)
	declared := l.declared.Union(set)
	l.mu.Unlock()
	if err != nil {
		return err
	}
	if !shared.IsEmpty() {
		return &PurgedOverlapError{Shared: shared}
	}
	if set.IsEmpty() {
		return nil
	}
	if err := replaceFile(l.dir, declaredPath(l.dir, l.opts.BaseName), []byte(declared.String()+"\n")); err != nil {
		return fmt.Errorf("binlog: set gtid_purged: %w", err)
	}
	l.mu.Lock()
	l.declared = declared
	l.execMu.Lock()
	l.executed = l.executed.Union(set)
	l.execMu.Unlock()
	l.purged = l.purged.Union(set)
	if next := set.Last(l.opts.ServerUUID) + 1; next > l.nextSeq {
		l.nextSeq = next
	}
	l.mu.Unlock()
	// A new file whose Previous_gtids hold the set makes every later position name
	// it (GTIDsAt): a dump of this node says it holds them too.
	return l.rotate()
}

// GTIDsAt returns the GTIDs executed at a position of the log: the file's
// Previous_gtids and its transactions that end at or before pos (MariaDB's
// BINLOG_GTID_POS, which turns a dump's CHANGE MASTER position into the GTID set
// its data holds). ok is false when file is not in the index or pos lies beyond
// its durable end.
func (l *Log) GTIDsAt(file string, pos int64) (set gtid.Set, ok bool, err error) {
	l.mu.Lock()
	names := l.fileNames()
	durPos := l.durPos
	l.mu.Unlock()
	idx := -1
	for i, n := range names {
		if n == file {
			idx = i
		}
	}
	if idx < 0 || pos < FirstEventPos {
		return set, false, nil
	}
	if idx == len(names)-1 && pos > durPos {
		return set, false, nil
	}
	fh, err := readFileHeader(l.path(file))
	if err != nil {
		return set, false, fmt.Errorf("binlog: gtids at %s:%d: %w", file, pos, err)
	}
	set = fh.prev.Clone()
	err = l.scanFile(file, pos, func(_ string, tx *Transaction) error {
		set.Add(tx.GTID)
		return nil
	})
	if err != nil {
		return gtid.Set{}, false, fmt.Errorf("binlog: gtids at %s:%d: %w", file, pos, err)
	}
	return set, true, nil
}

// removeDeclared forgets the declared set on disk (RESET BINARY LOGS AND GTIDS).
func (l *Log) removeDeclared() error {
	if err := os.Remove(declaredPath(l.dir, l.opts.BaseName)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
