package session

import (
	"strings"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/compiler"
	"github.com/binlite/binlite/engine"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/sqlcompat"
)

// A session's temporary tables (CREATE TEMPORARY TABLE) live on its own
// connection to each schema (engine.TempConn): only the session sees them, a
// name finds the temporary table before the schema's table of that name, nothing
// about them reaches the binary log (MySQL 8.4 logs no temporary table under
// binlog_format=ROW), and they go when the session ends. A statement that names
// one runs on that connection; its definition (the catalog's, kept by the
// session) is what the compiler and the text translation read for the name.
//
// Limits, refused with 1235 rather than answered differently: a write to a
// schema table that reads a temporary one (the writer cannot see it), a write to
// a temporary table inside a transaction (it would not roll back with it), ALTER
// TABLE, RENAME, CREATE ... LIKE/SELECT and foreign keys on temporary tables.

// tempTables are a session's temporary tables.
type tempTables struct {
	conns map[string]*engine.TempConn          // by schema
	defs  map[string]map[string]*catalog.Table // schema → lower-case name → definition
}

// def is the session's temporary table db.name, or nil.
func (tt *tempTables) def(db, name string) *catalog.Table {
	return tt.defs[db][strings.ToLower(name)]
}

// any reports whether the session has a temporary table in db.
func (tt *tempTables) any(db string) bool { return len(tt.defs[db]) > 0 }

// dropSchema forgets the temporary tables of a dropped schema.
func (tt *tempTables) dropSchema(db string) {
	if c := tt.conns[db]; c != nil {
		c.Close()
	}
	delete(tt.conns, db)
	delete(tt.defs, db)
}

// close drops every temporary table.
func (tt *tempTables) close() {
	for _, c := range tt.conns {
		c.Close()
	}
	tt.conns, tt.defs = nil, nil
}

// tempConn is the session's connection for temporary tables in db.
func (s *Session) tempConn(db string) (*engine.TempConn, error) {
	if c := s.temps.conns[db]; c != nil {
		return c, nil
	}
	c, err := s.env.Engine.OpenTemp(db)
	if err != nil {
		return nil, err
	}
	if s.temps.conns == nil {
		s.temps.conns = map[string]*engine.TempConn{}
		s.temps.defs = map[string]map[string]*catalog.Table{}
	}
	s.temps.conns[db] = c
	return c, nil
}

// tempDDL runs DDL that concerns the session's temporary tables: CREATE and DROP
// TEMPORARY TABLE, DROP TABLE of a temporary table (MySQL drops it rather than
// the schema's table), TRUNCATE. handled=false leaves the DDL to the schema; d
// may come back smaller (a DROP TABLE's schema tables).
func (s *Session) tempDDL(db string, d *sqlcompat.DDL) (res *mysqlproto.Result, rest *sqlcompat.DDL, err error) {
	switch {
	case d.Op == sqlcompat.CreateTable && d.Temporary:
		if s.temps.def(db, d.Table) != nil {
			if d.IfNotExists {
				s.notes = append(s.notes, mysqlerr.Note(mysqlerr.ErTableExists, "Table '%s' already exists", d.Table))
				return ok(), nil, nil
			}
			return nil, nil, mysqlerr.New(mysqlerr.ErTableExists, "Table '%s' already exists", d.Table)
		}
		if d.Def == nil {
			return nil, nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'this TEMPORARY table definition'")
		}
		c, err := s.tempConn(db)
		if err != nil {
			return nil, nil, err
		}
		if err := c.ExecAll(d.Statements()); err != nil {
			return nil, nil, err
		}
		if s.temps.defs[db] == nil {
			s.temps.defs[db] = map[string]*catalog.Table{}
		}
		s.temps.defs[db][strings.ToLower(d.Table)] = d.Def
		return ok(), nil, nil
	case d.Op == sqlcompat.DropTable:
		var temps, others []string
		for _, t := range d.Tables {
			if s.temps.def(db, t) != nil {
				temps = append(temps, t)
			} else {
				others = append(others, t)
			}
		}
		if d.Temporary && len(others) > 0 {
			var missing []string
			for _, t := range others {
				missing = append(missing, db+"."+t)
			}
			if !d.IfExists {
				return nil, nil, mysqlerr.New(mysqlerr.ErBadTable, "Unknown table '%s'", strings.Join(missing, ","))
			}
			s.notes = append(s.notes, mysqlerr.Note(mysqlerr.ErBadTable, "Unknown table '%s'", strings.Join(missing, ",")))
			others = nil
		}
		if len(temps) > 0 {
			c, err := s.tempConn(db)
			if err != nil {
				return nil, nil, err
			}
			for _, t := range temps {
				if _, err := c.Exec("DROP TABLE temp."+quoteSQLite(t), nil, false); err != nil {
					return nil, nil, err
				}
				delete(s.temps.defs[db], strings.ToLower(t))
			}
		}
		if len(others) == 0 {
			return ok(), nil, nil
		}
		if len(temps) == 0 {
			return nil, d, nil
		}
		// The schema's tables of the statement: MySQL logs them as DROP TABLE.
		text := "DROP TABLE "
		if d.IfExists {
			text += "IF EXISTS "
		}
		var names []string
		for _, t := range others {
			names = append(names, quoteName(t))
		}
		st, err := sqlcompat.Parse(text+strings.Join(names, ", "), s.ctxFor(db))
		if err != nil {
			return nil, nil, err
		}
		return nil, st.(*sqlcompat.DDL), nil
	case d.Temporary:
		return nil, nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'this statement on TEMPORARY tables'")
	}
	if s.temps.def(db, d.Table) == nil {
		return nil, d, nil
	}
	if d.Op == sqlcompat.TruncateTable {
		c, err := s.tempConn(db)
		if err != nil {
			return nil, nil, err
		}
		if _, err := c.Exec("DELETE FROM temp."+quoteSQLite(d.Table), nil, false); err != nil {
			return nil, nil, err
		}
		return ok(), nil, nil
	}
	return nil, nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'this statement on a TEMPORARY table'")
}

// namesTemp reports whether q names one of the session's temporary tables of db.
func (s *Session) namesTemp(q *sqlcompat.Query, db string) bool {
	if !s.temps.any(db) || len(q.Schemas) > 0 {
		return false
	}
	for _, t := range q.Tables {
		if s.temps.def(db, t) != nil {
			return true
		}
	}
	return false
}

// tempQuery runs a statement that names a temporary table on the session's
// connection for them.
func (s *Session) tempQuery(text string, q *sqlcompat.Query, db string, args []any) (*mysqlproto.Result, error) {
	c, err := s.tempConn(db)
	if err != nil {
		return nil, err
	}
	if len(args) != q.NumParams {
		return nil, mysqlerr.New(mysqlerr.ErWrongArguments, "Incorrect arguments to EXECUTE")
	}
	if q.ReadOnly || q.Kind == sqlcompat.Select {
		rows, err := c.Query(q.SQLite, args)
		if err != nil {
			return nil, err
		}
		s.afterRead(rows)
		res := textResult(rows, db)
		s.typeTempResult(text, db, res)
		return res, nil
	}
	if len(q.Tables) == 0 || s.temps.def(db, q.Tables[0]) == nil {
		return nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'a write to a table that reads a TEMPORARY table'")
	}
	if s.txn != nil || s.vars.Int("autocommit") == 0 {
		return nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'a write to a TEMPORARY table inside a transaction'")
	}
	head := strings.ToUpper(strings.TrimSpace(q.SQLite))
	ignore := strings.HasPrefix(head, "INSERT OR IGNORE") || strings.HasPrefix(head, "UPDATE OR IGNORE")
	res, err := c.Exec(q.SQLite, args, ignore)
	if err != nil {
		s.rowCount = -1
		return nil, err
	}
	s.rowCount = int64(res.AffectedRows)
	s.executionWarnings(res.Warnings, res.LostWarnings)
	return &mysqlproto.Result{AffectedRows: res.AffectedRows}, nil
}

// typeTempResult gives a query's result columns the compiler's types, worked
// out with the temporary tables' definitions (as typeResult does with the
// schema's).
func (s *Session) typeTempResult(text, db string, res *mysqlproto.Result) {
	if s.env.Plans == nil || res.Columns == nil {
		return
	}
	plan := s.env.Plans.Query(text, db, s.tablesCatalog(db))
	if len(plan.Columns) != len(res.Columns) {
		return
	}
	for i, ct := range plan.Columns {
		if !ct.Known() || !conforms(ct, res.Rows, i) {
			continue
		}
		col := &res.Columns[i]
		col.Type, col.Flags, col.Length, col.Decimals, col.Charset = ct.Type, ct.Flags, ct.Length, ct.Decimals, ct.Charset
		for _, r := range res.Rows {
			if r[i] != nil {
				r[i] = declaredValue(ct, r[i])
			}
		}
	}
}

// tempCatalog is the schema's catalog with the session's temporary tables of
// one schema in front, for the compiler.
type tempCatalog struct {
	engineCatalog
	db    string
	temps *tempTables
}

func (c tempCatalog) Table(schema, name string) (*catalog.Table, bool) {
	if strings.EqualFold(schema, c.db) {
		if def := c.temps.def(c.db, name); def != nil {
			return def, true
		}
	}
	return c.engineCatalog.Table(schema, name)
}

// tablesCatalog is what the compiler reads table definitions from in db: the
// schema's catalog, with the session's temporary tables in front.
func (s *Session) tablesCatalog(db string) compiler.Catalog {
	if !s.temps.any(db) {
		return engineCatalog{s.env.Engine}
	}
	return tempCatalog{engineCatalog{s.env.Engine}, db, &s.temps}
}

// quoteSQLite quotes an SQLite identifier.
func quoteSQLite(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// withTemps makes ctx find the session's temporary tables before the schema's.
func (s *Session) withTemps(ctx *sqlcompat.Context) {
	tableDef, autoInc, cols, exists := ctx.TableDef, ctx.AutoInc, ctx.Columns, ctx.TableExists
	ctx.TableDef = func(schema, table string) *catalog.Table {
		if def := s.temps.def(schema, table); def != nil {
			return def
		}
		return tableDef(schema, table)
	}
	ctx.AutoInc = func(schema, table string) (string, bool) {
		if def := s.temps.def(schema, table); def != nil {
			for _, c := range def.Columns {
				if c.AutoIncrement {
					return c.Name, true
				}
			}
			return "", false
		}
		return autoInc(schema, table)
	}
	ctx.Columns = func(schema, table string) []string {
		if def := s.temps.def(schema, table); def != nil {
			names := make([]string, len(def.Columns))
			for i, c := range def.Columns {
				names[i] = c.Name
			}
			return names
		}
		return cols(schema, table)
	}
	ctx.TableExists = func(schema, table string) bool {
		return s.temps.def(schema, table) != nil || exists(schema, table)
	}
}
