package infoschema

import (
	"testing"
	"time"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/binlite/binlite/catalog"
)

func mustDef(t *testing.T, sql string) *catalog.Table {
	t.Helper()
	stmts, _, err := parser.New().Parse(sql, "", "")
	if err != nil {
		t.Fatal(err)
	}
	def, err := catalog.Build(stmts[0].(*ast.CreateTableStmt), "utf8mb4_general_ci")
	if err != nil {
		t.Fatal(err)
	}
	return def
}

func source(t *testing.T) *Source {
	parent := mustDef(t, "CREATE TABLE parent (id INT PRIMARY KEY AUTO_INCREMENT, code VARCHAR(10) NOT NULL UNIQUE)")
	child := mustDef(t, `CREATE TABLE child (id BIGINT UNSIGNED PRIMARY KEY, pid INT, price DECIMAL(10,2) DEFAULT '1.50',
		doc JSON, kind ENUM('a','bb') NOT NULL, at DATETIME(3) DEFAULT CURRENT_TIMESTAMP(3), note TEXT COMMENT 'n',
		KEY k_price (price), CONSTRAINT fk_p FOREIGN KEY (pid) REFERENCES parent (id) ON DELETE CASCADE,
		CONSTRAINT ck CHECK (price > 0))`)
	return &Source{
		Schemas: func() []Schema {
			return []Schema{{Name: "shop", Tables: []Table{{Name: "child", Def: child}, {Name: "parent", Def: parent, NextAutoIncrement: 3}}}}
		},
		Processes: func() []Process {
			return []Process{{ID: 7, User: "root", Host: "localhost", Command: "Query", Info: "SELECT 1"}}
		},
		Started:          time.Unix(0, 0),
		DefaultCollation: "utf8mb4_general_ci",
	}
}

func TestDefinitions(t *testing.T) {
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, schema := range []string{InformationSchema, PerformanceSchema} {
		for _, n := range s.Tables(schema) {
			def := s.Table(schema, n)
			if def == nil || len(SQLiteColumns(def)) != len(def.Columns) {
				t.Errorf("%s.%s: no definition", schema, n)
			}
		}
	}
	if s.Table("INFORMATION_SCHEMA", "tables") == nil || s.Table("Performance_Schema", "THREADS") == nil {
		t.Error("names must be case-insensitive")
	}
	if s.Table("mydb", "tables") != nil {
		t.Error("a user schema is not virtual")
	}
	c, _ := s.Table(InformationSchema, "COLUMNS").Column("ORDINAL_POSITION")
	if c.Type.SQL() != "int unsigned" || c.Nullable {
		t.Errorf("COLUMNS.ORDINAL_POSITION is %s nullable=%v", c.Type.SQL(), c.Nullable)
	}
}

// get finds the row of table whose column col equals val, as column -> value.
func get(t *testing.T, s *Schemas, src *Source, table, col string, val any) map[string]any {
	t.Helper()
	def := s.Table(InformationSchema, table)
	for _, r := range s.Rows(InformationSchema, table, src) {
		m := map[string]any{}
		for i, c := range def.Columns {
			m[c.Name] = r[i]
		}
		if m[col] == val {
			return m
		}
	}
	t.Fatalf("%s: no row with %s = %v", table, col, val)
	return nil
}

func TestRows(t *testing.T) {
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	src := source(t)
	checks := []struct {
		table, col string
		val        any
		want       map[string]any
	}{
		{"TABLES", "TABLE_NAME", "parent", map[string]any{"TABLE_SCHEMA": "shop", "TABLE_TYPE": "BASE TABLE", "ENGINE": "InnoDB", "AUTO_INCREMENT": int64(3), "TABLE_COLLATION": "utf8mb4_general_ci"}},
		{"COLUMNS", "COLUMN_NAME", "price", map[string]any{"DATA_TYPE": "decimal", "NUMERIC_PRECISION": int64(10), "NUMERIC_SCALE": int64(2), "COLUMN_DEFAULT": "1.50", "COLUMN_KEY": "MUL", "COLUMN_TYPE": "decimal(10,2)"}},
		{"COLUMNS", "COLUMN_NAME", "kind", map[string]any{"DATA_TYPE": "enum", "CHARACTER_MAXIMUM_LENGTH": int64(2), "CHARACTER_OCTET_LENGTH": int64(8), "IS_NULLABLE": "NO", "COLUMN_DEFAULT": nil}},
		{"COLUMNS", "COLUMN_NAME", "at", map[string]any{"DATETIME_PRECISION": int64(3), "EXTRA": "DEFAULT_GENERATED", "COLUMN_DEFAULT": "CURRENT_TIMESTAMP(3)"}},
		{"COLUMNS", "COLUMN_NAME", "code", map[string]any{"CHARACTER_MAXIMUM_LENGTH": int64(10), "CHARACTER_OCTET_LENGTH": int64(40), "COLUMN_KEY": "UNI", "COLLATION_NAME": "utf8mb4_general_ci"}},
		{"COLUMNS", "COLUMN_NAME", "note", map[string]any{"COLUMN_COMMENT": "n", "CHARACTER_MAXIMUM_LENGTH": int64(65535)}},
		{"KEY_COLUMN_USAGE", "CONSTRAINT_NAME", "fk_p", map[string]any{"COLUMN_NAME": "pid", "REFERENCED_TABLE_NAME": "parent", "REFERENCED_COLUMN_NAME": "id", "POSITION_IN_UNIQUE_CONSTRAINT": int64(1)}},
		{"REFERENTIAL_CONSTRAINTS", "CONSTRAINT_NAME", "fk_p", map[string]any{"UNIQUE_CONSTRAINT_NAME": "PRIMARY", "DELETE_RULE": "CASCADE", "UPDATE_RULE": "NO ACTION"}},
		{"TABLE_CONSTRAINTS", "CONSTRAINT_NAME", "ck", map[string]any{"CONSTRAINT_TYPE": "CHECK", "ENFORCED": "YES"}},
		{"CHECK_CONSTRAINTS", "CONSTRAINT_NAME", "ck", map[string]any{"CHECK_CLAUSE": "(`price` > 0)"}},
		{"STATISTICS", "INDEX_NAME", "k_price", map[string]any{"NON_UNIQUE": int64(1), "COLUMN_NAME": "price", "NULLABLE": "YES"}},
		{"PROCESSLIST", "ID", int64(7), map[string]any{"INFO": "SELECT 1", "DB": nil}},
		{"COLLATIONS", "COLLATION_NAME", "utf8mb4_general_ci", map[string]any{"ID": int64(45), "PAD_ATTRIBUTE": "PAD SPACE"}},
		{"SCHEMATA", "SCHEMA_NAME", "shop", map[string]any{"DEFAULT_CHARACTER_SET_NAME": "utf8mb4"}},
	}
	for _, c := range checks {
		got := get(t, s, src, c.table, c.col, c.val)
		for k, w := range c.want {
			if got[k] != w {
				t.Errorf("%s row %s=%v: %s = %#v, want %#v", c.table, c.col, c.val, k, got[k], w)
			}
		}
	}
}
