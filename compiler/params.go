package compiler

import (
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
)

// writeParams finds, for an INSERT, REPLACE or UPDATE, the column each ? is
// written into when it is the whole value (INSERT ... VALUES (?, ...), SET col = ?,
// ON DUPLICATE KEY UPDATE col = ?): a parameter then takes that column's type,
// as MySQL converts it (bytes for a binary column whatever the client sent).
// The result is indexed by the parameter's position; nil where unknown.
func (c *compiler) writeParams(stmt ast.StmtNode) []*catalog.Column {
	var out []*catalog.Column
	order := paramOrder(stmt)
	set := func(e ast.ExprNode, def *catalog.Table, col string) {
		p, ok := e.(*driver.ParamMarkerExpr)
		if !ok || def == nil {
			return
		}
		cd, ok := def.Column(col)
		if !ok {
			return
		}
		i := order[p]
		for len(out) <= i {
			out = append(out, nil)
		}
		out[i] = cd
	}
	switch x := stmt.(type) {
	case *ast.InsertStmt:
		def := c.singleTable(x.Table)
		if def == nil {
			return nil
		}
		cols := make([]string, 0, len(def.Columns))
		if len(x.Columns) > 0 {
			for _, cn := range x.Columns {
				cols = append(cols, cn.Name.O)
			}
		} else {
			for _, cd := range def.Columns {
				cols = append(cols, cd.Name)
			}
		}
		for _, row := range x.Lists {
			for i, e := range row {
				if i < len(cols) {
					set(e, def, cols[i])
				}
			}
		}
		for _, a := range x.OnDuplicate {
			set(a.Expr, def, a.Column.Name.O)
		}
	case *ast.UpdateStmt:
		def := c.singleTable(x.TableRefs)
		for _, a := range x.List {
			set(a.Expr, def, a.Column.Name.O)
		}
	}
	return out
}

// singleTable is the definition of the one table a write names, or nil.
func (c *compiler) singleTable(refs *ast.TableRefsClause) *catalog.Table {
	if refs == nil || refs.TableRefs == nil || refs.TableRefs.Right != nil {
		return nil
	}
	ts, ok := refs.TableRefs.Left.(*ast.TableSource)
	if !ok {
		return nil
	}
	tn, ok := ts.Source.(*ast.TableName)
	if !ok {
		return nil
	}
	schema := tn.Schema.O
	if schema == "" {
		schema = c.db
	}
	def, _ := c.cat.Table(schema, tn.Name.O)
	return def
}

// paramOrder numbers a statement's ? markers in text order (the grammar records
// each one's offset, not its position).
func paramOrder(stmt ast.StmtNode) map[*driver.ParamMarkerExpr]int {
	v := &paramCollector{}
	stmt.Accept(v)
	slices.SortFunc(v.found, func(a, b *driver.ParamMarkerExpr) int { return a.Offset - b.Offset })
	order := make(map[*driver.ParamMarkerExpr]int, len(v.found))
	for i, p := range v.found {
		order[p] = i
	}
	return order
}

type paramCollector struct{ found []*driver.ParamMarkerExpr }

func (v *paramCollector) Enter(n ast.Node) (ast.Node, bool) {
	if p, ok := n.(*driver.ParamMarkerExpr); ok {
		v.found = append(v.found, p)
	}
	return n, false
}

func (v *paramCollector) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// insertErr refuses an INSERT or REPLACE as MySQL's strict mode does when a NOT
// NULL column without a default is left out (1364) or is given a literal NULL
// (1048). SQLite would give a rowid alias primary key the next rowid in both
// cases, and 1048 where MySQL says 1364. INSERT IGNORE is left alone.
func (c *compiler) insertErr(stmt ast.StmtNode) error {
	x, ok := stmt.(*ast.InsertStmt)
	if !ok || x.IgnoreErr || x.Select != nil {
		return nil
	}
	def := c.singleTable(x.Table)
	if def == nil {
		return nil
	}
	required := func(col *catalog.Column) bool {
		return !col.Nullable && !col.AutoIncrement && col.Default == nil && col.Generated == nil
	}
	if len(x.Columns) > 0 {
		named := map[string]bool{}
		for _, cn := range x.Columns {
			named[strings.ToLower(cn.Name.O)] = true
		}
		for i := range def.Columns {
			col := &def.Columns[i]
			if !named[strings.ToLower(col.Name)] && required(col) {
				return mysqlerr.New(mysqlerr.ErNoDefaultForField, "Field '%s' doesn't have a default value", col.Name)
			}
		}
	}
	cols := x.Columns
	for _, row := range x.Lists {
		for i, e := range row {
			var col *catalog.Column
			switch {
			case len(cols) > 0 && i < len(cols):
				col, _ = def.Column(cols[i].Name.O)
			case len(cols) == 0 && i < len(def.Columns):
				col = &def.Columns[i]
			}
			if col == nil || col.Nullable || col.AutoIncrement {
				continue
			}
			if v, ok := e.(*driver.ValueExpr); ok && v.Kind() == driver.KindNull {
				return mysqlerr.New(mysqlerr.ErBadNull, "Column '%s' cannot be null", col.Name)
			}
		}
	}
	return nil
}
