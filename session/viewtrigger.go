package session

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	tidb "github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
	mp "github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/sqlcompat"
)

// Views and triggers (see sqlcompat/viewtrigger.go for how they are stored).
// The session checks what MySQL checks before the DDL runs (names taken or
// missing, the view's query), and gives the binary log the statement as MySQL
// logs it: a view with its query in MySQL's form and its DEFINER, a trigger
// with its DEFINER and the sql_mode its body was compiled under.

// viewTriggerDDL checks a view or trigger DDL and returns the DDL to run (nil
// when there is nothing to do: its notes are given).
func (s *Session) viewTriggerDDL(db string, d *sqlcompat.DDL) (*sqlcompat.DDL, error) {
	cat := engineCatalog{s.env.Engine}
	switch d.Op {
	case sqlcompat.CreateView:
		return s.createView(db, d)
	case sqlcompat.DropView:
		var missing []string
		for _, t := range d.Tables {
			def, ok := cat.Table(db, t)
			switch {
			case def.IsView():
			case ok || def != nil:
				return nil, mysqlerr.New(mysqlerr.ErWrongObject, "'%s.%s' is not VIEW", db, t)
			default:
				missing = append(missing, db+"."+t)
			}
		}
		if len(missing) > 0 {
			if !d.IfExists {
				return nil, mysqlerr.New(mysqlerr.ErBadTable, "Unknown table '%s'", strings.Join(missing, ","))
			}
			for _, m := range missing {
				s.notes = append(s.notes, mysqlerr.Note(mysqlerr.ErBadTable, "Unknown table '%s'", m))
			}
		}
	case sqlcompat.DropTable:
		// DROP TABLE does not drop views: MySQL calls them unknown tables.
		var keep, views []string
		for _, t := range d.Tables {
			if def, _ := cat.Table(db, t); def.IsView() {
				views = append(views, db+"."+t)
			} else {
				keep = append(keep, t)
			}
		}
		if len(views) == 0 {
			return d, nil
		}
		if !d.IfExists {
			return nil, mysqlerr.New(mysqlerr.ErBadTable, "Unknown table '%s'", strings.Join(views, ","))
		}
		for _, v := range views {
			s.notes = append(s.notes, mysqlerr.Note(mysqlerr.ErBadTable, "Unknown table '%s'", v))
		}
		if len(keep) == 0 {
			return nil, nil
		}
		names := make([]string, len(keep))
		for i, t := range keep {
			names[i] = quoteName(t)
		}
		return s.reparse(db, "DROP TABLE IF EXISTS "+strings.Join(names, ", "))
	case sqlcompat.CreateTrigger:
		if owner, _ := s.triggerTable(db, d.Trigger.Name); owner != "" {
			if d.IfNotExists {
				s.notes = append(s.notes, mysqlerr.Note(mysqlerr.ErTrgAlreadyExists, "Trigger already exists"))
				return nil, nil
			}
			return nil, mysqlerr.New(mysqlerr.ErTrgAlreadyExists, "Trigger already exists")
		}
		if s.temps.def(db, d.Table) != nil {
			return nil, mysqlerr.New(mysqlerr.ErTrgOnViewOrTempTable, "Trigger's '%s' is view or temporary table", d.Table)
		}
		tr := d.Trigger
		text := "CREATE " + sqlcompat.SessionComment(tr.SQLMode, tr.CollationConnection) + " DEFINER=" + quoteName(tr.DefinerUser) + "@" + quoteName(tr.DefinerHost) +
			" TRIGGER " + quoteName(tr.Name) + " " + tr.Timing + " " + tr.Event + " ON " + quoteName(d.Table) + " FOR EACH ROW " + tr.Body
		if len(d.Statements()) == 0 {
			return nil, nil
		}
		d.Original = text
	case sqlcompat.DropTrigger:
		if owner, _ := s.triggerTable(db, d.Trigger.Name); owner == "" {
			if !d.IfExists {
				return nil, mysqlerr.New(mysqlerr.ErTrgDoesNotExist, "Trigger does not exist")
			}
			s.notes = append(s.notes, mysqlerr.Note(mysqlerr.ErTrgDoesNotExist, "Trigger does not exist"))
			return nil, nil
		}
	}
	return d, nil
}

// reparse is the DDL of text in schema db.
func (s *Session) reparse(db, text string) (*sqlcompat.DDL, error) {
	st, err := sqlcompat.Parse(text, s.ctxFor(db))
	if err != nil {
		return nil, err
	}
	made, ok := st.(*sqlcompat.DDL)
	if !ok {
		return nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support '%s'", text)
	}
	return made, nil
}

// triggerTable finds the table of schema db that has trigger name.
func (s *Session) triggerTable(db, name string) (string, *catalog.Trigger) {
	sc, err := s.env.Engine.Schema(db)
	if err != nil {
		return "", nil
	}
	for _, t := range sc.Tables() {
		if def := sc.TableDef(t); def != nil {
			if tr, _ := def.Trigger(name); tr != nil {
				return t, tr
			}
		}
	}
	return "", nil
}

// createView checks CREATE [OR REPLACE] VIEW and ALTER VIEW: the name, and the
// query, which is run once (LIMIT 0) for MySQL's errors and its columns; the
// query is then stored in MySQL's form (every column qualified and named).
func (s *Session) createView(db string, d *sqlcompat.DDL) (*sqlcompat.DDL, error) {
	cat := engineCatalog{s.env.Engine}
	old, exists := cat.Table(db, d.Table)
	exists = exists || old != nil
	switch {
	case exists && !old.IsView() && (d.OrReplace || d.AlterView):
		return nil, mysqlerr.New(mysqlerr.ErWrongObject, "'%s.%s' is not VIEW", db, d.Table)
	case exists && !d.OrReplace && !d.AlterView:
		return nil, mysqlerr.New(mysqlerr.ErTableExists, "Table '%s' already exists", d.Table)
	case !exists && d.AlterView:
		return nil, mysqlerr.New(mysqlerr.ErNoSuchTable, "Table '%s.%s' doesn't exist", db, d.Table)
	case s.temps.def(db, d.Table) != nil:
		return nil, mysqlerr.New(mysqlerr.ErTableExists, "Table '%s' already exists", d.Table)
	}
	v := d.Def.View
	res, err := s.run("SELECT * FROM ("+v.Select+") AS `binlite_view` LIMIT 0", nil, nil)
	if err != nil {
		return nil, err
	}
	if len(v.Columns) > 0 && len(v.Columns) != len(res.Columns) {
		return nil, mysqlerr.New(mysqlerr.ErViewWrongList, "In definition of view, derived table or common table expression, SELECT list and column names list have different column counts")
	}
	canon, err := canonicalSelect(v.Select, db, cat, res.Columns)
	if err != nil {
		return nil, err
	}
	next := *d.Def
	nv := *v
	nv.Select = canon
	next.View = &nv
	text := next.ShowCreateView()
	comment := sqlcompat.SessionComment("", v.CollationConnection) + " "
	switch {
	case d.AlterView:
		text = "ALTER " + comment + strings.TrimPrefix(text, "CREATE ")
	case d.OrReplace:
		text = "CREATE " + comment + "OR REPLACE " + strings.TrimPrefix(text, "CREATE ")
	default:
		text = "CREATE " + comment + strings.TrimPrefix(text, "CREATE ")
	}
	made, err := s.reparse(db, text)
	if err != nil {
		return nil, err
	}
	return made, nil
}

// canonicalSelect is a view's query as MySQL keeps it: keywords in lower case,
// names quoted, a column of the only table (or of the one table that has it)
// qualified by it, SELECT * spelled out and every select item named. What it
// cannot spell so keeps the grammar's own spelling.
func canonicalSelect(query, db string, cat engineCatalog, cols []mp.Column) (string, error) {
	stmts, _, err := tidb.New().Parse(query, "", "")
	if err != nil || len(stmts) != 1 {
		return "", mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'CREATE VIEW of this query'")
	}
	var names [][2]string
	if sel, ok := stmts[0].(*ast.SelectStmt); ok && sel.Fields != nil {
		q := &qualifier{db: db, cat: cat}
		if sel.From != nil {
			q.collect(sel.From.TableRefs)
		}
		var fields []*ast.SelectField
		for _, f := range sel.Fields.Fields {
			if f.WildCard == nil {
				fields = append(fields, f)
				continue
			}
			n := 0
			for _, src := range q.sources {
				if f.WildCard.Table.O != "" && !strings.EqualFold(f.WildCard.Table.O, src.name) {
					continue
				}
				if src.def == nil {
					n = -1
					break
				}
				for _, c := range src.def.Columns {
					if c.Invisible {
						continue
					}
					fields = append(fields, &ast.SelectField{Expr: &ast.ColumnNameExpr{Name: &ast.ColumnName{Table: ast.NewCIStr(src.name), Name: ast.NewCIStr(c.Name)}}})
					n++
				}
			}
			if n < 0 {
				fields = append(fields, f)
			}
		}
		if len(fields) == len(cols) {
			sel.Fields.Fields = fields
			for i, f := range fields {
				// A name no query holds, spelled as MySQL spells it after the
				// restore: the grammar prints AS in lower case.
				alias := "binlite_as_" + strconv.Itoa(i)
				names = append(names, [2]string{"as `" + alias + "`", "AS " + quoteName(cols[i].Name)})
				f.AsName = ast.NewCIStr(alias)
			}
		}
		sel.Accept(q)
		if sel.Where != nil {
			if _, ok := sel.Where.(*ast.ParenthesesExpr); !ok {
				sel.Where = &ast.ParenthesesExpr{Expr: sel.Where}
			}
		}
	}
	var b strings.Builder
	flags := format.RestoreStringSingleQuotes | format.RestoreKeyWordLowercase | format.RestoreNameBackQuotes | format.RestoreSpacesAroundBinaryOperation
	if err := stmts[0].Restore(format.NewRestoreCtx(flags, &b)); err != nil {
		return query, nil
	}
	out := b.String()
	for _, n := range names {
		out = strings.Replace(out, n[0], n[1], 1)
	}
	return out, nil
}

// qualifier names each unqualified column of a query block by its table.
type qualifier struct {
	db      string
	cat     engineCatalog
	sources []viewSource
}

type viewSource struct {
	name string
	def  *catalog.Table
}

func (q *qualifier) collect(n ast.ResultSetNode) {
	switch x := n.(type) {
	case *ast.Join:
		q.collect(x.Left)
		if x.Right != nil {
			q.collect(x.Right)
		}
	case *ast.TableSource:
		name := x.AsName.O
		var def *catalog.Table
		if tn, ok := x.Source.(*ast.TableName); ok {
			if name == "" {
				name = tn.Name.O
			}
			schema := tn.Schema.O
			if schema == "" {
				schema = q.db
			}
			def, _ = q.cat.Table(schema, tn.Name.O)
			if def.IsView() {
				def = nil
			}
		}
		q.sources = append(q.sources, viewSource{name: name, def: def})
	}
}

func (q *qualifier) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.SubqueryExpr, *ast.TableSource:
		return n, true // their own blocks' names
	case *ast.ColumnNameExpr:
		if x.Name.Table.O != "" {
			return n, false
		}
		owner := ""
		for _, src := range q.sources {
			if src.def == nil {
				if len(q.sources) == 1 {
					owner = src.name
				}
				continue
			}
			if _, ok := src.def.Column(x.Name.Name.O); ok {
				if owner != "" {
					return n, false // ambiguous: the query fails or means something else
				}
				owner = src.name
			}
		}
		if owner != "" {
			x.Name.Table = ast.NewCIStr(owner)
		}
	}
	return n, false
}

func (q *qualifier) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// showCreateView answers SHOW CREATE VIEW, and SHOW CREATE TABLE of a view.
func (s *Session) showCreateView(db, name string, def *catalog.Table) *mp.Result {
	v := def.View
	return stringResult([]string{"View", "Create View", "character_set_client", "collation_connection"},
		[][]any{{def.Name, def.ShowCreateView(), v.CharsetClient, v.CollationConnection}})
}

// viewDef is the view named name of schema db (nil if there is none).
func (s *Session) viewDef(db, name string) *catalog.Table {
	def, _ := engineCatalog{s.env.Engine}.Table(db, name)
	if def.IsView() {
		return def
	}
	return nil
}

// viewColumns is a view's columns as a table definition's (SHOW COLUMNS,
// information_schema.COLUMNS): their names and the types the compiler gives
// its query's result columns.
func (s *Session) viewColumns(db string, def *catalog.Table) (*catalog.Table, error) {
	cat := engineCatalog{s.env.Engine}
	stmts, _, err := tidb.New().Parse(def.View.Select, "", "")
	if err != nil || len(stmts) != 1 {
		return nil, mysqlerr.New(mysqlerr.ErViewInvalid, "View '%s.%s' references invalid table(s) or column(s) or function(s) or definer/invoker of view lack rights to use them", db, def.Name)
	}
	rs, ok := stmts[0].(ast.ResultSetNode)
	if !ok {
		return nil, mysqlerr.New(mysqlerr.ErViewInvalid, "View '%s.%s' references invalid table(s) or column(s) or function(s) or definer/invoker of view lack rights to use them", db, def.Name)
	}
	fields, err := resultFields(rs, db, cat)
	if err != nil {
		return nil, err
	}
	plan := s.env.Plans.Query("SELECT * FROM "+quoteName(def.Name), db, cat)
	if len(plan.Columns) != len(fields) {
		return nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'the columns of view %s'", def.Name)
	}
	out := &catalog.Table{Name: def.Name, View: def.View}
	for i, f := range fields {
		if i < len(def.View.Columns) {
			f.name = def.View.Columns[i]
		}
		c, err := resultColumn(f, plan.Columns[i], def.View.CollationConnection)
		if err != nil {
			return nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'the columns of view %s'", def.Name)
		}
		c.Default, c.Comment = nil, ""
		out.Columns = append(out.Columns, c)
	}
	return out, nil
}

// triggerRows lists schema db's triggers as SHOW TRIGGERS does: by table, then
// event and timing, in their order.
func (s *Session) triggerRows(db string) [][]any {
	sc, err := s.env.Engine.Schema(db)
	if err != nil {
		return nil
	}
	tables := sc.Tables()
	slices.Sort(tables)
	rows := [][]any{}
	coll := s.env.Vars.String("collation_server")
	for _, t := range tables {
		def := sc.TableDef(t)
		if def == nil {
			continue
		}
		for _, ev := range []string{"INSERT", "UPDATE", "DELETE"} {
			for _, tm := range []string{"BEFORE", "AFTER"} {
				for _, tr := range def.Triggers {
					if tr.Event != ev || tr.Timing != tm {
						continue
					}
					rows = append(rows, []any{tr.Name, tr.Event, t, tr.Body, tr.Timing, tr.Created, tr.SQLMode, tr.Definer(),
						tr.CharsetClient, tr.CollationConnection, coll})
				}
			}
		}
	}
	return rows
}

// showTriggers answers SHOW TRIGGERS [FROM db] [LIKE 'table'].
func (s *Session) showTriggers(x *sqlcompat.Show) (*mp.Result, error) {
	if x.DB == "" {
		return nil, mysqlerr.New(mysqlerr.ErNoDB, "No database selected")
	}
	rows := [][]any{}
	for _, r := range s.triggerRows(x.DB) {
		if like(x.Like, r[2].(string)) {
			rows = append(rows, r)
		}
	}
	res := stringResult([]string{"Trigger", "Event", "Table", "Statement", "Timing", "Created", "sql_mode", "Definer",
		"character_set_client", "collation_connection", "Database Collation"}, rows)
	return res, nil
}

// showCreateTrigger answers SHOW CREATE TRIGGER [db.]name.
func (s *Session) showCreateTrigger(x *sqlcompat.Show) (*mp.Result, error) {
	table, tr := s.triggerTable(x.DB, x.Table)
	if tr == nil {
		return nil, mysqlerr.New(mysqlerr.ErTrgDoesNotExist, "Trigger does not exist")
	}
	return stringResult([]string{"Trigger", "sql_mode", "SQL Original Statement", "character_set_client", "collation_connection", "Database Collation", "Created"},
		[][]any{{tr.Name, tr.SQLMode, tr.ShowCreateTrigger(table), tr.CharsetClient, tr.CollationConnection, s.env.Vars.String("collation_server"), tr.Created}}), nil
}

// sessionVar is a session variable's value as text.
func (s *Session) sessionVar(name string) string {
	v, err := s.vars.Get(name, false)
	if err != nil || v == nil {
		return ""
	}
	if str, ok := v.(string); ok {
		return str
	}
	return fmt.Sprint(v)
}
