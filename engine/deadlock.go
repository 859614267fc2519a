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
