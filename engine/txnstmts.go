package engine

import (
	"fmt"

	"github.com/binlite/binlite/gtid"
	"github.com/binlite/binlite/sqlitec"
)

// txnStmts are the statements a writer runs around every commit (BEGIN, the
// applied-GTID upsert, COMMIT, the pipeline's group savepoint), prepared once on the
// connection's direct handle. Through the driver, each would be parsed again on
// every use (a statement without arguments is not cached) or bound value by value
// across cgo; on a lone client's path these are most of what a commit runs besides
// the statement itself.
type txnStmts struct {
	c        *sqlitec.Conn
	prepared map[string]*sqlitec.Stmt
	// uuid and uuidText: the last source uuid recorded and its text.
	uuid     gtid.UUID
	uuidText []byte
}

const (
	sqlBegin          = `BEGIN IMMEDIATE`
	sqlCommit         = `COMMIT`
	sqlGroupSavepoint = `SAVEPOINT binlite_group`
	sqlGroupRelease   = `RELEASE binlite_group`
	sqlGroupRollback  = `ROLLBACK TO binlite_group`
	sqlTxnSavepoint   = `SAVEPOINT binlite_lk`
	sqlTxnRelease     = `RELEASE binlite_lk`
	sqlTxnRollback    = `ROLLBACK TO binlite_lk`
	sqlRecordApplied  = `INSERT INTO ` + appliedTable + `(uuid, seq) VALUES (?, ?) ON CONFLICT(uuid) DO UPDATE SET seq = max(seq, excluded.seq)`
)

// exec runs one of the statements above without arguments.
func (ts *txnStmts) exec(q string) error {
	st, err := ts.stmt(q)
	if err != nil {
		return err
	}
	ts.c.ResetArgs()
	_, err = st.Exec()
	return err
}

// recordApplied raises the schema's applied high-water mark of u to seq.
func (ts *txnStmts) recordApplied(u gtid.UUID, seq uint64) error {
	st, err := ts.stmt(sqlRecordApplied)
	if err != nil {
		return err
	}
	if ts.uuidText == nil || u != ts.uuid {
		ts.uuid, ts.uuidText = u, []byte(u.String())
	}
	ts.c.ResetArgs()
	ts.c.Text(ts.uuidText)
	ts.c.Int(int64(seq))
	_, err = st.Exec()
	return err
}

func (ts *txnStmts) stmt(q string) (*sqlitec.Stmt, error) {
	if st := ts.prepared[q]; st != nil {
		return st, nil
	}
	st, err := ts.c.Prepare(q)
	if err != nil {
		return nil, fmt.Errorf("engine: prepare %s: %w", q, err)
	}
	if ts.prepared == nil {
		ts.prepared = map[string]*sqlitec.Stmt{}
	}
	ts.prepared[q] = st
	return st, nil
}

// close finalizes the statements (before the direct handle is closed).
func (ts *txnStmts) close() {
	for _, st := range ts.prepared {
		st.Close()
	}
	ts.prepared = nil
}
