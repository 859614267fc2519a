package engine

import (
	"fmt"
	"slices"
	"strings"
)

// VirtualTable is a table materialised for one query: binlite's information_schema
// and performance_schema tables are built from live state and queried with
// SQLite's full SELECT.
type VirtualTable struct {
	Schema, Name string
	Columns      []string
	// Decls are the columns' SQLite declarations (storage type and collation),
	// in Columns' order; nil leaves the columns untyped.
	Decls []string
	Rows  [][]any
}

// QueryVirtual runs sql in a private in-memory database where each virtual
// table's schema is an attached in-memory database holding its tables. attach
// orders the schemas the statement names: virtual ones, and schema files that
// are attached read-only beside them (a query may join both). SQLite resolves an
// unqualified table name in the first attached schema that has it, so the
// session lists the current schema first.
func (e *Engine) QueryVirtual(tables []VirtualTable, attach []string, sql string, args []any) (*Rows, error) {
	c, err := openConn(":memory:", false, e.opts.Functions)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	order := slices.Clone(attach)
	for _, t := range tables {
		if !slices.Contains(order, t.Schema) {
			order = append(order, t.Schema)
		}
	}
	if len(order) > maxAttached {
		return nil, fmt.Errorf("engine: a query naming more than %d databases", maxAttached)
	}
	for _, a := range order {
		virtual := slices.ContainsFunc(tables, func(t VirtualTable) bool { return t.Schema == a })
		if virtual {
			if _, err := c.exec(`ATTACH DATABASE ':memory:' AS ` + quoteIdent(a)); err != nil {
				return nil, fmt.Errorf("engine: virtual schema %s: %w", a, err)
			}
			continue
		}
		s, err := e.schema(a)
		if err != nil {
			return nil, err
		}
		if _, err := c.exec(`ATTACH DATABASE ? AS `+quoteIdent(a), "file:"+s.path+"?mode=ro"); err != nil {
			return nil, translateError(err, a)
		}
	}
	if err := fillVirtual(c, tables); err != nil {
		return nil, err
	}
	return queryConn(c, sql, args, "")
}

// fillVirtual creates and fills the virtual tables, in one transaction.
func fillVirtual(c *sqliteConn, tables []VirtualTable) (err error) {
	if _, err := c.exec("BEGIN"); err != nil {
		return fmt.Errorf("engine: virtual tables: %w", err)
	}
	defer func() {
		if err != nil {
			_, _ = c.exec("ROLLBACK")
			return
		}
		if _, err = c.exec("COMMIT"); err != nil {
			err = fmt.Errorf("engine: virtual tables: %w", err)
		}
	}()
	for _, t := range tables {
		cols := make([]string, len(t.Columns))
		for i, col := range t.Columns {
			cols[i] = quoteIdent(col)
			if i < len(t.Decls) && t.Decls[i] != "" {
				cols[i] += " " + t.Decls[i]
			}
		}
		name := quoteIdent(t.Schema) + "." + quoteIdent(t.Name)
		if _, err := c.exec("CREATE TABLE " + name + " (" + strings.Join(cols, ", ") + ")"); err != nil {
			return fmt.Errorf("engine: virtual table %s: %w", t.Name, err)
		}
		ins := "INSERT INTO " + name + " VALUES (" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
		for _, r := range t.Rows {
			if _, err := c.exec(ins, r...); err != nil {
				return fmt.Errorf("engine: virtual table %s: %w", t.Name, err)
			}
		}
	}
	return nil
}
