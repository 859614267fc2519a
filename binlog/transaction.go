package binlog

import (
	"fmt"

	"github.com/binlite/binlite/gtid"
)

// Transaction is what Commit writes and ScanTransactions yields: a GTID event,
// the row and query events, and a Commit event.
type Transaction struct {
	GTID              gtid.GTID // zero: Commit assigns ServerUUID:next
	OriginalCommitUS  uint64    // zero: Commit sets it to the commit time
	ImmediateCommitUS uint64    // always set by Commit
	Schemas           []string
	Events            []Event // *RowsEvent and *QueryEvent only
	// ServerID is the originating server's id for the event headers; zero
	// means Options.ServerID. Replicas keep the source's id, as MySQL does.
	ServerID uint32
	// File and EndPos are set by Commit: where the transaction's group ends in the
	// log (a semi-sync wait needs that position acknowledged).
	File   string
	EndPos int64
}

// validate checks what Commit can check before assigning a GTID.
func (tx *Transaction) validate() error {
	// Only a replicated transaction may be empty: one a replica's filters emptied,
	// logged with its GTID (as MySQL does) so that gtid_executed stays complete.
	if len(tx.Events) == 0 && tx.GTID.Seq == 0 {
		return fmt.Errorf("binlog: commit: transaction has no events")
	}
	for _, ev := range tx.Events {
		switch ev.(type) {
		case *RowsEvent, *QueryEvent:
		default:
			return fmt.Errorf("binlog: commit: %T is not allowed inside a transaction", ev)
		}
	}
	return nil
}

// appendTx frames the whole transaction; it fails only if one event is too big.
func appendTx(b []byte, tx *Transaction, ts, serverID uint32) ([]byte, error) {
	if tx.ServerID != 0 {
		serverID = tx.ServerID
	}
	g := GTIDEvent{GTID: tx.GTID, OriginalCommitUS: tx.OriginalCommitUS, ImmediateCommitUS: tx.ImmediateCommitUS, Schemas: tx.Schemas}
	start := len(b)
	b = finishEvent(g.appendPayload(appendHeader(b, TypeGTID, ts, serverID)), start)
	for _, ev := range tx.Events {
		if re, ok := ev.(*RowsEvent); ok {
			var copied bool
			if b, copied = re.appendFrame(b, serverID); copied {
				continue
			}
		}
		start := len(b)
		b = AppendEvent(b, ev, ts, serverID)
		if len(b)-start > MaxEventLen {
			return b[:start], fmt.Errorf("binlog: commit %v: %s event of %d bytes exceeds %d", tx.GTID, ev.Type(), len(b)-start, MaxEventLen)
		}
	}
	start = len(b)
	return finishEvent(appendHeader(b, TypeCommit, ts, serverID), start), nil
}
