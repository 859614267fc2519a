package binlog

import (
	"errors"
	"fmt"
	"io"
)

// ScanTransactions calls fn for every whole transaction in the log, file by
// file from fromFile ("" = the first file), in log order. In the active file
// it stops at the durable position, so it never yields a transaction that is
// still being written. Recovery uses it to re-apply transactions a schema
// has not recorded.
func (l *Log) ScanTransactions(fromFile string, fn func(file string, tx *Transaction) error) error {
	l.mu.Lock()
	names := l.fileNames()
	durPos := l.durPos
	l.mu.Unlock()
	start := 0
	if fromFile != "" {
		start = -1
		for i, n := range names {
			if n == fromFile {
				start = i
			}
		}
		if start < 0 {
			return fmt.Errorf("binlog: scan from %s: file not found in index", fromFile)
		}
	}
	for i, name := range names[start:] {
		limit := int64(-1)
		if start+i == len(names)-1 {
			limit = durPos
		}
		if err := l.scanFile(name, limit, fn); err != nil {
			return err
		}
	}
	return nil
}

func (l *Log) scanFile(name string, limit int64, fn func(file string, tx *Transaction) error) error {
	ef, err := openEventFile(l.path(name))
	if err != nil {
		return err
	}
	defer ef.Close()
	var tx *Transaction
	for pos := FirstEventPos; limit < 0 || pos < limit; {
		h, ev, err := ef.next(pos)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("binlog: scan %s at %d: %w", name, pos, err)
		}
		switch e := ev.(type) {
		case *GTIDEvent:
			tx = &Transaction{GTID: e.GTID, OriginalCommitUS: e.OriginalCommitUS, ImmediateCommitUS: e.ImmediateCommitUS, Schemas: e.Schemas, ServerID: h.ServerID}
		case *RowsEvent, *QueryEvent:
			if tx == nil {
				return fmt.Errorf("binlog: scan %s at %d: %w: %s outside a transaction", name, pos, ErrCorrupt, h.Type)
			}
			tx.Events = append(tx.Events, ev)
		case *CommitEvent:
			if tx == nil {
				return fmt.Errorf("binlog: scan %s at %d: %w: Commit outside a transaction", name, pos, ErrCorrupt)
			}
			if err := fn(name, tx); err != nil {
				return err
			}
			tx = nil
		}
		pos = h.EndPos
	}
	return nil
}
