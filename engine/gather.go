package engine

import "time"

// join adds a transaction to the open group.
func (w *writer) join(m *member) {
	if len(w.group) == 0 {
		w.groupStart = time.Now()
	}
	w.group = append(w.group, m)
}

// gather waits briefly for the next statement instead of sealing the group now, when
// the engine asks for it and the group is smaller than the clients recently seen (those
// answered together are still coming back). When a group costs much more than the
// window (semi-sync: a network round trip) and the last two groups differ, the clients
// of both count: clients that missed a group queue up during its wait and alone reach
// the last group's size, which would otherwise seal the next group before the others
// return and leave groups alternating between two halves, every client paying two round
// trips. Steady groups (a lone client's included) keep the last size as the target.
func (w *writer) gather() *job {
	fn := w.s.e.opts.GatherWindow
	if fn == nil || len(w.group) == 0 {
		return nil
	}
	window := fn()
	target := w.lastGroup
	if window >= time.Millisecond && w.prevGroup != w.lastGroup {
		target += w.prevGroup // groups alternate: gather both halves
	}
	left := window - time.Since(w.groupStart)
	if window <= 0 || left <= 0 || len(w.group) >= target {
		return nil
	}
	if w.gatherTimer == nil {
		w.gatherTimer = time.NewTimer(left)
	} else {
		w.gatherTimer.Reset(left)
	}
	select {
	case j := <-w.jobs:
		if !w.gatherTimer.Stop() {
			<-w.gatherTimer.C
		}
		return j
	case <-w.gatherTimer.C:
		return nil
	}
}
