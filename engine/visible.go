package engine

import (
	"context"
	"sync"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/gtid"
)

// visibleSet is gtid_executed as clients must see it: a GTID joins it only once its
// data is committed in storage. The binary log's own executed set runs ahead of it by
// the commit groups between their fsync and their SQLite commit; that set serves
// replication (auto-positioning, duplicates), this one @@gtid_executed and the waits.
type visibleSet struct {
	mu  sync.Mutex
	set gtid.Set
	// grew, when someone waits, is closed (and dropped) at the next change.
	grew chan struct{}
}

func (v *visibleSet) reset(s gtid.Set) {
	v.mu.Lock()
	v.set = s
	v.notifyLocked()
	v.mu.Unlock()
}

func (v *visibleSet) notifyLocked() {
	if v.grew != nil {
		close(v.grew)
		v.grew = nil
	}
}

func (v *visibleSet) union(s gtid.Set) {
	v.mu.Lock()
	v.set = v.set.Union(s)
	v.notifyLocked()
	v.mu.Unlock()
}

func (v *visibleSet) add(txs []*binlog.Transaction) {
	gs := make([]gtid.GTID, 0, len(txs))
	for _, tx := range txs {
		gs = append(gs, tx.GTID) // AddAll skips zero GTIDs (seq 0)
	}
	v.mu.Lock()
	v.set.AddAll(gs)
	v.notifyLocked()
	v.mu.Unlock()
}

// WaitExecuted blocks until every GTID of want is in gtid_executed (true) or ctx
// ends (false). It wakes at each commit instead of polling, so it returns as soon
// as the last of them is visible (WAIT_FOR_EXECUTED_GTID_SET).
func (e *Engine) WaitExecuted(ctx context.Context, want gtid.Set) bool {
	v := &e.visible
	for {
		v.mu.Lock()
		if want.IsSubset(v.set) {
			v.mu.Unlock()
			return true
		}
		if v.grew == nil {
			v.grew = make(chan struct{})
		}
		grew := v.grew
		v.mu.Unlock()
		select {
		case <-grew:
		case <-ctx.Done():
			return false
		}
	}
}

// Executed returns gtid_executed: every GTID whose transaction is committed and
// visible to readers.
func (e *Engine) Executed() gtid.Set {
	e.visible.mu.Lock()
	defer e.visible.mu.Unlock()
	return e.visible.set.Clone()
}
