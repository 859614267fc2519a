package engine

import (
	"database/sql/driver"
	"io"

	"github.com/binlite/binlite/mysqlerr"
)

// Cursor reads a query's rows one at a time from its SQLite statement, so that a
// result set can go to its client as it is read instead of being held whole. It
// keeps its connection (and that connection's read transaction) until it ends:
// Next returned the last row's end or an error, or Close was called. A Cursor is
// used by one goroutine.
type Cursor struct {
	Columns []ResultColumn
	// SetsLastID, LastID, Warnings and LostWarnings are set once the cursor has
	// read its last row (see Rows).
	SetsLastID   bool
	LastID       uint64
	Warnings     []mysqlerr.Warning
	LostWarnings int

	c    *sqliteConn
	r    driver.Rows
	dest []driver.Value
	db   string
	// release ends what the read began on the connection (a guarded read's
	// transaction), nil: nothing. Its error is the read's.
	release func() error
	// pool and rc: the pooled connection the cursor gives back when it ends
	// (nil: the caller keeps the connection); held: taken out of the pool's count.
	pool *readPool
	rc   *readConn
	held bool
	done bool
}

// openCursor starts sql on c. release (nil: none) runs when the cursor ends,
// and also when the query fails to start.
func openCursor(c *sqliteConn, sql string, args []any, db string, release func() error) (*Cursor, error) {
	c.state.takeWarnings()
	r, err := c.query(sql, args...)
	if err != nil {
		c.state.takeLastID()
		c.state.takeWarnings()
		if release != nil {
			release()
		}
		return nil, translateError(err, db)
	}
	names := r.Columns()
	cur := &Cursor{Columns: make([]ResultColumn, len(names)), c: c, r: r, db: db, release: release,
		dest: make([]driver.Value, len(names))}
	typer, _ := r.(driver.RowsColumnTypeDatabaseTypeName)
	for i, n := range names {
		cur.Columns[i].Name = n
		if typer != nil {
			cur.Columns[i].DeclType = typer.ColumnTypeDatabaseTypeName(i)
		}
	}
	storedTemporalText(r)
	return cur, nil
}

// Next reads the next row into row (a new slice when row does not have one
// value per column) and returns it; the driver's values are copied out, so the
// row stays the caller's. At the end it returns nil, having ended the cursor;
// an error also ends it.
func (cur *Cursor) Next(row []any) ([]any, error) {
	if cur.done {
		return nil, nil
	}
	if err := cur.r.Next(cur.dest); err != nil {
		if err == io.EOF {
			return nil, cur.end(nil)
		}
		return nil, cur.end(translateError(err, cur.db))
	}
	if len(row) != len(cur.dest) {
		row = make([]any, len(cur.dest))
	}
	for i, v := range cur.dest {
		row[i] = v
	}
	return row, nil
}

// Hold tells the cursor that it will live as long as its client takes to read
// the rows: a pooled connection stops counting against its pool, so that clients
// that read slowly (or not at all) do not keep other sessions' reads waiting for
// a connection. The connection goes back to the pool when the cursor ends if the
// pool has room, else it is closed.
func (cur *Cursor) Hold() {
	if cur.done || cur.held || cur.pool == nil {
		return
	}
	cur.held = true
	cur.pool.detach()
}

// Close ends the cursor early (the client is gone, or does not want the rest);
// it is a no-op once the cursor has ended. The statement's warnings are dropped.
func (cur *Cursor) Close() error {
	if cur.done {
		return nil
	}
	return cur.end(nil)
}

// end closes the statement, takes what its functions left on the connection and
// gives the connection back.
func (cur *Cursor) end(err error) error {
	cur.done = true
	if cerr := cur.r.Close(); cerr != nil && err == nil {
		err = translateError(cerr, cur.db)
	}
	if err != nil {
		cur.c.state.takeLastID()
		cur.c.state.takeWarnings()
	} else {
		cur.LastID, cur.SetsLastID = cur.c.state.takeLastID()
		cur.Warnings, cur.LostWarnings = cur.c.state.takeWarnings()
	}
	if cur.release != nil {
		if rerr := cur.release(); rerr != nil && err == nil {
			err = rerr
		}
	}
	switch {
	case cur.pool == nil:
	case cur.held:
		cur.pool.putDetached(cur.rc)
	default:
		cur.pool.putReader(cur.rc)
	}
	cur.c, cur.r, cur.dest, cur.rc = nil, nil, nil, nil
	return err
}

// All reads the rest of the cursor into a Rows.
func (cur *Cursor) All() (*Rows, error) {
	out := &Rows{Columns: cur.Columns}
	for {
		row, err := cur.Next(nil)
		if err != nil {
			return nil, err
		}
		if row == nil {
			break
		}
		out.Values = append(out.Values, row)
	}
	out.SetsLastID, out.LastID = cur.SetsLastID, cur.LastID
	out.Warnings, out.LostWarnings = cur.Warnings, cur.LostWarnings
	return out, nil
}
