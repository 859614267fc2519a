package engine

import (
	"fmt"
	"strings"

	"github.com/binlite/binlite/u64"
)

// Guard keeps a statement that SQLite would run without the compiler's rules for
// BIGINT UNSIGNED (see session's uint64Guard) from computing with the stored
// form of a value from 2^63 (package u64): it runs in the statement's own SQLite
// transaction, just before it, and fails it with Err when a column the statement
// computes with holds such a value. Run there, no write can come between the
// check and the statement.
type Guard struct {
	Tables []GuardTable
	Err    error
}

// GuardTable is one table a guarded statement reads.
type GuardTable struct {
	Schema string   // "" for the statement's own
	Table  string   // as the schema's catalog names it
	Wide   []string // every column that may hold the stored form
	Read   []string // those the statement computes with
}

// check runs g on c (a connection of schema db, holding the statement's
// snapshot or write transaction). A table known to hold no such value (its
// wideState) is not scanned; one found to hold none is remembered so.
func (g *Guard) check(e *Engine, c *sqliteConn, db string) error {
	if g == nil {
		return nil
	}
	for _, gt := range g.Tables {
		schema := gt.Schema
		if schema == "" {
			schema = db
		}
		var t *Table
		if sc, err := e.schema(schema); err == nil {
			t = sc.Table(gt.Table)
		}
		if t != nil && t.wide.none() {
			continue
		}
		name := quoteIdent(gt.Table)
		if gt.Schema != "" && gt.Schema != db {
			name = quoteIdent(gt.Schema) + "." + name
		}
		found, err := holdsWide(c, db, name, gt.Wide)
		if err != nil {
			return err
		}
		if !found {
			if t != nil {
				t.wide.scanned.Store(true)
			}
			continue
		}
		if found, err = holdsWide(c, db, name, gt.Read); err != nil || found {
			if err == nil {
				err = g.Err
			}
			return err
		}
	}
	return nil
}

// holdsWide reports whether a row of table holds the stored form of 2^63 or more
// in one of cols.
func holdsWide(c *sqliteConn, db, table string, cols []string) (bool, error) {
	if len(cols) == 0 {
		return false, nil
	}
	conds := make([]string, len(cols))
	for i, col := range cols {
		conds[i] = quoteIdent(col) + " >= " + u64.MinWide
	}
	rows, err := queryConn(c, "SELECT 1 FROM "+table+" WHERE "+strings.Join(conds, " OR ")+" LIMIT 1", nil, db)
	if err != nil {
		return false, err
	}
	return len(rows.Values) > 0, nil
}

// guardedCursor runs g and starts the query in one read transaction of c, its
// snapshot taken before g looks at what the tables are known to hold (see
// wideState); the transaction ends with the cursor, or here when the query
// fails to start.
func (e *Engine) guardedCursor(c *sqliteConn, g *Guard, sql string, args []any, db string) (*Cursor, error) {
	if g == nil {
		return openCursor(c, sql, args, db, nil)
	}
	if _, err := c.exec("BEGIN"); err != nil {
		return nil, fmt.Errorf("engine: begin a guarded read: %w", err)
	}
	end := func() error {
		if _, err := c.exec("ROLLBACK"); err != nil && !c.AutoCommit() {
			return fmt.Errorf("engine: end a guarded read: %w", err)
		}
		return nil
	}
	if _, err := queryConn(c, "SELECT count(*) FROM sqlite_master", nil, db); err != nil {
		end()
		return nil, err // the snapshot
	}
	if err := g.check(e, c, db); err != nil {
		end()
		return nil, err
	}
	return openCursor(c, sql, args, db, end)
}
