package engine

// A lone client's statement runs on the client's own goroutine.
//
// Handing a statement to the writer goroutine and its answer back costs two
// goroutine wake-ups per commit, each a futex call and, on an otherwise idle
// processor, a scheduler thread spinning for work it does not find. When the writer
// is idle and served a single client last time (nobody else is waiting), the
// session takes the writer's place instead: it holds w.own, the right to drive the
// connection and the writer's state, runs the statement, writes the binary log and
// commits exactly as the writer would (flush), and gives the right back with the
// writer idle again. The writer goroutine holds w.own at all other times; it lets
// go only while it waits for a job with nothing open.

// tryInline runs j (an autocommit statement) on the calling goroutine if the writer
// is idle and has no reason to expect company; ok false means submit it instead.
func (w *writer) tryInline(j *job) (o outcome, ok bool) {
	if !w.own.TryLock() {
		return outcome{}, false
	}
	defer w.own.Unlock()
	// Idle is certain here (w.own is free only then); a writer that answered several
	// clients at its last commit is likely to see them again, and gathers them.
	if w.lastGroup > 1 || len(w.jobs) > 0 || len(w.locks.open) > 0 || len(w.ready) > 0 || len(w.later) > 0 || len(w.exclusive) > 0 {
		return outcome{}, false
	}
	if j.done == nil {
		j.done = make(chan outcome, 1)
	}
	w.execStmt(j)
	w.flush()
	return <-j.done, true
}

// idleWait waits for the next job with the writer idle, letting a lone client's
// session run its statement itself meanwhile (tryInline).
func (w *writer) idleWait() *job {
	w.own.Unlock()
	j := <-w.jobs
	w.own.Lock()
	return j
}
