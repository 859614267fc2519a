package engine

import (
	"sync"

	"github.com/binlite/binlite/mysqlerr"
)

// waitGraph tracks which explicit transaction holds each schema's writer and which
// schema each transaction waits for, so a wait that closes a cycle fails at once with
// 1213 (as InnoDB's deadlock detector does) instead of waiting out the timeout.
type waitGraph struct {
	mu      sync.Mutex
	holder  map[*Schema]*Txn
	waiting map[*Txn]*Schema
	// waitsFor: an interleaved transaction's statement parked on another
	// transaction's row lock (interleave.go), on any schema.
	waitsFor map[*Txn]*Txn
}

// waitTxn records that t waits for h to end; it fails if h (transitively) waits
// for t.
func (g *waitGraph) waitTxn(t, h *Txn) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	for cur, n := h, 0; cur != nil && n < 10000; n++ {
		if cur == t {
			return errDeadlock()
		}
		next := g.waitsFor[cur]
		if next == nil {
			if s := g.waiting[cur]; s != nil {
				next = g.holder[s]
			}
		}
		cur = next
	}
	if g.waitsFor == nil {
		g.waitsFor = map[*Txn]*Txn{}
	}
	g.waitsFor[t] = h
	return nil
}

// LockWaits is how many statements wait on another's lock now: parked on a row
// lock of an interleaved transaction (until their holder ends, one given up
// at the lock wait timeout included), or waiting for a schema's writer held by a
// lease. MySQL's Innodb_row_lock_current_waits.
func (e *Engine) LockWaits() int {
	g := &e.locks
	g.mu.Lock()
	leases := len(g.waiting)
	g.mu.Unlock()
	return int(e.txnStats.parked.Load()) + leases
}

// doneWaiting records that t waits for no transaction.
func (g *waitGraph) doneWaiting(t *Txn) {
	g.mu.Lock()
	delete(g.waitsFor, t)
	g.mu.Unlock()
}

// wait records that t is about to wait for s; it fails if that would deadlock.
func (g *waitGraph) wait(t *Txn, s *Schema) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	for cur, n := s, 0; cur != nil && n < 1000; n++ {
		h := g.holder[cur]
		if h == nil {
			break
		}
		if h == t {
			return mysqlerr.New(mysqlerr.ErLockDeadlock, "Deadlock found when trying to get lock; try restarting transaction")
		}
		cur = g.waiting[h]
	}
	if g.waiting == nil {
		g.waiting = map[*Txn]*Schema{}
	}
	g.waiting[t] = s
	return nil
}

// granted records that t holds s (or, with ok false, that it gave up waiting).
func (g *waitGraph) granted(t *Txn, s *Schema, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.waiting, t)
	if ok {
		if g.holder == nil {
			g.holder = map[*Schema]*Txn{}
		}
		g.holder[s] = t
	}
}

// released records that t no longer holds s.
func (g *waitGraph) released(t *Txn, s *Schema) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.holder[s] == t {
		delete(g.holder, s)
	}
}
