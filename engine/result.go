package engine

import (
	"database/sql/driver"
	"io"

	"github.com/binlite/binlite/gtid"
	"github.com/binlite/binlite/mysqlerr"
)

// Stmt is one statement for a schema's writer.
type Stmt struct {
	SQL    string // SQLite text; for DDL the original MySQL text, logged as a Query event
	Args   []any
	Upsert bool     // an INSERT or REPLACE: a row it updates counts twice (ON DUPLICATE KEY UPDATE)
	DDL    []string // non-empty for DDL: the SQLite statements to run, all or nothing
	// AutoInc is set for an INSERT or REPLACE into a table with an AUTO_INCREMENT
	// column: the engine hands out its values (autoinc.go) and reports the insert id.
	AutoInc *AutoInc
	// NoFKChecks runs the statement with foreign_key_checks=0.
	NoFKChecks bool
	// Guard, if set, runs first in the statement's transaction (guard.go).
	Guard *Guard
}

// Result is what a write returns to the session.
type Result struct {
	AffectedRows uint64
	LastInsertID uint64 // the OK packet's insert id (see setInsertID)
	// SetsLastID says the statement changes the session's LAST_INSERT_ID() to
	// LastID: it wrote a row with a generated AUTO_INCREMENT value (the first such),
	// or ran LAST_INSERT_ID(expr).
	SetsLastID bool
	LastID     uint64
	GTID       gtid.GTID // zero when the statement changed nothing
	// Warnings are what the statement warned about while it ran (execwarn.go);
	// LostWarnings counts those beyond the first maxWarnings.
	Warnings     []mysqlerr.Warning
	LostWarnings int
}

// ResultColumn names a result column with SQLite's declared type ("" for expressions).
type ResultColumn struct {
	Name     string
	DeclType string
}

// Rows is a fully read result set. Values are nil, int64, float64, string, []byte,
// bool or time.Time, as the SQLite driver returns them.
type Rows struct {
	Columns []ResultColumn
	Values  [][]any
	// SetsLastID and LastID: the query ran LAST_INSERT_ID(expr) (see Result).
	SetsLastID bool
	LastID     uint64
	// Warnings and LostWarnings: see Result.
	Warnings     []mysqlerr.Warning
	LostWarnings int
}

func queryConn(c *sqliteConn, sql string, args []any, db string) (*Rows, error) {
	c.state.takeWarnings()
	r, err := c.query(sql, args...)
	if err != nil {
		c.state.takeLastID()
		c.state.takeWarnings()
		return nil, translateError(err, db)
	}
	defer r.Close()
	names := r.Columns()
	out := &Rows{Columns: make([]ResultColumn, len(names))}
	typer, _ := r.(driver.RowsColumnTypeDatabaseTypeName)
	for i, n := range names {
		out.Columns[i].Name = n
		if typer != nil {
			out.Columns[i].DeclType = typer.ColumnTypeDatabaseTypeName(i)
		}
	}
	for {
		dest := make([]driver.Value, len(names))
		if err := r.Next(dest); err != nil {
			if err == io.EOF {
				break
			}
			c.state.takeLastID()
			c.state.takeWarnings()
			return nil, translateError(err, db)
		}
		row := make([]any, len(dest))
		for i, v := range dest {
			row[i] = v
		}
		out.Values = append(out.Values, row)
	}
	out.LastID, out.SetsLastID = c.state.takeLastID()
	out.Warnings, out.LostWarnings = c.state.takeWarnings()
	return out, nil
}
