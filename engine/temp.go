package engine

import (
	"fmt"

	"github.com/binlite/binlite/mysqlerr"
)

// Temporary tables (CREATE TEMPORARY TABLE) are one session's own: they live in
// SQLite's temp database of a connection only that session uses, which opens the
// schema's file read-only. Unqualified names find a temporary table before the
// schema's table of the same name, as MySQL's do; nothing written there is
// captured or logged (MySQL does not log temporary tables under
// binlog_format=ROW), and closing the connection drops them, as MySQL does at
// disconnect. The file itself cannot be written through it: a write to one of
// the schema's tables goes through the writer and the binary log.

// TempConn is a session's connection for its temporary tables in one schema.
type TempConn struct {
	c  *sqliteConn
	db string
}

// OpenTemp opens a connection for temporary tables in schema db.
func (e *Engine) OpenTemp(db string) (*TempConn, error) {
	s, err := e.schema(db)
	if err != nil {
		return nil, err
	}
	q := connParams()
	q.Set("mode", "ro") // the temp database stays writable
	c, err := openWith(s.path, q, e.opts.Functions)
	if err != nil {
		return nil, fmt.Errorf("engine: temporary tables of %s: %w", db, err)
	}
	return &TempConn{c: c, db: db}, nil
}

// Exec runs a write or DDL on the temporary tables. ignore marks an IGNORE
// statement (binlite_lenient()).
func (t *TempConn) Exec(sql string, args []any, ignore bool) (Result, error) {
	cs := t.c.state
	cs.ignoring = ignore
	defer func() { cs.ignoring = false }()
	cs.takeWarnings()
	res, err := t.c.exec(sql, args...)
	warnings, lost := cs.takeWarnings()
	cs.takeLastID()
	if err != nil {
		return Result{}, translateError(err, t.db)
	}
	n, _ := res.RowsAffected()
	return Result{AffectedRows: uint64(n), Warnings: warnings, LostWarnings: lost}, nil
}

// ExecAll runs statements all or nothing.
func (t *TempConn) ExecAll(stmts []string) error {
	if _, err := t.c.exec(`SAVEPOINT binlite_temp`); err != nil {
		return fmt.Errorf("engine: temporary table savepoint: %w", err)
	}
	for _, q := range stmts {
		if _, err := t.c.exec(q); err != nil {
			t.c.exec(`ROLLBACK TO binlite_temp`)
			t.c.exec(`RELEASE binlite_temp`)
			return translateError(err, t.db)
		}
	}
	if _, err := t.c.exec(`RELEASE binlite_temp`); err != nil {
		return mysqlerr.New(mysqlerr.ErUnknownError, "temporary table: %v", err)
	}
	return nil
}

// Query runs a read that may name the temporary tables.
func (t *TempConn) Query(sql string, args []any) (*Rows, error) {
	return queryConn(t.c, sql, args, t.db)
}

// Close drops the temporary tables.
func (t *TempConn) Close() error { return t.c.Close() }
