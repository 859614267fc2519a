package engine

import (
	"errors"
	"fmt"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/preupdate"
)

// capture turns the changes a statement made (recorded by the preupdate package's C
// hook) into binlog row events. It belongs to one writer connection; whoever drives the
// connection (the writer goroutine or a session holding a lease) collects into its own
// buffer.
type capture struct {
	schema string
	cat    catalog
	rec    *preupdate.Recorder
}

// errCapture marks a statement whose changes reached SQLite but could not be turned
// into row events: the open SQLite transaction must not commit.
var errCapture = errors.New("engine: row capture failed")

// start records the next statement's changes.
func (cp *capture) start() { cp.rec.Start() }

// collect appends the statement's changes to evs. Rows merge only into events this
// statement created (from index floor on), so undoing a statement or a savepoint is
// cutting evs back to a length taken between statements.
func (cp *capture) collect(evs *[]binlog.Event) error {
	data, err := cp.rec.Stop()
	if err != nil {
		return fmt.Errorf("%w: %s.%v", errCapture, cp.schema, err)
	}
	floor := len(*evs)
	return preupdate.Decode(data, func(c *preupdate.Change) error {
		if c.DB == "temp" {
			return nil // session-local temporary tables are not logged (as in ROW format)
		}
		t := cp.cat[c.Table]
		if c.DB != "main" || t == nil || (c.Old != nil && len(c.Old) != len(t.Columns)) || (c.New != nil && len(c.New) != len(t.Columns)) {
			return fmt.Errorf("%w: change to %s.%s which is not in the catalog of %s", errCapture, c.DB, c.Table, cp.schema)
		}
		rc := binlog.RowChange{Before: c.Old, After: c.New}
		switch c.Op {
		case preupdate.OpInsert:
			rc.Op = binlog.OpInsert
		case preupdate.OpUpdate:
			rc.Op = binlog.OpUpdate
		case preupdate.OpDelete:
			rc.Op = binlog.OpDelete
		default:
			return fmt.Errorf("%w: unknown operation %d", errCapture, c.Op)
		}
		cur := *evs
		if n := len(cur); n > floor {
			if re, ok := cur[n-1].(*binlog.RowsEvent); ok && re.Table == t.Name {
				re.Rows = append(re.Rows, rc)
				return nil
			}
		}
		*evs = append(cur, &binlog.RowsEvent{Schema: cp.schema, Table: t.Name, Columns: t.names, PK: t.PK, Rows: []binlog.RowChange{rc}})
		return nil
	})
}
