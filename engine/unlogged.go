package engine

import (
	"errors"
	"fmt"

	"github.com/binlite/binlite/binlog"
)

// Statements run with sql_log_bin=0 (Stmt.Unlogged) change this node's storage only:
// no binary-log event, no GTID, nothing a replica receives. With no binary-log group
// to make it durable (invariant 1's fsync), such a commit is made durable by SQLite
// itself: the writer drains its pipeline, so every logged transaction before it is
// committed, and commits the statement alone with synchronous=FULL. Recovery keeps
// it: it re-applies only logged transactions above the schema's recorded high-water
// mark, which an unlogged commit leaves as it was, and every logged transaction
// after it executed on top of it.

// execUnlogged runs an unlogged statement in a SQLite transaction of its own.
func (w *writer) execUnlogged(j *job) {
	w.flush()
	res, err := w.runUnlogged(&j.stmt)
	j.done <- outcome{res: res, err: err}
}

func (w *writer) runUnlogged(st *Stmt) (Result, error) {
	if _, err := w.c.exec(`PRAGMA synchronous=FULL`); err != nil {
		return Result{}, fmt.Errorf("engine: unlogged commit on %s: %w", w.s.name, err)
	}
	defer w.c.exec(`PRAGMA synchronous=NORMAL`)
	if err := w.begin(); err != nil {
		return Result{}, err
	}
	var evs []binlog.Event // captured and dropped: nothing is logged
	res, err := w.runStmt(st, &evs)
	if err != nil {
		w.rollback()
		if errors.Is(err, errCapture) || len(st.DDL) > 0 {
			if rerr := w.reloadCatalog(); rerr != nil {
				w.s.e.fatal(rerr)
			}
		}
		return Result{}, err
	}
	if err := w.commitWith(nil); err != nil { // no GTID to record
		if len(st.DDL) > 0 {
			if rerr := w.reloadCatalog(); rerr != nil {
				w.s.e.fatal(rerr)
			}
		}
		return Result{}, fmt.Errorf("engine: unlogged commit on %s: %w", w.s.name, err)
	}
	return res, nil
}
