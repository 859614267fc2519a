package binlog

import (
	"fmt"
	"slices"

	"github.com/binlite/binlite/gtid"
	"golang.org/x/sys/unix"
)

// commitReq is one Commit call waiting in the group queue.
type commitReq struct {
	txns []*Transaction
	err  error
	sig  chan commitSignal // buffered 1
}

type commitSignal uint8

const (
	sigDone commitSignal = iota // req.err is final
	sigLead                     // become leader for the next group
)

// Commit writes the transactions durably (per SyncBinlog) and returns after
// that. Concurrent callers are grouped: one leader writes every queued
// transaction with one write and one fdatasync, then wakes the others;
// callers that arrive meanwhile form the next group. Assigned GTIDs and
// commit timestamps are written back into txns.
func (l *Log) Commit(txns []*Transaction) error {
	if len(txns) == 0 {
		return nil
	}
	for _, tx := range txns {
		if err := tx.validate(); err != nil {
			return err
		}
	}
	req := &commitReq{txns: txns, sig: make(chan commitSignal, 1)}
	l.mu.Lock()
	if err := l.unusableLocked(); err != nil {
		l.mu.Unlock()
		return err
	}
	l.pending = append(l.pending, req)
	lead := !l.leading
	l.leading = true
	l.mu.Unlock()

	if lead {
		l.leadGroup()
	}
	for {
		if <-req.sig == sigDone {
			return req.err
		}
		l.leadGroup()
	}
}

func (l *Log) unusableLocked() error {
	if l.failed != nil {
		return fmt.Errorf("binlog: commit refused after earlier failure: %w", l.failed)
	}
	if l.closed {
		return ErrClosed
	}
	return nil
}

// leadGroup writes everything queued as one group, then hands leadership to
// the first caller that queued meanwhile, so no caller leads twice in a row
// and latency stays bounded under constant load.
func (l *Log) leadGroup() {
	l.ioMu.Lock()
	l.mu.Lock()
	batch := l.pending
	l.pending = nil
	err := l.unusableLocked()
	if err == nil {
		err = l.writeGroup(batch) // called with mu held; drops it around I/O
	}
	if err != nil {
		for _, r := range batch {
			if r.err == nil {
				r.err = err
			}
		}
	}
	var next *commitReq
	if len(l.pending) > 0 {
		next = l.pending[0]
	} else {
		l.leading = false
	}
	l.mu.Unlock()
	l.ioMu.Unlock()
	for _, r := range batch {
		r.sig <- sigDone
	}
	if next != nil {
		next.sig <- sigLead
	}
}

// groupChunk bounds the encoding buffer: a larger group (a replica commits
// thousands of transactions at once) is written in pieces of about this size,
// made durable by the one fdatasync at its end, instead of growing and keeping
// a buffer the size of the whole group.
const groupChunk = 1 << 20

// writeGroup assigns GTIDs, encodes, writes and syncs one group, then rotates
// if the file grew past MaxSize. Caller holds ioMu and mu; mu is released
// during I/O so new callers can queue. A returned error is a log failure.
func (l *Log) writeGroup(batch []*commitReq) error {
	// Where the group starts, to take it all back if the disk is full.
	groupStart, seqStart := l.size, l.nextSeq
	now := l.opts.Now()
	nowUS, ts := uint64(now.UnixMicro()), uint32(now.Unix())
	var inGroup gtid.Set
	n := 0
	for _, r := range batch {
		n += len(r.txns)
	}
	written, gs := make([]*Transaction, 0, n), make([]gtid.GTID, 0, n)
	var assigned, groupAssigned []*Transaction
	b := l.buf[:0]
	for _, r := range batch {
		if r.err = l.checkDuplicatesLocked(r.txns, &inGroup); r.err != nil {
			continue
		}
		b = slices.Grow(b, encodedSizeHint(r.txns))
		start, startSeq, nWritten := len(b), l.nextSeq, len(written)
		assigned = assigned[:0]
		for _, tx := range r.txns {
			if tx.GTID.IsZero() {
				tx.GTID = gtid.GTID{UUID: l.opts.ServerUUID, Seq: l.nextSeq}
				l.nextSeq++
				assigned = append(assigned, tx)
			} else if tx.GTID.UUID == l.opts.ServerUUID && tx.GTID.Seq >= l.nextSeq {
				l.nextSeq = tx.GTID.Seq + 1 // never issue a number seen in the log
			}
			if !l.opts.KeepTimestamps || tx.ImmediateCommitUS == 0 {
				tx.ImmediateCommitUS = nowUS
			}
			if tx.OriginalCommitUS == 0 {
				tx.OriginalCommitUS = nowUS
			}
			var err error
			if b, err = appendTx(b, tx, ts, l.opts.ServerID); err != nil {
				r.err = err
				break
			}
			written = append(written, tx)
		}
		if r.err != nil {
			// Drop the whole request; its numbers were never written, so
			// handing them out again keeps the sequence gap-free.
			b, written = b[:start], written[:nWritten]
			l.nextSeq = startSeq
			for _, tx := range assigned {
				tx.GTID = gtid.GTID{}
			}
			continue
		}
		groupAssigned = append(groupAssigned, assigned...)
		gs = gs[:0]
		for _, tx := range r.txns {
			gs = append(gs, tx.GTID)
		}
		inGroup.AddAll(gs)
		if len(b) >= groupChunk {
			// Write what the group holds so far (complete requests only, so a
			// later failed request can still be cut off) and reuse the buffer.
			if err := l.writeLocked(b, false); err != nil {
				l.buf = b[:0]
				return l.groupFailed(err, groupStart, seqStart, groupAssigned)
			}
			b = b[:0]
		}
	}
	l.buf = b
	if len(written) == 0 {
		return nil
	}
	if err := l.writeLocked(b, true); err != nil {
		return l.groupFailed(err, groupStart, seqStart, groupAssigned)
	}
	file := l.files[len(l.files)-1].name
	gs = gs[:0]
	for _, tx := range written {
		gs = append(gs, tx.GTID)
		tx.File, tx.EndPos = file, l.size
	}
	l.execMu.Lock()
	l.executed.AddAll(gs)
	l.execMu.Unlock()
	l.stats.Groups++
	l.stats.Transactions += uint64(len(written))
	l.publishLocked(l.size)
	if l.size > l.opts.MaxSize {
		// This group is durable whatever happens next; a rotation failure
		// is sticky (rotate calls fail) and stops later commits.
		l.mu.Unlock()
		_ = l.rotate()
		l.mu.Lock()
	}
	return nil
}

// encodedSizeHint is about what appendTx adds for txns: a replica's run can be
// megabytes, which doubling a buffer up to would copy several times over.
func encodedSizeHint(txns []*Transaction) int {
	n := 0
	for _, tx := range txns {
		n += 128 // GTID and commit events
		for _, ev := range tx.Events {
			if re, ok := ev.(*RowsEvent); ok && re.frame != nil {
				n += len(re.frame)
			} else {
				n += 256
			}
		}
	}
	return n
}

// checkDuplicatesLocked rejects GTIDs already executed or earlier in this group.
func (l *Log) checkDuplicatesLocked(txns []*Transaction, inGroup *gtid.Set) error {
	if u, seqs, ok := increasingSeqs(txns); ok {
		// A replica's run: one source, in order. One pass per set.
		for _, s := range []gtid.Set{l.executed, *inGroup} {
			if q, dup := s.FirstContained(u, seqs); dup {
				return fmt.Errorf("binlog: commit %v: %w", gtid.GTID{UUID: u, Seq: q}, ErrDuplicateGTID)
			}
		}
		return nil
	}
	var mine gtid.Set
	for _, tx := range txns {
		if tx.GTID.IsZero() {
			continue
		}
		if l.executed.Contains(tx.GTID) || inGroup.Contains(tx.GTID) || mine.Contains(tx.GTID) {
			return fmt.Errorf("binlog: commit %v: %w", tx.GTID, ErrDuplicateGTID)
		}
		mine.Add(tx.GTID)
	}
	return nil
}

// increasingSeqs returns the sequence numbers of the given GTIDs of txns (those
// still to be assigned left out) when they share one UUID and strictly increase.
func increasingSeqs(txns []*Transaction) (u gtid.UUID, seqs []uint64, ok bool) {
	for _, tx := range txns {
		if tx.GTID.IsZero() {
			continue
		}
		if seqs == nil {
			u, seqs = tx.GTID.UUID, make([]uint64, 0, len(txns))
		} else if tx.GTID.UUID != u || tx.GTID.Seq <= seqs[len(seqs)-1] {
			return u, nil, false
		}
		seqs = append(seqs, tx.GTID.Seq)
	}
	return u, seqs, true
}

// writeLocked appends b to the file with mu released (callers may queue
// meanwhile), then, at the end of a group, syncs per SyncBinlog. Caller holds
// ioMu and mu.
func (l *Log) writeLocked(b []byte, endOfGroup bool) error {
	l.mu.Unlock()
	err := l.writeSync(b, endOfGroup)
	l.mu.Lock()
	return err
}

// groupFailed handles a group write that failed. A write the disk had no room
// for is taken back whole (the file cut to where the group began, its GTIDs
// handed out again) and later commits go on; any other failure, or a cut that
// fails, is sticky: no later commit is accepted. Caller holds ioMu and mu.
func (l *Log) groupFailed(err error, groupStart int64, seqStart uint64, assigned []*Transaction) error {
	if IsDiskFull(err) {
		l.mu.Unlock()
		ok := l.undoWrite(groupStart)
		l.mu.Lock()
		if ok {
			l.nextSeq = seqStart
			for _, tx := range assigned {
				tx.GTID = gtid.GTID{} // the numbers are free again
			}
			l.log.Warn("binlog: disk full; the group was not written and commits fail until there is room", "err", err)
			return diskFull(err)
		}
	}
	l.failed = err
	l.log.Error("binlog: write failed; refusing further commits", "err", err)
	return err
}

// writeSync appends part of a group with a single write and, at the end of the
// group, syncs per SyncBinlog. Caller holds ioMu.
func (l *Log) writeSync(b []byte, endOfGroup bool) error {
	if _, err := l.write(b); err != nil {
		return fmt.Errorf("binlog: write %s: %w", l.f.Name(), err)
	}
	off := l.size
	l.size += int64(len(b))
	if !endOfGroup {
		if l.opts.SyncBinlog > 0 {
			// Start writing this piece to disk now, so the group's fdatasync has
			// less left to wait for. Only a hint: durability is the fdatasync's.
			_ = unix.SyncFileRange(l.fd, off, int64(len(b)), unix.SYNC_FILE_RANGE_WRITE)
		}
		return nil
	}
	l.unsynced++
	if l.opts.TestPoint != nil {
		l.opts.TestPoint(PointWritten)
	}
	if n := l.opts.SyncBinlog; n > 0 && l.unsynced >= n {
		if err := unix.Fdatasync(l.fd); err != nil {
			return fmt.Errorf("binlog: fdatasync %s: %w", l.f.Name(), err)
		}
		l.unsynced = 0
		l.mu.Lock()
		l.stats.Syncs++
		l.mu.Unlock()
	}
	return nil
}

// Sync makes everything written durable now, whatever SyncBinlog says: a semi-sync
// replica fsyncs its relay log before acknowledging.
func (l *Log) Sync() error {
	l.ioMu.Lock()
	defer l.ioMu.Unlock()
	l.mu.Lock()
	failed := l.failed
	l.mu.Unlock()
	if failed != nil || l.unsynced == 0 {
		return failed
	}
	if err := unix.Fdatasync(l.fd); err != nil {
		return l.fail(fmt.Errorf("binlog: fdatasync %s: %w", l.f.Name(), err))
	}
	l.unsynced = 0
	l.mu.Lock()
	l.stats.Syncs++
	l.mu.Unlock()
	return nil
}
