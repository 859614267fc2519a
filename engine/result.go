package engine

import (
	"database/sql/driver"

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
	// Then are further SQLite statements of the same MySQL statement, run after
	// SQL with the same arguments: all of them or none take effect (a multi-table
	// UPDATE or DELETE writes each table with its own statement).
	Then []string
	// EachRow, when set, is a query giving rowids in the order MySQL writes the
	// rows: SQL then runs once per rowid, bound as one more argument after Args
	// (UPDATE ... ORDER BY checks each row's unique keys in that order).
	EachRow string
	// RowsApart: SQL and Then each write one row of an INSERT IGNORE; a row a
	// CHECK constraint or a foreign key refuses is left out with MySQL's warning
	// (3819, 1452) and the others are written.
	RowsApart bool
	// Strict runs DDL under strict sql_mode: the first value an ALTER TABLE's
	// copy cannot keep as it is fails it (rebuild.go).
	Strict bool
	// Counted is 1 + the index in DDL of the statement whose changed rows are the
	// DDL's affected rows (the rows an ALTER TABLE copies); 0: none.
	Counted int
	// Insert is CREATE TABLE ... SELECT's INSERT ... SELECT, run after DDL in the
	// same transaction: its rows are logged as row events after the DDL's Query
	// event (as MySQL 8.4 logs the statement atomically under binlog_format=ROW),
	// and they are the affected rows.
	Insert string
	// Guard, if set, runs first in the statement's transaction (guard.go).
	Guard *Guard
	// Unlogged: sql_log_bin=0. The statement commits alone, synced by SQLite, with
	// no binary-log event and no GTID (unlogged.go).
	Unlogged bool
	// What the row locks of concurrent transactions need (rowlocks.go): the
	// tables the statement names, the written one first; Values: an INSERT or
	// REPLACE of a VALUES list, which reads no rows but those it writes; Point:
	// an UPDATE or DELETE of the one row whose integer primary key is Key.
	Tables []string
	Values bool
	Point  bool
	Key    []int64
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
	// Counted is how many rows the statement's binlite_counted() met and Written
	// how many of them SQLite wrote: an IGNORE statement left out the others.
	Counted, Written uint64
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

// storedTemporalText has the SQLite driver return DATE, DATETIME and TIMESTAMP
// columns as the text they store instead of reading it into a time.Time: it
// reads a zero date ('0000-00-00', '2024-00-15') as 0001-01-01, the same as a
// stored 0001-01-01. The driver decides by the column types DeclTypes returns,
// which are the slice Next reads (go-sqlite3 v1.14.53, pinned in go.mod).
func storedTemporalText(r driver.Rows) {
	d, ok := r.(interface{ DeclTypes() []string })
	if !ok {
		return
	}
	types := d.DeclTypes()
	for i, t := range types {
		switch t {
		case "date", "datetime", "timestamp":
			types[i] = "text"
		}
	}
}

func queryConn(c *sqliteConn, sql string, args []any, db string) (*Rows, error) {
	cur, err := openCursor(c, sql, args, db, nil)
	if err != nil {
		return nil, err
	}
	return cur.All()
}
