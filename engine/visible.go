package engine

import (
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
}

func (v *visibleSet) reset(s gtid.Set) {
	v.mu.Lock()
	v.set = s
	v.mu.Unlock()
}

func (v *visibleSet) add(txs []*binlog.Transaction) {
	gs := make([]gtid.GTID, 0, len(txs))
	for _, tx := range txs {
		gs = append(gs, tx.GTID) // AddAll skips zero GTIDs (seq 0)
	}
	v.mu.Lock()
	v.set.AddAll(gs)
	v.mu.Unlock()
}

// Executed returns gtid_executed: every GTID whose transaction is committed and
// visible to readers.
func (e *Engine) Executed() gtid.Set {
	e.visible.mu.Lock()
	defer e.visible.mu.Unlock()
	return e.visible.set.Clone()
}
