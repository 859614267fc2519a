package infoschema

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	_ "github.com/pingcap/tidb/pkg/parser/test_driver" // literal values in the AST

	"github.com/binlite/binlite/catalog"
)

// textCollation is the collation of the virtual tables' text columns: MySQL's
// metadata is utf8mb3, and names compare without regard to letter case.
const textCollation = "utf8mb3_general_ci"

// Schemas holds the definitions of the virtual schemas' tables. It is built once
// per node and never changes, so the compiler's plans made from its definitions
// stay valid for the node's life.
type Schemas struct {
	byName map[string]map[string]*catalog.Table // lower-case schema, lower-case table
	order  map[string][]string                  // each schema's table names as declared
}

// New parses the definitions of information_schema and performance_schema.
func New() (*Schemas, error) {
	s := &Schemas{byName: map[string]map[string]*catalog.Table{}, order: map[string][]string{}}
	p := parser.New()
	for schema, ddl := range map[string][]string{InformationSchema: informationTables, PerformanceSchema: performanceTables} {
		tables := map[string]*catalog.Table{}
		for _, text := range ddl {
			def, err := build(p, text)
			if err != nil {
				return nil, fmt.Errorf("infoschema: %s: %w", schema, err)
			}
			tables[strings.ToLower(def.Name)] = def
			s.order[schema] = append(s.order[schema], def.Name)
		}
		s.byName[schema] = tables
	}
	return s, nil
}

func build(p *parser.Parser, text string) (*catalog.Table, error) {
	stmts, _, err := p.Parse(text, "", "")
	if err != nil {
		return nil, fmt.Errorf("parse %.40q: %w", text, err)
	}
	ct, ok := stmts[0].(*ast.CreateTableStmt)
	if !ok || len(stmts) != 1 {
		return nil, fmt.Errorf("not one CREATE TABLE: %.40q", text)
	}
	def, err := catalog.Build(ct, textCollation)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", ct.Table.Name.O, err)
	}
	return def, nil
}

// IsVirtual reports whether schema names one of the virtual schemas (in any
// letter case, as MySQL takes them).
func IsVirtual(schema string) bool {
	return strings.EqualFold(schema, InformationSchema) || strings.EqualFold(schema, PerformanceSchema)
}

// Canonical is a virtual schema's name as MySQL spells it ("" for other names).
func Canonical(schema string) string {
	switch {
	case strings.EqualFold(schema, InformationSchema):
		return InformationSchema
	case strings.EqualFold(schema, PerformanceSchema):
		return PerformanceSchema
	}
	return ""
}

// Table is the definition of a virtual table (nil if schema is not a virtual
// schema or has no such table). Names are case-insensitive.
func (s *Schemas) Table(schema, name string) *catalog.Table {
	tables := s.byName[Canonical(schema)]
	if tables == nil {
		return nil
	}
	return tables[strings.ToLower(name)]
}

// Tables lists a virtual schema's table names as declared.
func (s *Schemas) Tables(schema string) []string {
	return append([]string(nil), s.order[Canonical(schema)]...)
}

// SQLiteColumns are the column declarations of a virtual table's SQLite copy:
// the storage class binlite keeps the MySQL type in, and the collation of text.
func SQLiteColumns(def *catalog.Table) []string {
	out := make([]string, len(def.Columns))
	for i := range def.Columns {
		ty := def.Columns[i].Type
		decl := "TEXT"
		switch ty.Base {
		case "tinyint", "smallint", "mediumint", "int", "bigint":
			decl = "INTEGER"
		case "double", "float":
			decl = "REAL"
		case "binary", "varbinary", "blob":
			decl = "BLOB"
		}
		if c := ty.SQLiteCollation(); c != "" {
			decl += " COLLATE " + c
		}
		out[i] = decl
	}
	return out
}
