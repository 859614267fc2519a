package compiler

import (
	"errors"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"strings"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
)

// Trigger is what a trigger's statement is compiled against: the table it is
// on (its NEW and OLD rows), its event, and the creating session's sql_mode and
// collation, which MySQL keeps with the trigger.
type Trigger struct {
	DB        string
	Table     *catalog.Table
	Event     string // INSERT, UPDATE, DELETE
	Mode      Mode
	Collation string
}

// TriggerStatement compiles one statement of a trigger's body into the SQLite
// statements of a SQLite trigger's body (each ending with ';'), NEW.c and OLD.c
// naming the row as they do in SQLite, and lists the tables they name. What the
// emitter does not compile is 1235 naming it: a trigger must never do something
// other than what its text says.
func TriggerStatement(sql string, tr Trigger, cat Catalog) (stmts []string, tables []string, err error) {
	notSupported := func(what string) error {
		return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support '%s in a trigger'", what)
	}
	ps := parser.New()
	ps.SetSQLMode(tr.Mode.parserMode())
	stmts0, _, perr := ps.Parse(sql, "", "")
	if perr != nil || len(stmts0) != 1 {
		return nil, nil, notSupported("this statement")
	}
	if err := rowRefs(stmts0[0], tr); err != nil {
		return nil, nil, err
	}
	var sources []source
	if tr.Event != "DELETE" {
		sources = append(sources, source{name: "NEW", schema: tr.DB, def: tr.Table})
	}
	if tr.Event != "INSERT" {
		sources = append(sources, source{name: "OLD", schema: tr.DB, def: tr.Table})
	}
	c := &compiler{cat: cat, db: tr.DB, collation: tr.Collation, mode: tr.Mode, row: &scope{sources: sources}}
	em, err := c.emit(stmts0[0], sql)
	if err != nil {
		if errors.Is(err, errNotYet) {
			what := strings.TrimPrefix(err.Error(), errNotYet.Error()+": ")
			return nil, nil, notSupported(what)
		}
		return nil, nil, err
	}
	switch {
	case em.Kind == "select":
		return nil, nil, mysqlerr.New(mysqlerr.ErSpNoRetset, "Not allowed to return a result set from a trigger")
	case em.EachRow != "" || em.RowsApart:
		return nil, nil, notSupported("this " + strings.ToUpper(em.Kind))
	case len(em.Schemas) > 0:
		return nil, nil, notSupported("a table of another database")
	case em.Params > 0:
		return nil, nil, notSupported("?")
	}
	for _, s := range append([]string{em.SQL}, em.Then...) {
		// The id allocator serves the statement that fired the trigger, not
		// the trigger's own writes: their AUTO_INCREMENT values are SQLite's.
		s = strings.ReplaceAll(s, autoIncFunc+"(", TriggerAutoIncFunc+"(")
		s = strings.ReplaceAll(s, autoIncNullFunc+"(", TriggerAutoIncNullFunc+"(")
		stmts = append(stmts, s+";")
	}
	return stmts, em.Tables, nil
}

// The engine's functions that give a trigger's write into an AUTO_INCREMENT
// column its value: the value written, or NULL (SQLite's next id) where MySQL
// generates one.
const (
	TriggerAutoIncFunc     = "binlite_trigger_autoinc"
	TriggerAutoIncNullFunc = "binlite_trigger_autoinc_null"
)

// rowRefs checks the statement's NEW.c and OLD.c as MySQL does when it creates
// the trigger: the row exists for the event (1363), the column in the table (1054).
func rowRefs(n ast.Node, tr Trigger) error {
	v := &rowRefVisitor{tr: tr}
	n.Accept(v)
	return v.err
}

type rowRefVisitor struct {
	tr  Trigger
	err error
}

func (v *rowRefVisitor) Enter(n ast.Node) (ast.Node, bool) {
	cn, ok := n.(*ast.ColumnNameExpr)
	if !ok || v.err != nil || cn.Name.Schema.O != "" {
		return n, false
	}
	row := strings.ToUpper(cn.Name.Table.O)
	if row != "NEW" && row != "OLD" {
		return n, false
	}
	if row == "NEW" && v.tr.Event == "DELETE" || row == "OLD" && v.tr.Event == "INSERT" {
		v.err = mysqlerr.New(mysqlerr.ErTrgNoSuchRowInTrg, "There is no %s row in on %s trigger", row, v.tr.Event)
	} else if v.tr.Table != nil {
		if _, ok := v.tr.Table.Column(cn.Name.Name.O); !ok {
			v.err = mysqlerr.New(mysqlerr.ErBadField, "Unknown column '%s' in '%s'", cn.Name.Name.O, row)
		}
	}
	return n, false
}

func (v *rowRefVisitor) Leave(n ast.Node) (ast.Node, bool) { return n, true }
