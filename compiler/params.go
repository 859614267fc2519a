package compiler

import (
	"slices"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/catalog"
)

// writeParams finds, for an INSERT, REPLACE or UPDATE, the column each ? is
// written into when it is the whole value (INSERT ... VALUES (?, ...), SET col = ?,
// ON DUPLICATE KEY UPDATE col = ?): a parameter then takes that column's type,
// as MySQL converts it (bytes for a binary column whatever the client sent).
// The result is indexed by the parameter's position; nil where unknown.
func (c *compiler) writeParams(stmt ast.StmtNode) []*catalog.Type {
	var out []*catalog.Type
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
		t := cd.Type
		out[i] = &t
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
