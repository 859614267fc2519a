package session

import (
	"strings"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/engine"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/sqlcompat"
)

// query runs a translated DML statement or query.
// db is the schema the statement runs in: the current one, or the one a write names
// when no database is selected (see resolve). guard (nil: none) runs first, in
// the statement's SQLite transaction (see uint64Guard).
func (s *Session) query(q *sqlcompat.Query, db string, args []any, guard *engine.Guard) (*mysqlproto.Result, error) {
	if len(args) != q.NumParams {
		return nil, mysqlerr.New(mysqlerr.ErWrongArguments, "Incorrect arguments to EXECUTE")
	}
	if len(q.ZeroToNullParams) > 0 {
		args = append([]any(nil), args...)
		for _, i := range q.ZeroToNullParams {
			if i < len(args) && isZero(args[i]) {
				args[i] = nil
			}
		}
	}
	if q.ReadOnly || q.Kind == sqlcompat.Select {
		s.ensureTxn() // with autocommit off a SELECT starts a transaction too
		cur, rows, err := s.openRead(q, args, guard)
		if err != nil {
			if mysqlerr.Is(err, mysqlerr.ErLockDeadlock) && s.txn != nil {
				// A locking read chosen as a deadlock victim: the engine rolled the
				// transaction back, as InnoDB does.
				s.txn.Rollback()
				s.txn = nil
			}
			return nil, err
		}
		if cur != nil {
			return s.readAhead(cur)
		}
		s.afterRead(rows)
		return textResult(rows, s.db), nil
	}
	return s.write(q, db, args, guard)
}

// read runs a query and returns its rows whole.
func (s *Session) read(q *sqlcompat.Query, args []any, guard *engine.Guard) (*engine.Rows, error) {
	cur, rows, err := s.openRead(q, args, guard)
	if err != nil || cur == nil {
		return rows, err
	}
	return cur.All()
}

// openRead starts a query: a cursor on its schema's data, or the rows of a
// query of binlite's virtual tables (information_schema, performance_schema),
// which are built whole anyway.
func (s *Session) openRead(q *sqlcompat.Query, args []any, guard *engine.Guard) (*engine.Cursor, *engine.Rows, error) {
	if s.readsVirtual(q) {
		rows, err := s.readVirtual(q, args)
		return nil, rows, err
	}
	db := s.db
	if isVirtualSchema(db) {
		db = ""
	}
	if db == "" && len(q.Tables) > 0 && len(q.Schemas) == 0 {
		return nil, nil, mysqlerr.New(mysqlerr.ErNoDB, "No database selected")
	}
	var (
		cur  *engine.Cursor
		rows *engine.Rows
		err  error
	)
	switch {
	case s.txn != nil:
		cur, rows, err = s.txn.QueryCursor(db, q.Schemas, q.SQLite, args, guard, q.Tables, q.Locking)
	case s.locks != nil:
		cur, rows, err = s.locks.QueryCursor(db, q.Schemas, q.SQLite, args, guard, nil, false)
	default:
		cur, err = s.env.Engine.QueryCursor(db, q.Schemas, q.SQLite, args, guard)
	}
	return cur, rows, err
}

func (s *Session) write(q *sqlcompat.Query, db string, args []any, guard *engine.Guard) (*mysqlproto.Result, error) {
	if err := s.writable(); err != nil {
		return nil, err
	}
	if len(q.Schemas) > 0 {
		return nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'a write that names another database; USE %s first'", q.Schemas[0])
	}
	if db == "" {
		return nil, mysqlerr.New(mysqlerr.ErNoDB, "No database selected")
	}
	if len(q.Tables) > 0 {
		if err := s.lockRefusal(q.Tables[0]); err != nil {
			return nil, err
		}
	}
	s.ensureTxn()
	if err := s.readOnlyRefusal(); err != nil {
		return nil, err
	}
	if s.txn != nil {
		if err := s.unloggedRefusal("a write inside a transaction"); err != nil {
			return nil, err
		}
	}
	st := s.writeStmt(q, db, args)
	st.Guard = guard
	st.Unlogged = !s.logBin()
	var (
		res engine.Result
		err error
	)
	if s.txn != nil {
		res, err = s.txn.Exec(db, st)
	} else {
		res, err = s.env.Engine.Exec(db, st, s.lockWait())
		if err == nil && res.GTID.Seq != 0 {
			s.env.Stats.Commits.Add(1)
		}
	}
	if err != nil {
		s.rowCount = -1
		if mysqlerr.Is(err, mysqlerr.ErLockDeadlock) && s.txn != nil {
			// The engine rolled the victim back: the session is no longer in a transaction.
			s.txn.Rollback()
			s.txn = nil
		}
		return nil, err
	}
	s.rowCount = int64(res.AffectedRows)
	s.afterWrite(q, res)
	return &mysqlproto.Result{AffectedRows: res.AffectedRows, LastInsertID: res.LastInsertID}, nil
}

// resolve picks the schema a statement runs in. A write that names exactly one
// database while none is selected runs in that database: it is translated again as if
// that database were current, which strips the qualifier SQLite would not understand
// on the schema's own connection.
func (s *Session) resolve(text string, q *sqlcompat.Query) (*sqlcompat.Query, string, error) {
	if q.ReadOnly || q.Kind == sqlcompat.Select || s.db != "" || len(q.Schemas) != 1 || text == "" {
		return q, s.db, nil
	}
	db := q.Schemas[0]
	if !s.env.Engine.HasSchema(db) {
		return nil, "", mysqlerr.New(mysqlerr.ErBadDB, "Unknown database '%s'", db)
	}
	ctx := s.parseCtx()
	ctx.DB = db
	st, err := sqlcompat.Parse(text, ctx)
	if err != nil {
		return nil, "", err
	}
	q2, isQuery := st.(*sqlcompat.Query)
	if !isQuery {
		return q, s.db, nil
	}
	return q2, db, nil
}

func isZero(v any) bool {
	switch x := v.(type) {
	case int64:
		return x == 0
	case uint64:
		return x == 0
	case float64:
		return x == 0
	case string:
		return x == "0"
	case []byte:
		return string(x) == "0"
	}
	return false
}

// ddl runs a table or index definition: it commits an open transaction first, as
// MySQL does, then goes through the schema's writer and the binary log as a Query event.
func (s *Session) ddl(d *sqlcompat.DDL) (*mysqlproto.Result, error) {
	db := d.Schema
	if db == "" {
		return nil, mysqlerr.New(mysqlerr.ErNoDB, "No database selected")
	}
	if !s.env.Engine.HasSchema(db) {
		return nil, mysqlerr.New(mysqlerr.ErBadDB, "Unknown database '%s'", db)
	}
	if !d.Temporary {
		if err := s.lockRefusal(d.Table); err != nil {
			return nil, err
		}
	}
	if d.Temporary || s.temps.any(db) {
		// Temporary tables are the session's own: no implicit commit, no
		// read_only, no binary log.
		res, rest, err := s.tempDDL(db, d)
		if err != nil || rest == nil {
			return res, err
		}
		d = rest
	}
	if err := s.writable(); err != nil {
		return nil, err
	}
	if err := s.implicitCommit(); err != nil {
		return nil, err
	}
	switch d.Op {
	case sqlcompat.CreateView, sqlcompat.DropView, sqlcompat.DropTable, sqlcompat.CreateTrigger, sqlcompat.DropTrigger:
		next, err := s.viewTriggerDDL(db, d)
		if err != nil || next == nil {
			if err != nil {
				return nil, err
			}
			return ok(), nil
		}
		d = next
	}
	if d.Op == sqlcompat.DropTable && !d.IfExists {
		// MySQL drops nothing and names every missing table (1051), where SQLite
		// would stop at the first with "no such table".
		if missing := s.missingTables(db, d.Tables); missing != "" {
			return nil, mysqlerr.New(mysqlerr.ErBadTable, "Unknown table '%s'", missing)
		}
	}
	var insert string
	if d.Select != nil {
		if def, exists := (engineCatalog{s.env.Engine}).Table(db, d.Table); exists || def != nil {
			if !d.IfNotExists {
				return nil, mysqlerr.New(mysqlerr.ErTableExists, "Table '%s' already exists", d.Table)
			}
			s.notes = append(s.notes, mysqlerr.Note(mysqlerr.ErTableExists, "Table '%s' already exists", d.Table))
			return ok(), nil
		}
		made, ins, err := s.createSelect(db, d)
		if err != nil {
			return nil, err
		}
		d, insert = made, ins
	}
	if err := s.zoneDDLGuard(d); err != nil {
		return nil, err
	}
	s.existenceNotes(db, d)
	if len(d.Statements()) == 0 {
		return ok(), nil
	}
	if err := s.dropColumnAllowed(db, d); err != nil {
		return nil, err
	}
	if err := s.foreignKeyDDL(db, d); err != nil {
		return nil, err
	}
	stmts := d.Statements() // with the checks foreignKeyDDL added
	strict := !s.sqlMode().NotStrict
	res, err := s.env.Engine.Exec(db, engine.Stmt{SQL: d.Original, DDL: stmts, Strict: strict, Counted: d.CountedStatement(), Insert: insert, Unlogged: !s.logBin()}, s.lockWait())
	if err != nil {
		return nil, err
	}
	if res.GTID.Seq != 0 {
		s.env.Stats.Commits.Add(1)
	}
	s.executionWarnings(res.Warnings, res.LostWarnings)
	return &mysqlproto.Result{AffectedRows: res.AffectedRows}, nil
}

// dropColumnAllowed refuses ALTER TABLE ... DROP COLUMN on a table whose ON UPDATE
// CURRENT_TIMESTAMP trigger names every column (catalog.Table.OnUpdateTriggers):
// SQLite would refuse it with a message about the trigger.
func (s *Session) dropColumnAllowed(db string, d *sqlcompat.DDL) error {
	if d.Op != sqlcompat.AlterTable {
		return nil
	}
	drops := false
	for _, q := range d.SQLite {
		drops = drops || strings.Contains(q, " DROP COLUMN ")
	}
	if !drops {
		return nil
	}
	rows, err := s.env.Engine.Query(db, nil, `SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = ?`, []any{catalog.OnUpdateTrigger(d.Table)})
	if err == nil && len(rows.Values) > 0 {
		return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'ALTER TABLE ... DROP COLUMN on a table with ON UPDATE CURRENT_TIMESTAMP'")
	}
	return nil
}

// existenceNotes are MySQL's notes for IF [NOT] EXISTS that found what it
// guards against: a table that exists (1050), tables that do not (1051).
func (s *Session) existenceNotes(db string, d *sqlcompat.DDL) {
	exists := func(t string) bool {
		def, ok := engineCatalog{s.env.Engine}.Table(db, t)
		return ok || def != nil
	}
	switch {
	case d.Op == sqlcompat.CreateTable && d.IfNotExists && exists(d.Table):
		s.notes = append(s.notes, mysqlerr.Note(mysqlerr.ErTableExists, "Table '%s' already exists", d.Table))
	case d.Op == sqlcompat.DropTable && d.IfExists:
		if missing := s.missingTables(db, d.Tables); missing != "" {
			s.notes = append(s.notes, mysqlerr.Note(mysqlerr.ErBadTable, "Unknown table '%s'", missing))
		}
	}
}

// missingTables names, as MySQL's 1051 lists them ('db.a,db.b'), the tables of a
// DROP TABLE that do not exist; "" if all do.
func (s *Session) missingTables(db string, tables []string) string {
	var out []string
	for _, t := range tables {
		def, ok := engineCatalog{s.env.Engine}.Table(db, t)
		if !ok && def == nil {
			out = append(out, db+"."+t)
		}
	}
	return strings.Join(out, ",")
}
