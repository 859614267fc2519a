package compiler

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/binlite/binlite/catalog"
)

// Catalog is how the compiler finds table definitions. A nil definition with
// ok=true is a table binlite has no MySQL definition for (made before the catalog
// existed); its columns' types stay unknown.
type Catalog interface {
	Table(schema, name string) (def *catalog.Table, ok bool)
}

// source is one table (or derived table) a query reads, by the name the query
// uses for it.
type source struct {
	name   string // alias or table name
	schema string
	def    *catalog.Table // nil: unknown columns
	cols   []namedType    // a derived table's columns
}

type namedType struct {
	name string
	t    ColType
}

// scope is what column names can refer to in a query block, with its enclosing
// blocks for correlated subqueries.
type scope struct {
	sources []source
	outer   *scope
	// aliases are the select list's named items, which HAVING and ORDER BY
	// may name (typed for the emitter; a source's column of that name wins).
	aliases []namedType
}

func (c *compiler) newScope(from *ast.TableRefsClause, outer *scope) *scope {
	if outer == nil {
		outer = c.row
	}
	s := &scope{outer: outer}
	if from != nil {
		c.addSources(s, from.TableRefs)
	}
	return s
}

func (c *compiler) addSources(s *scope, n ast.ResultSetNode) {
	switch x := n.(type) {
	case *ast.Join:
		if x.Left != nil {
			c.addSources(s, x.Left)
		}
		if x.Right != nil {
			c.addSources(s, x.Right)
		}
	case *ast.TableSource:
		switch src := x.Source.(type) {
		case *ast.TableName:
			schema := src.Schema.O
			if schema == "" {
				schema = c.db
			}
			name := src.Name.O
			if x.AsName.O != "" {
				name = x.AsName.O
			}
			def, _ := c.cat.Table(schema, src.Name.O)
			s.sources = append(s.sources, source{name: name, schema: schema, def: def})
		case *ast.SelectStmt, *ast.SetOprStmt:
			s.sources = append(s.sources, source{name: x.AsName.O, cols: c.queryColumns(src.(ast.ResultSetNode), s.outer)})
		default:
			s.sources = append(s.sources, source{name: x.AsName.O})
		}
	}
}

// column resolves a column reference; ok=false when it cannot be typed.
func (s *scope) column(cn *ast.ColumnName) (ColType, bool) {
	for sc := s; sc != nil; sc = sc.outer {
		for _, src := range sc.sources {
			if cn.Table.O != "" && !strings.EqualFold(cn.Table.O, src.name) {
				continue
			}
			if cn.Schema.O != "" && !strings.EqualFold(cn.Schema.O, src.schema) {
				continue
			}
			if src.def != nil {
				if col, ok := src.def.Column(cn.Name.O); ok {
					return FromColumn(col), true
				}
				continue
			}
			for _, nt := range src.cols {
				if strings.EqualFold(nt.name, cn.Name.O) {
					return nt.t, nt.t.Known()
				}
			}
			if src.cols == nil {
				return ColType{}, false // a table without a definition: unknown
			}
		}
	}
	if cn.Table.O == "" {
		for _, a := range s.aliases {
			if strings.EqualFold(a.name, cn.Name.O) {
				return a.t, a.t.Known()
			}
		}
	}
	return ColType{}, false
}

// tableColumn reports whether cn names a column of a table with a definition
// (not a derived table's, not an alias).
func (s *scope) tableColumn(cn *ast.ColumnName) bool {
	for sc := s; sc != nil; sc = sc.outer {
		for _, src := range sc.sources {
			if cn.Table.O != "" && !strings.EqualFold(cn.Table.O, src.name) {
				continue
			}
			if src.def != nil {
				if _, ok := src.def.Column(cn.Name.O); ok {
					return true
				}
			} else if src.cols != nil {
				for _, nt := range src.cols {
					if strings.EqualFold(nt.name, cn.Name.O) {
						return false
					}
				}
			}
		}
	}
	return false
}

// expand lists the columns of SELECT * or t.*.
func (s *scope) expand(w *ast.WildCardField) ([]namedType, bool) {
	var out []namedType
	for _, src := range s.sources {
		if w.Table.O != "" && !strings.EqualFold(w.Table.O, src.name) {
			continue
		}
		switch {
		case src.def != nil:
			for i := range src.def.Columns {
				if src.def.Columns[i].Invisible {
					continue
				}
				out = append(out, namedType{src.def.Columns[i].Name, FromColumn(&src.def.Columns[i])})
			}
		case src.cols != nil:
			out = append(out, src.cols...)
		default:
			return nil, false // the column count itself is unknown
		}
	}
	return out, true
}
