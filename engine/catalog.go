package engine

import (
	"database/sql/driver"
	"fmt"
	"io"
	"strings"

	mysqlcatalog "github.com/binlite/binlite/catalog"
)

// Internal tables every schema file carries; they are never captured or replicated.
const (
	appliedTable = "binlite_gtid_applied" // per source uuid: highest sequence applied to this schema
	// CatalogTable holds each table's MySQL definition (package catalog), written by
	// the DDL's own statements so it changes in the DDL's transaction.
	CatalogTable = "binlite_catalog"
	// seqAnchor exists so that sqlite_sequence (AUTO_INCREMENT counters) always
	// exists and DDL may set or reset a counter without checking first.
	seqAnchor = "binlite_seq_anchor"
)

// schemaInit creates the internal tables of a schema file (idempotent).
var schemaInit = []string{
	`CREATE TABLE IF NOT EXISTS ` + appliedTable + ` (uuid TEXT PRIMARY KEY, seq INTEGER NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS ` + CatalogTable + ` (name TEXT PRIMARY KEY COLLATE NOCASE, def TEXT NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS ` + seqAnchor + ` (id INTEGER PRIMARY KEY AUTOINCREMENT)`,
}

func isInternalTable(name string) bool {
	return strings.HasPrefix(name, "binlite_") || strings.HasPrefix(name, "sqlite_")
}

// Column describes one table column as SQLite declares it.
type Column struct {
	Name      string
	DeclType  string
	NotNull   bool
	Default   any
	PK        int  // 1-based position in the primary key, 0 if not part of it
	Generated bool // a generated column (SQLite computes it)
}

// Table is the catalog entry the writer needs to capture and apply rows.
type Table struct {
	Name    string
	Columns []Column // every column, generated ones included
	all     []string // every column's name, in table order
	PK      []int    // column indexes of the primary key, in key order
	AutoInc string
	// Rows events carry the columns that are not generated: a replica's SQLite
	// computes generated columns from them (they are deterministic, as MySQL
	// requires), and refuses values written into them. logged holds their
	// indexes when the table has generated columns (nil otherwise), names their
	// names and logPK the primary key's positions among them.
	logged []int
	names  []string
	logPK  []int
	// Def is the table's MySQL definition, nil for tables created before the
	// catalog existed or whose definition an ALTER dropped (see sqlcompat.addCatalog).
	Def *mysqlcatalog.Table
	// ForeignKeys are the table's FOREIGN KEY constraints (foreignkey.go).
	ForeignKeys []ForeignKey
	// wide is what Guards know of the table's BIGINT UNSIGNED values (wide.go).
	wide wideState
	// uniques caches uniqueKeys (the writer's, for row locks).
	uniques *[]uniqueKey
}

// catalog maps table names of one schema to their metadata. It is rebuilt after DDL;
// the preupdate hook only reads it (it may not query SQLite from inside the hook).
type catalog map[string]*Table

func loadCatalog(c *sqliteConn) (catalog, error) {
	rows, err := c.query(`SELECT name, sql, type FROM sqlite_master WHERE type IN ('table', 'view')`)
	if err != nil {
		return nil, fmt.Errorf("engine: read catalog: %w", err)
	}
	type ent struct {
		name, sql string
		view      bool
	}
	var tables []ent
	dest := make([]driver.Value, 3)
	for {
		if err := rows.Next(dest); err != nil {
			if err == io.EOF {
				break
			}
			rows.Close()
			return nil, fmt.Errorf("engine: read catalog: %w", err)
		}
		name, _ := dest[0].(string)
		sqlText, _ := dest[1].(string)
		tables = append(tables, ent{name, sqlText, asString(dest[2]) == "view"})
	}
	rows.Close()
	cat := catalog{}
	var withRefs []string
	for _, t := range tables {
		if isInternalTable(t.name) {
			continue
		}
		if t.view {
			// A view's definition is its binlite_catalog row; SQLite's view only
			// holds its name (sqlcompat's viewPlaceholder).
			cat[t.name] = &Table{Name: t.name}
			continue
		}
		tbl, err := loadTable(c, t.name)
		if err != nil {
			return nil, err
		}
		upper := strings.ToUpper(t.sql)
		if strings.Contains(upper, "AUTOINCREMENT") {
			for _, i := range tbl.PK {
				tbl.AutoInc = tbl.Columns[i].Name
			}
		}
		if strings.Contains(upper, "REFERENCES") {
			withRefs = append(withRefs, t.name)
		}
		cat[t.name] = tbl
	}
	if err := loadDefinitions(c, cat); err != nil {
		return nil, err
	}
	if err := loadForeignKeys(c, cat, withRefs); err != nil {
		return nil, err
	}
	return cat, nil
}

// loadDefinitions attaches each table's stored MySQL definition.
func loadDefinitions(c *sqliteConn, cat catalog) error {
	rows, err := c.query(`SELECT name, def FROM ` + CatalogTable)
	if err != nil {
		return fmt.Errorf("engine: read %s: %w", CatalogTable, err)
	}
	defer rows.Close()
	dest := make([]driver.Value, 2)
	for {
		if err := rows.Next(dest); err != nil {
			if err == io.EOF {
				return nil
			}
			return fmt.Errorf("engine: read %s: %w", CatalogTable, err)
		}
		name := asString(dest[0])
		for tname, t := range cat {
			if strings.EqualFold(tname, name) {
				def, err := mysqlcatalog.Decode(asString(dest[1]))
				if err != nil {
					return fmt.Errorf("engine: definition of %s: %w", name, err)
				}
				t.Def = def
			}
		}
	}
}

func loadTable(c *sqliteConn, name string) (*Table, error) {
	rows, err := c.query(`SELECT name, type, "notnull", dflt_value, pk, hidden FROM pragma_table_xinfo(?)`, name)
	if err != nil {
		return nil, fmt.Errorf("engine: table info %s: %w", name, err)
	}
	defer rows.Close()
	t := &Table{Name: name}
	dest := make([]driver.Value, 6)
	var pkOrder []int
	for {
		if err := rows.Next(dest); err != nil {
			if err == io.EOF {
				break
			}
			return nil, fmt.Errorf("engine: table info %s: %w", name, err)
		}
		hidden := asInt(dest[5]) // 2: VIRTUAL, 3: STORED generated column
		col := Column{Name: asString(dest[0]), DeclType: asString(dest[1]), NotNull: asInt(dest[2]) != 0, Default: dest[3], PK: int(asInt(dest[4])), Generated: hidden == 2 || hidden == 3}
		t.Columns = append(t.Columns, col)
		pkOrder = append(pkOrder, col.PK)
	}
	generated := false
	for i, c := range t.Columns {
		t.all = append(t.all, c.Name)
		generated = generated || c.Generated
		if WideDecl(c.DeclType) {
			t.wide.cols = append(t.wide.cols, i)
		}
	}
	t.names = t.all
	if generated {
		t.logged, t.names = []int{}, nil
		for i, c := range t.Columns {
			if !c.Generated {
				t.logged = append(t.logged, i)
				t.names = append(t.names, c.Name)
			}
		}
	}
	for k := 1; ; k++ {
		found := false
		for i, p := range pkOrder {
			if p == k {
				t.PK = append(t.PK, i)
				found = true
			}
		}
		if !found {
			break
		}
	}
	t.logPK = t.PK
	if t.logged != nil {
		t.logPK = nil
		for _, i := range t.PK {
			for j, l := range t.logged {
				if l == i {
					t.logPK = append(t.logPK, j)
				}
			}
		}
	}
	return t, nil
}

func asString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

func asInt(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	case bool:
		if x {
			return 1
		}
	}
	return 0
}
