package session

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/compiler"
	"github.com/binlite/binlite/engine"
	"github.com/binlite/binlite/infoschema"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlcompat"
	"github.com/binlite/binlite/sysvar"
)

// information_schema and performance_schema (package infoschema): the compiler
// resolves their tables' names and types like any table's; a statement that
// names them runs on an in-memory SQLite database holding just the tables it
// names, filled from the node's state for that statement.

// virtualSchemas are the node's virtual schema definitions, built on first use.
func (e *Env) virtualSchemas() (*infoschema.Schemas, error) {
	e.virtualOnce.Do(func() {
		e.virtual, e.virtualErr = infoschema.New()
		if e.virtualErr != nil {
			e.virtualErr = fmt.Errorf("session: virtual schemas: %w", e.virtualErr)
		}
	})
	return e.virtual, e.virtualErr
}

func isVirtualSchema(db string) bool { return infoschema.IsVirtual(db) }

// virtualCatalog finds the virtual schemas' tables, and the node's tables in
// cat.
type virtualCatalog struct {
	compiler.Catalog
	v *infoschema.Schemas
}

func (c virtualCatalog) Table(schema, name string) (*catalog.Table, bool) {
	if infoschema.IsVirtual(schema) {
		if c.v == nil {
			return nil, false
		}
		def := c.v.Table(schema, name)
		return def, def != nil
	}
	return c.Catalog.Table(schema, name)
}

// withVirtual is cat with the virtual schemas' tables.
func (s *Session) withVirtual(cat compiler.Catalog) compiler.Catalog {
	v, _ := s.env.virtualSchemas()
	return virtualCatalog{cat, v}
}

// readsVirtual reports whether a query names information_schema or
// performance_schema tables (or runs in one of them).
func (s *Session) readsVirtual(q *sqlcompat.Query) bool {
	return slices.ContainsFunc(q.Schemas, infoschema.IsVirtual) || (isVirtualSchema(s.db) && len(q.Tables) > 0)
}

// readVirtual runs a query that names virtual tables: the tables it names are
// built and attached with the other schemas it reads, the current one first.
func (s *Session) readVirtual(q *sqlcompat.Query, args []any) (*engine.Rows, error) {
	v, err := s.env.virtualSchemas()
	if err != nil {
		return nil, err
	}
	var order []string
	add := func(db string) {
		if c := infoschema.Canonical(db); c != "" {
			db = c
		}
		if db != "" && !slices.Contains(order, db) {
			order = append(order, db)
		}
	}
	add(s.db)
	for _, db := range q.Schemas {
		add(db)
	}
	src := s.virtualSource()
	var tables []engine.VirtualTable
	for _, db := range order {
		if !isVirtualSchema(db) {
			if !s.env.Engine.HasSchema(db) {
				return nil, mysqlerr.New(mysqlerr.ErBadDB, "Unknown database '%s'", db)
			}
			continue
		}
		seen := map[string]bool{}
		missing := ""
		for _, name := range q.Tables {
			def := v.Table(db, name)
			if def == nil && missing == "" && !s.realTable(order, name) {
				missing = name
			}
			if def == nil || seen[def.Name] {
				continue
			}
			seen[def.Name] = true
			cols := make([]string, len(def.Columns))
			for i, c := range def.Columns {
				cols[i] = c.Name
			}
			tables = append(tables, engine.VirtualTable{Schema: db, Name: def.Name, Columns: cols,
				Decls: infoschema.SQLiteColumns(def), Rows: v.Rows(db, def.Name, src)})
		}
		if len(seen) == 0 && missing != "" {
			// The statement names a table neither schema has.
			return nil, mysqlerr.New(mysqlerr.ErNoSuchTable, "Table '%s.%s' doesn't exist", db, missing)
		}
	}
	// A virtual schema the statement reads nothing of is not attached.
	order = slices.DeleteFunc(order, func(db string) bool {
		return isVirtualSchema(db) && !slices.ContainsFunc(tables, func(t engine.VirtualTable) bool { return t.Schema == db })
	})
	return s.env.Engine.QueryVirtual(tables, order, q.SQLite, args)
}

// virtualSource is the node's state as the virtual tables read it; what a
// statement reads is gathered once for it.
func (s *Session) virtualSource() *infoschema.Source {
	var schemas []infoschema.Schema
	return &infoschema.Source{
		Schemas: func() []infoschema.Schema {
			if schemas == nil {
				schemas = s.schemaSnapshot()
			}
			return schemas
		},
		Processes:        s.processSnapshot,
		Variables:        s.variableRows,
		Status:           s.statusPairs,
		Channels:         s.channelSnapshot,
		Workers:          s.workerSnapshot,
		Started:          s.env.Started,
		DefaultCollation: s.env.Vars.String("collation_server"),
	}
}

// schemaSnapshot lists every schema's tables with their definitions and
// AUTO_INCREMENT counters.
func (s *Session) schemaSnapshot() []infoschema.Schema {
	out := []infoschema.Schema{}
	g := s.grants()
	for _, name := range s.env.Engine.Schemas() {
		if !s.canSeeSchema(g, name) {
			continue
		}
		sc, err := s.env.Engine.Schema(name)
		if err != nil {
			continue
		}
		names := sc.Tables()
		slices.Sort(names)
		var counters map[string]uint64
		schema := infoschema.Schema{Name: name}
		for _, n := range names {
			t := sc.Table(n)
			if t == nil || !s.canSeeTable(g, name, n) {
				continue
			}
			it := infoschema.Table{Name: n, Def: t.Def}
			if t.Def != nil && slices.ContainsFunc(t.Def.Columns, func(c catalog.Column) bool { return c.AutoIncrement }) {
				if counters == nil {
					counters = s.autoIncCounters(name)
				}
				it.NextAutoIncrement = counters[strings.ToLower(n)] + 1
			}
			schema.Tables = append(schema.Tables, it)
		}
		out = append(out, schema)
	}
	return out
}

// autoIncCounters are a schema's AUTO_INCREMENT counters (the last value given)
// by lower-case table name.
func (s *Session) autoIncCounters(db string) map[string]uint64 {
	out := map[string]uint64{}
	r, err := s.env.Engine.Query(db, nil, `SELECT name, seq FROM sqlite_sequence`, nil)
	if err != nil {
		return out
	}
	for _, row := range r.Values {
		if n, ok := row[1].(int64); ok && n >= 0 {
			out[strings.ToLower(fmtValue(row[0]))] = uint64(n)
		}
	}
	return out
}

func (s *Session) processSnapshot() []infoschema.Process {
	var out []infoschema.Process
	for _, p := range s.env.List.Snapshot() {
		if !s.seesProcess(p) {
			continue
		}
		out = append(out, infoschema.Process{ID: uint64(p.ID), User: p.User, Host: p.Host, DB: p.DB, Command: p.Command,
			Time: int64(time.Since(p.Since).Seconds()), State: p.State, Info: p.Info})
	}
	return out
}

// variableRows are the variables as SHOW [GLOBAL] VARIABLES lists them.
func (s *Session) variableRows(global bool) [][2]string {
	var out [][2]string
	for _, n := range s.env.Vars.Names() {
		d, _ := s.env.Vars.Lookup(n)
		if global && d.Scope&sysvar.Global == 0 {
			continue
		}
		v, err := s.vars.Get(n, global)
		if err != nil {
			continue
		}
		out = append(out, [2]string{n, d.Display(v)})
	}
	return out
}

func (s *Session) statusPairs() [][2]string {
	rows := s.statusRows()
	out := make([][2]string, len(rows))
	for i, r := range rows {
		out[i] = [2]string{fmtValue(r[0]), fmtValue(r[1])}
	}
	return out
}

// realTable reports whether one of the schema files among dbs has a table name.
func (s *Session) realTable(dbs []string, name string) bool {
	for _, db := range dbs {
		if isVirtualSchema(db) {
			continue
		}
		if _, ok := (engineCatalog{s.env.Engine}).Table(db, name); ok {
			return true
		}
	}
	return false
}
