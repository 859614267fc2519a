package engine

import (
	"database/sql/driver"
	"io"

	"github.com/binlite/binlite/gtid"
)

// Stmt is one statement for a schema's writer.
type Stmt struct {
	SQL    string // SQLite text; for DDL the original MySQL text, logged as a Query event
	Args   []any
	Insert bool     // report the generated id as LastInsertID
	Upsert bool     // an INSERT or REPLACE: a row it updates counts twice (ON DUPLICATE KEY UPDATE)
	DDL    []string // non-empty for DDL: the SQLite statements to run, all or nothing
}

// Result is what a write returns to the session.
type Result struct {
	AffectedRows uint64
	LastInsertID uint64
	GTID         gtid.GTID // zero when the statement changed nothing
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
}

func queryConn(c *sqliteConn, sql string, args []any, db string) (*Rows, error) {
	r, err := c.query(sql, args...)
	if err != nil {
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
			return nil, translateError(err, db)
		}
		row := make([]any, len(dest))
		for i, v := range dest {
			row[i] = v
		}
		out.Values = append(out.Values, row)
	}
	return out, nil
}
