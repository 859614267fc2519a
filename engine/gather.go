package engine

import "time"

// join adds a transaction to the open group.
func (w *writer) join(m member) {
	if len(w.group) == 0 {
		w.groupStart = time.Now()
	}
	w.group = append(w.group, m)
}

// gather waits briefly for the next statement instead of sealing the group now, when
// the engine asks for it and the group is smaller than the clients recently seen (those
// answered together are still coming back). When a group costs much more than the
// window (semi-sync: a network round trip), the clients that queued up while the last
// group was committing count too: they start the next group at once, and sealing it
// when it reaches the last group's size would leave the others, still on their way
// back, to wait a whole round trip for the group after.
func (w *writer) gather() *job {
	if w.worker != nil {
		return w.holdRun()
	}
	fn := w.s.e.opts.GatherWindow
	if fn == nil || len(w.group) == 0 {
		return nil
	}
	window := fn()
	target := w.lastGroup
	if window >= time.Millisecond {
		target += w.backlog
	}
	left := window - time.Since(w.groupStart)
	if window <= 0 || left <= 0 || len(w.group) >= target {
		return nil
	}
	j, _ := w.waitJob(left, nil)
	return j
}

// waitJob waits up to d for the next job; a close of wake (nil: none) ends the wait
// early and reports woken.
func (w *writer) waitJob(d time.Duration, wake <-chan struct{}) (j *job, woken bool) {
	if w.gatherTimer == nil {
		w.gatherTimer = time.NewTimer(d)
	} else {
		w.gatherTimer.Reset(d)
	}
	select {
	case j = <-w.jobs:
	case <-wake:
		woken = true
	case <-w.gatherTimer.C:
		return nil, false
	}
	w.gatherTimer.Stop() // Go 1.23+: no stale tick is delivered after Stop
	return j, woken
}

// holdRun waits for the next job of an open run of replicated transactions while the
// stream's coordinator is still dispatching and nobody waits for this writer's applies;
// nil means commit the run now. Options.RunHold bounds the hold: it delays visibility
// on the replica by at most that much and keeps a transaction's WAL and undo state
// small. A kick of the stream wakes every holder; each then checks whether it still
// may hold.
func (w *writer) holdRun() *job {
	st := w.workerStream
	mayHold := func() bool { return st.holdRun() && w.waited.Load() == 0 }
	for {
		left := w.s.e.opts.RunHold - time.Since(w.groupStart)
		if len(w.group) == 0 || left <= 0 || !mayHold() {
			return nil
		}
		wake := st.wakeChan()
		if !mayHold() { // changed before the channel was taken
			return nil
		}
		if j, woken := w.waitJob(left, wake); !woken {
			return j // a job, or the hold limit (nil)
		}
	}
}
