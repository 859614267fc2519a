package engine

import (
	"fmt"
	"strings"
)

// VirtualTable is a table materialised for one query: binlite's performance_schema
// views are built from live state and queried with SQLite's full SELECT.
type VirtualTable struct {
	Schema, Name string
	Columns      []string
	Rows         [][]any
}

// QueryVirtual runs sql against the given tables in a private in-memory database.
func (e *Engine) QueryVirtual(tables []VirtualTable, sql string, args []any) (*Rows, error) {
	c, err := openConn(":memory:", false, e.opts.Functions)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	attached := map[string]bool{}
	for _, t := range tables {
		if !attached[t.Schema] {
			if _, err := c.exec(`ATTACH DATABASE ':memory:' AS ` + quoteIdent(t.Schema)); err != nil {
				return nil, fmt.Errorf("engine: virtual schema %s: %w", t.Schema, err)
			}
			attached[t.Schema] = true
		}
		cols := make([]string, len(t.Columns))
		for i, col := range t.Columns {
			cols[i] = quoteIdent(col)
		}
		name := quoteIdent(t.Schema) + "." + quoteIdent(t.Name)
		if _, err := c.exec("CREATE TABLE " + name + " (" + strings.Join(cols, ", ") + ")"); err != nil {
			return nil, fmt.Errorf("engine: virtual table %s: %w", t.Name, err)
		}
		ins := "INSERT INTO " + name + " VALUES (" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
		for _, r := range t.Rows {
			if _, err := c.exec(ins, r...); err != nil {
				return nil, fmt.Errorf("engine: virtual table %s: %w", t.Name, err)
			}
		}
	}
	return queryConn(c, sql, args, "")
}
