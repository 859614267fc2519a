package engine

import (
	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/gtid"
)

type leaseEndKind uint8

const (
	endRollback leaseEndKind = iota
	endJoin                  // commit by joining the writer's next group
	endExternal              // the binary log already holds the transaction (multi-schema commit)
)

type leaseEnd struct {
	kind  leaseEndKind
	gtid  gtid.GTID
	reply chan outcome
}

// lease is an explicit transaction's exclusive hold on a schema's writer. While it is
// held the writer goroutine waits on end and the session drives the connection; the
// channel hand-offs order every access to it.
type lease struct {
	w       *writer
	events  []binlog.Event
	marks   map[string]int // savepoint name → len(events) when it was set
	aborted bool           // storage rolled the SQLite transaction back
	end     chan leaseEnd
}

func (w *writer) runLease(j *job) {
	w.flush()
	if err := w.begin(); err != nil {
		j.done <- outcome{err: err}
		return
	}
	l := &lease{w: w, marks: map[string]int{}, end: make(chan leaseEnd)}
	j.done <- outcome{lease: l}
	e := <-l.end
	switch e.kind {
	case endRollback:
		w.rollback()
		e.reply <- outcome{}
	case endJoin:
		if len(l.events) == 0 || l.aborted {
			w.rollback()
			e.reply <- outcome{}
			return
		}
		w.join(member{events: l.events, reply: replyTo{ch: e.reply}})
	case endExternal:
		if err := w.commitWith([]*binlog.Transaction{{GTID: e.gtid}}); err != nil {
			w.s.e.fatal(err)
			e.reply <- outcome{err: err}
			return
		}
		e.reply <- outcome{res: Result{GTID: e.gtid}}
	}
}

func (l *lease) finish(kind leaseEndKind, g gtid.GTID) outcome {
	reply := make(chan outcome, 1)
	l.end <- leaseEnd{kind: kind, gtid: g, reply: reply}
	return <-reply
}
