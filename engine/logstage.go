package engine

import "time"

// The log stage of a writer's pipeline: a goroutine that writes one sealed group at
// a time to the binary log (Log.Commit, which shares its write and fdatasync with
// the groups other schemas hand it meanwhile) and waits for semi-sync AFTER_SYNC,
// while the writer goroutine goes on executing. At most one group of a writer is in
// the stage, so the channels never hold more than one.

// startLogStage starts the stage's goroutine; stopLogStage ends it.
func (w *writer) startLogStage() {
	w.toLog = make(chan *logGroup, 1)
	w.fromLog = make(chan *logGroup, 1)
	w.logStopped = make(chan struct{})
	go func() {
		defer close(w.logStopped)
		for g := range w.toLog {
			w.point(PointLogBegin)
			w.writeLog(g)
			if g.err == nil {
				w.point(PointLogSynced)
			}
			w.fromLog <- g
		}
	}()
}

func (w *writer) stopLogStage() {
	if w.toLog != nil {
		close(w.toLog)
		<-w.logStopped
		w.toLog = nil
	}
}

// writeLog makes g durable in the binary log (and acknowledged under semi-sync
// AFTER_SYNC); g.err is a log failure. Run by the log stage, or inline by the writer.
func (w *writer) writeLog(g *logGroup) {
	start := time.Now()
	g.err = w.s.e.opts.Log.Commit(g.txs)
	if g.err == nil {
		w.s.e.afterSync(g.txs)
	}
	g.took = time.Since(start)
}

// point calls the engine's test hook at a named point (testpoint.go).
func (w *writer) point(name string) {
	if f := w.s.e.opts.TestPoint; f != nil {
		f(name)
	}
}
