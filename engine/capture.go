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

// changeCounts are what a statement changed, as MySQL counts affected rows.
type changeCounts struct {
	inserted, deleted int
	changed           int  // updated rows whose values changed
	logged            bool // some change was to a logged table (not temporary)
	// lastOwn is the after image of the statement's own last insert or change
	// (not a trigger's or a foreign key action's), a row of lastTable.
	lastOwn   []binlog.Value
	lastTable string
}

// affected is MySQL's affected-rows count: rows inserted and deleted, plus rows
// an UPDATE changed (an update with no change does not count), each counted twice
// when an INSERT ... ON DUPLICATE KEY UPDATE did it.
func (cc changeCounts) affected(upsert bool) uint64 {
	per := 1
	if upsert {
		per = 2
	}
	return uint64(cc.inserted + cc.deleted + per*cc.changed)
}

// collect appends the statement's changes to evs. Rows merge only into events this
// statement created (from index floor on), so undoing a statement or a savepoint is
// cutting evs back to a length taken between statements.
//
// An update that changes no value is not logged (MySQL logs none either, and an
// UPDATE that changes nothing then takes no GTID). A trigger's update of the row
// the previous change left (ON UPDATE CURRENT_TIMESTAMP) is folded into that
// change: one row change.
func (cp *capture) collect(evs *[]binlog.Event) (changeCounts, error) {
	var cc changeCounts
	data, err := cp.rec.Stop()
	if err != nil {
		return cc, fmt.Errorf("%w: %s.%v", errCapture, cp.schema, err)
	}
	floor := len(*evs)
	err = preupdate.Decode(data, func(c *preupdate.Change) error {
		if c.DB == "temp" {
			return nil // session-local temporary tables are not logged (as in ROW format)
		}
		cc.logged = true
		t := cp.cat[c.Table]
		if c.DB != "main" || t == nil || (c.Old != nil && len(c.Old) != len(t.Columns)) || (c.New != nil && len(c.New) != len(t.Columns)) {
			return fmt.Errorf("%w: change to %s.%s which is not in the catalog of %s", errCapture, c.DB, c.Table, cp.schema)
		}
		t.wide.note(c.New)
		rc := binlog.RowChange{Before: t.logImage(c.Old), After: t.logImage(c.New)}
		// MySQL counts the statement's own rows, not what triggers or foreign key
		// actions changed.
		own := 0
		if c.Depth == 0 {
			own = 1
		}
		switch c.Op {
		case preupdate.OpInsert:
			rc.Op = binlog.OpInsert
			cc.inserted += own
		case preupdate.OpUpdate:
			rc.Op = binlog.OpUpdate
			if binlog.ImagesEqual(rc.Before, rc.After) {
				return nil
			}
			if c.Depth > 0 {
				if last := lastChange(*evs, floor, t.Name); last != nil && last.Op == binlog.OpUpdate && binlog.ImagesEqual(last.After, rc.Before) {
					last.After = rc.After
					return nil
				}
			}
			cc.changed += own
		case preupdate.OpDelete:
			rc.Op = binlog.OpDelete
			cc.deleted += own
		default:
			return fmt.Errorf("%w: unknown operation %d", errCapture, c.Op)
		}
		if own == 1 && c.New != nil {
			cc.lastOwn, cc.lastTable = c.New, t.Name
		}
		cur := *evs
		if n := len(cur); n > floor {
			if re, ok := cur[n-1].(*binlog.RowsEvent); ok && re.Table == t.Name {
				re.Rows = append(re.Rows, rc)
				return nil
			}
		}
		*evs = append(cur, &binlog.RowsEvent{Schema: cp.schema, Table: t.Name, Columns: t.names, PK: t.logPK, Rows: []binlog.RowChange{rc}})
		return nil
	})
	return cc, err
}

// lastChange is the last row change of this statement (events from floor on) if
// it is to table.
func lastChange(evs []binlog.Event, floor int, table string) *binlog.RowChange {
	if n := len(evs); n > floor {
		if re, ok := evs[n-1].(*binlog.RowsEvent); ok && re.Table == table && len(re.Rows) > 0 {
			return &re.Rows[len(re.Rows)-1]
		}
	}
	return nil
}

// logImage is the part of a row image a rows event carries: without the generated
// columns (see Table.logged).
func (t *Table) logImage(img []binlog.Value) []binlog.Value {
	if t.logged == nil || img == nil {
		return img
	}
	out := make([]binlog.Value, len(t.logged))
	for j, i := range t.logged {
		out[j] = img[i]
	}
	return out
}
