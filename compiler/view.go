package compiler

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/binlite/binlite/mysqlerr"
)

// A view is read as the derived table its query makes (MySQL's TEMPTABLE
// algorithm gives the same rows and types as MERGE): every reference to one
// is replaced, before anything else is worked out, by its query under the
// view's name. Types, collations and semantics are then the compiler's own,
// and a plan made from a view is one of its definitions (dependency).

// maxViewDepth bounds views of views (MySQL refuses a cycle when it is made;
// this stops one that a replayed definition might still hold).
const maxViewDepth = 32

// expandViews replaces the views stmt reads by their queries. A write into a
// view is refused: binlite does not write through views yet.
func (c *compiler) expandViews(stmt ast.Node) error {
	var target *ast.TableRefsClause
	kind := ""
	switch x := stmt.(type) {
	case *ast.InsertStmt:
		target, kind = x.Table, "INSERT"
	case *ast.UpdateStmt:
		target, kind = x.TableRefs, "UPDATE"
	case *ast.DeleteStmt:
		target, kind = x.TableRefs, "DELETE"
	}
	v := &viewExpander{c: c}
	if target != nil {
		v.writeKind = kind
		target.Accept(v)
		v.writeKind = ""
		if v.err != nil {
			return v.err
		}
	}
	stmt.Accept(v)
	return v.err
}

type viewExpander struct {
	c         *compiler
	depth     int
	writeKind string // the target of a write is being looked at
	err       error
}

func (v *viewExpander) Enter(n ast.Node) (ast.Node, bool) {
	if v.err != nil {
		return n, true
	}
	ts, ok := n.(*ast.TableSource)
	if !ok {
		return n, false
	}
	tn, ok := ts.Source.(*ast.TableName)
	if !ok {
		return n, false
	}
	schema := tn.Schema.O
	if schema == "" {
		schema = v.c.db
	}
	if schema == "" {
		return n, false
	}
	def, _ := v.c.cat.Table(schema, tn.Name.O)
	if !def.IsView() {
		return n, false
	}
	switch {
	case v.writeKind != "":
		v.err = mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support '%s through a view (updatable views)'", v.writeKind)
		return n, true
	case v.depth >= maxViewDepth:
		v.err = mysqlerr.New(mysqlerr.ErViewInvalid, "View '%s.%s' references invalid table(s) or column(s) or function(s) or definer/invoker of view lack rights to use them", schema, tn.Name.O)
		return n, true
	}
	stmts, _, err := parser.New().Parse(def.View.Select, "", "")
	if err != nil || len(stmts) != 1 {
		v.err = mysqlerr.New(mysqlerr.ErViewInvalid, "View '%s.%s' references invalid table(s) or column(s) or function(s) or definer/invoker of view lack rights to use them", schema, tn.Name.O)
		return n, true
	}
	q, ok := stmts[0].(ast.ResultSetNode)
	if !ok {
		v.err = mysqlerr.New(mysqlerr.ErViewInvalid, "View '%s.%s' references invalid table(s) or column(s) or function(s) or definer/invoker of view lack rights to use them", schema, tn.Name.O)
		return n, true
	}
	if cols := def.View.Columns; len(cols) > 0 {
		sel, ok := q.(*ast.SelectStmt)
		if !ok || len(sel.Fields.Fields) != len(cols) {
			v.err = mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'a view column list with this query'")
			return n, true
		}
		for i, f := range sel.Fields.Fields {
			f.AsName = ast.NewCIStr(cols[i])
		}
	}
	// The emitter reads some literals' spelling at their offset in the
	// statement's text; these are offsets in the view's text.
	q.Accept(unpositioned{})
	if !strings.EqualFold(schema, v.c.db) {
		// Its tables are the view's schema's.
		q.Accept(inSchema{ast.NewCIStr(schema)})
	}
	inner := &viewExpander{c: v.c, depth: v.depth + 1}
	q.Accept(inner)
	if inner.err != nil {
		v.err = inner.err
		return n, true
	}
	ts.Source = q
	if ts.AsName.O == "" {
		ts.AsName = tn.Name
	}
	return n, true // the query was expanded by inner
}

func (v *viewExpander) Leave(n ast.Node) (ast.Node, bool) { return n, v.err == nil }

// unpositioned forgets where literals are in the text they were parsed from.
type unpositioned struct{}

func (unpositioned) Enter(n ast.Node) (ast.Node, bool) {
	if _, ok := n.(ast.ValueExpr); ok {
		n.SetOriginTextPosition(-1)
	}
	return n, false
}

func (unpositioned) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// inSchema names the schema of the tables a view's query reads unqualified.
type inSchema struct{ schema ast.CIStr }

func (v inSchema) Enter(n ast.Node) (ast.Node, bool) {
	if ts, ok := n.(*ast.TableSource); ok {
		if tn, ok := ts.Source.(*ast.TableName); ok && tn.Schema.O == "" {
			tn.Schema = v.schema
		}
	}
	return n, false
}

func (inSchema) Leave(n ast.Node) (ast.Node, bool) { return n, true }
