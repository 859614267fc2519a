package replica

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/engine"
	"github.com/binlite/binlite/mysqlerr"
)

// The apply window bounds what is queued on writers at once, in transactions and in
// relay-log bytes (decoded transactions stay in memory until their run commits). When
// it is full the coordinator waits for the oldest, and every writer commits its run:
// a wide window lets runs grow to thousands of transactions per schema between those
// pauses.
const (
	applyWindow      = 65536
	applyWindowBytes = 256 << 20
)

type inflight struct {
	tx   *binlog.Transaction
	res  *engine.Pending
	file string // relay file it came from
	size int64  // relay-log bytes
}

// runSQL is the applier: read whole transactions from the relay log, skip those whose
// GTID the node has, and apply the rest through the engine with their GTIDs. Each
// transaction is queued on its schema's writer without waiting, so consecutive
// transactions of a schema share one SQLite transaction and one binlog group.
func (ch *Channel) runSQL(ctx context.Context) {
	relay, err := ch.relayLog()
	if err != nil {
		ch.setSQLError(mysqlerr.ErUnknownError, err.Error())
		return
	}
	files, err := relay.Files()
	if err != nil || len(files) == 0 {
		ch.setSQLError(mysqlerr.ErUnknownError, fmt.Sprintf("relay log: %v", err))
		return
	}
	r, err := binlog.OpenReader(relay.Dir(), files[0].Name, binlog.FirstEventPos)
	if err != nil {
		ch.setSQLError(mysqlerr.ErUnknownError, fmt.Sprintf("relay log: %v", err))
		return
	}
	r.DeferRows() // the schema writers decode rows, in parallel, into memory they reuse
	// Read the relay log in place. Rows events reach the writers and the replica's
	// binary log, which copy what they keep; nothing holds a row value past its event.
	r.MapFiles()
	workers := int(ch.m.cfg.Vars.Int("replica_parallel_workers"))
	a := &applier{ch: ch, relay: relay, r: r, eng: ch.m.cfg.Engine, stream: engine.NewApplyStream(workers),
		preserveOrder: ch.m.cfg.Vars.Int("replica_preserve_commit_order") != 0}
	ch.mu.Lock()
	ch.applyStream = a.stream
	a.filters = ch.m.cfg.Filters.effective(ch.name, ch.settings.Filters)
	a.ownTables = map[string]bool{}
	a.overlapStop = ch.m.cfg.Vars.String("replica_channel_overlap") == "STOP"
	ch.mu.Unlock()
	defer a.close()
	a.run(ctx)
}

type applier struct {
	ch     *Channel
	relay  *binlog.Log
	r      *binlog.Reader
	eng    *engine.Engine
	stream *engine.ApplyStream
	queue  queue
	queued int64 // relay-log bytes of the queue
	tx     *binlog.Transaction
	// skipping: the transaction being read is already executed; its events are
	// stepped over up to its commit.
	skipping bool
	// filters are the channel's replication filters, as they were at its start
	// (CHANGE REPLICATION FILTER needs the SQL thread stopped).
	filters Filters
	// ownTables are the tables this channel is known to change alone (overlap.go).
	ownTables map[string]bool
	// overlapStop: replica_channel_overlap=STOP at the thread's start.
	overlapStop bool
	// preserveOrder (replica_preserve_commit_order) dispatches a run of one schema only
	// after everything before it committed, so commits become visible in source order.
	preserveOrder bool
}

func (a *applier) close() {
	a.stream.SetFeeding(false)
	a.drain(true)
	a.r.Close()
}

func (a *applier) run(ctx context.Context) {
	a.ch.update(func(st *state) { st.sqlState = "Replica has read all relay log; waiting for more updates" })
	for ctx.Err() == nil {
		if !a.reap(false) {
			return
		}
		// The receiver advances its read position only after the relay log holds what
		// it read, so a position taken before finding the relay log's end is one the
		// applier has then fully applied.
		a.ch.mu.Lock()
		readFile, readPos := a.ch.st.readFile, a.ch.st.readPos
		a.ch.mu.Unlock()
		startFile, startPos := a.r.Position()
		tx, err := a.next()
		if errors.Is(err, io.EOF) {
			if !a.reap(true) { // nothing more is coming now
				return
			}
			a.caughtUp(readFile, readPos)
			f, p := a.r.Position()
			wctx, cancel := context.WithTimeout(ctx, time.Second)
			a.relay.WaitDurable(wctx, f, p)
			cancel()
			continue
		}
		if err != nil {
			a.drain(true)
			a.ch.setSQLError(1594, fmt.Sprintf("Relay log read failure: Could not parse relay log event entry. %v", err))
			return
		}
		if !a.eng.Claim(tx.GTID) {
			continue // already executed (or being applied by another channel)
		}
		a.filters.apply(tx)
		if !a.checkOverlap(tx) {
			a.eng.Unclaim(tx.GTID)
			return
		}
		a.stream.SetFeeding(true)
		if !a.waitDelay(ctx, tx) {
			a.eng.Unclaim(tx.GTID)
			return
		}
		if a.queue.len() == 0 { // otherwise done keeps the state as the queue moves
			a.ch.update(func(st *state) {
				st.caughtUp = false
				st.sqlState = "Waiting for dependent transaction to commit"
				st.oldestUS = tx.OriginalCommitUS
			})
		}
		file, endPos := a.r.Position()
		size := endPos
		if file == startFile {
			size -= startPos
		}
		if a.preserveOrder && a.queue.len() > 0 && len(tx.Schemas) > 0 && a.queue.back().tx.Schemas[0] != tx.Schemas[0] {
			if !a.reap(true) {
				a.eng.Unclaim(tx.GTID)
				return
			}
		}
		if res, err := a.eng.ApplyAsync(a.stream, tx); err == nil {
			a.queue.push(inflight{tx: tx, res: res, file: file, size: size})
			a.queued += size
			for (a.queue.len() >= applyWindow || a.queued >= applyWindowBytes) && a.queue.len() > 0 {
				if !a.reapOne() {
					return
				}
			}
			continue
		}
		// Several schemas, CREATE/DROP DATABASE, or a schema that does not exist yet:
		// everything queued before it must finish first.
		if !a.reap(true) {
			a.eng.Unclaim(tx.GTID)
			return
		}
		_, err = a.eng.ApplySync(a.stream, tx)
		a.eng.Unclaim(tx.GTID)
		if err != nil {
			a.fail(tx, err)
			return
		}
		a.done(tx, 1)
	}
}

// next returns the next whole transaction of the relay log (io.EOF at its end).
func (a *applier) next() (*binlog.Transaction, error) {
	for {
		if a.skipping {
			t, ok, err := a.r.SkipTxnEvent()
			if err != nil {
				return nil, err
			}
			if ok {
				a.skipping = t != binlog.TypeCommit
				continue
			}
			a.skipping = false // not part of a body: read it whole
		}
		ev, h, err := a.r.Next()
		if err != nil {
			return nil, err
		}
		switch e := ev.(type) {
		case *binlog.GTIDEvent:
			if a.eng.Logged(e.GTID) {
				// Already applied (the relay log still holds what came before a
				// restart): step over its events without decoding them.
				a.tx, a.skipping = nil, true
				continue
			}
			// One allocation for the transaction and its (usually single) event.
			t := &struct {
				tx  binlog.Transaction
				evs [1]binlog.Event
			}{tx: binlog.Transaction{GTID: e.GTID, OriginalCommitUS: e.OriginalCommitUS, ImmediateCommitUS: e.ImmediateCommitUS, Schemas: e.Schemas, ServerID: h.ServerID}}
			t.tx.Events = t.evs[:0]
			a.tx = &t.tx
		case *binlog.RowsEvent, *binlog.QueryEvent:
			if a.tx != nil {
				a.tx.Events = append(a.tx.Events, ev)
			}
		case *binlog.CommitEvent:
			if tx := a.tx; tx != nil {
				a.tx = nil
				return tx, nil
			}
		case *binlog.RotateEvent:
			a.purge()
		}
	}
}

// waitDelay holds a transaction until SOURCE_DELAY seconds after the source committed it.
func (a *applier) waitDelay(ctx context.Context, tx *binlog.Transaction) bool {
	a.ch.mu.Lock()
	delay := time.Duration(a.ch.settings.Delay) * time.Second
	a.ch.mu.Unlock()
	if delay <= 0 {
		return true
	}
	due := time.UnixMicro(int64(tx.ImmediateCommitUS)).Add(delay)
	if time.Until(due) <= 0 {
		return true
	}
	if !a.reap(true) {
		return false
	}
	a.ch.update(func(st *state) { st.sqlState = "Waiting until SOURCE_DELAY seconds after source executed event" })
	t := time.NewTimer(time.Until(due))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// reap collects finished applies in order; with wait it waits for all of them. It
// returns false when an apply failed (the thread stops).
func (a *applier) reap(wait bool) bool {
	if wait {
		a.stream.SetFeeding(false) // every writer commits what it holds: all are awaited
	}
	var last *binlog.Transaction
	n := 0
	defer func() {
		if n > 0 {
			a.done(last, n)
		}
	}()
	for a.queue.len() > 0 {
		if !wait && !a.queue.front().res.Ready() {
			return true // the oldest is still running; results arrive in order per schema only
		}
		tx, ok := a.take()
		if !ok {
			return false
		}
		last, n = tx, n+1
	}
	return true
}

func (a *applier) reapOne() bool {
	tx, ok := a.take()
	if ok {
		a.done(tx, 1)
	}
	return ok
}

// take waits for the oldest queued apply and removes it from the queue; false means
// it failed (the stream is drained and the error recorded).
func (a *applier) take() (*binlog.Transaction, bool) {
	in, err := a.popWaited()
	if err != nil {
		a.drain(false)
		a.fail(in.tx, err)
		return nil, false
	}
	return in.tx, true
}

// popWaited waits for the oldest queued apply, removes it from the queue and releases
// its claim. Waiting makes the writer of that apply commit its run if it holds it
// open for more; the other writers go on holding theirs while the coordinator feeds
// them.
func (a *applier) popWaited() (inflight, error) {
	_, err := a.queue.front().res.Wait()
	in := a.queue.pop()
	a.queued -= in.size
	a.eng.Unclaim(in.tx.GTID)
	return in, err
}

// drain waits for every queued apply (they fail fast once the stream failed).
func (a *applier) drain(record bool) {
	a.stream.SetFeeding(false)
	for a.queue.len() > 0 {
		if in, err := a.popWaited(); record && err == nil {
			a.done(in.tx, 1)
		}
	}
}

// done records n applied transactions, the last of them tx, and wakes waiters.
func (a *applier) done(tx *binlog.Transaction, n int) {
	a.ch.update(func(st *state) {
		st.lastApplied = tx.GTID
		st.appliedCount += uint64(n)
		st.oldestUS = 0
		if a.queue.len() > 0 {
			st.oldestUS = a.queue.front().tx.OriginalCommitUS
		}
		st.relayFile, st.relayPos = a.r.Position()
	})
	a.ch.notifyApplied()
}

func (a *applier) caughtUp(readFile string, readPos int64) {
	a.ch.update(func(st *state) {
		st.caughtUp = true
		st.oldestUS = 0
		st.sqlState = "Replica has read all relay log; waiting for more updates"
		st.relayFile, st.relayPos = a.r.Position()
		st.execFile, st.execPos = readFile, readPos
	})
	a.ch.notifyApplied()
}

func (a *applier) fail(tx *binlog.Transaction, err error) {
	code := mysqlerr.ErUnknownError
	msg := err.Error()
	if me, ok := mysqlerr.As(err); ok {
		code, msg = me.Code, me.Message
	}
	a.ch.setSQLError(code, fmt.Sprintf("Error executing row event or query of transaction '%s' (schemas %v): %s", tx.GTID, tx.Schemas, msg))
}

// purge removes relay files whose transactions are all applied (relay_log_purge).
func (a *applier) purge() {
	cur, _ := a.r.Position()
	oldest := cur
	if a.queue.len() > 0 {
		oldest = a.queue.front().file
	}
	files, err := a.relay.Files()
	if err != nil || len(files) < 2 || files[0].Name >= oldest {
		return
	}
	if err := a.relay.PurgeTo(oldest); err != nil {
		a.ch.m.cfg.Logger.Warn("relay log purge", "channel", a.ch.name, "err", err)
	}
}

// checkOverlap reports a table another channel changes rows of; with
// replica_channel_overlap=STOP it stops the thread first (false).
func (a *applier) checkOverlap(tx *binlog.Transaction) bool {
	stop := a.overlapStop
	ov, found := a.ch.m.overlaps.check(a.ch.name, tx, a.ownTables, stop)
	if !found {
		return true
	}
	a.ch.m.cfg.Logger.Warn("replication channels overlap", "table", ov.Table, "channel", ov.Channel, "other_channel", ov.Owner, "stopping", stop)
	if !stop {
		return true
	}
	if !a.reap(true) {
		return false
	}
	a.ch.setSQLError(ErrChannelOverlap, fmt.Sprintf("Fatal error: %s; transaction '%s' not applied, replica_channel_overlap=STOP", ov.Message(), tx.GTID))
	return false
}
