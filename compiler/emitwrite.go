package compiler

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/u64"
)

// autoIncFunc is the engine's AUTO_INCREMENT allocator (sqlcompat.AutoIncFunc):
// a value as given, the next id for NULL or 0, handed out as InnoDB does.
const autoIncFunc = "binlite_autoinc"

// autoIncNullFunc is autoIncFunc under NO_AUTO_VALUE_ON_ZERO: only NULL asks
// for the next id, 0 is stored as given.
const autoIncNullFunc = "binlite_autoinc_null"

// insert renders INSERT and REPLACE: the VALUES, SET and SELECT forms, DEFAULT,
// ON DUPLICATE KEY UPDATE (SQLite's upsert on any unique key, as MySQL's).
func (e *emitter) insert(x *ast.InsertStmt) {
	if len(x.PartitionNames) > 0 {
		e.fail(notYet("INSERT ... PARTITION"))
		return
	}
	_, tn, ok := e.singleTable(x.Table.TableRefs)
	if !ok {
		e.fail(notYet("INSERT target"))
		return
	}
	table := e.tableName(tn)
	schema, def := e.tableDef(tn)
	switch {
	case def == nil:
		// Without its definition the AUTO_INCREMENT column and the columns'
		// types are unknown: sqlcompat asks the engine for them.
		e.fail(notYet("INSERT into a table without a definition"))
	case writesOwnDefaults(def):
		e.fail(notYet("INSERT into a table whose defaults the INSERT writes (catalog.Table.InsertDefaults)"))
	case e.c.tz != 0 && len(x.OnDuplicate) > 0 && localOnUpdate(def):
		e.fail(notYet("ON DUPLICATE KEY UPDATE of a DATETIME ON UPDATE CURRENT_TIMESTAMP in a time zone other than UTC"))
	}
	if e.err != nil {
		return
	}
	switch {
	case x.IsReplace:
		e.w("REPLACE INTO ")
	case x.IgnoreErr && rowsApart(x, def):
		// SQLite's OR IGNORE would leave out a row a CHECK or foreign key refuses
		// without saying so; MySQL warns 3819 or 1452.
		e.out.RowsApart = true
		e.w("INSERT INTO ")
	case x.IgnoreErr:
		e.w("INSERT OR IGNORE INTO ")
	default:
		e.w("INSERT INTO ")
	}
	e.w(table)
	cols, err := insertColumns(x, def)
	if err != nil {
		e.fail(err)
		return
	}
	s := &scope{sources: []source{{name: tn.Name.O, schema: schema, def: def}}, outer: e.c.row}
	switch {
	case x.Select != nil && e.temporalSelect(x, cols, def):
	case x.Select != nil && e.c.tz != 0 && zoneSensitiveTarget(def):
		e.fail(notYet("INSERT ... SELECT of TIMESTAMP or CURRENT_TIMESTAMP columns in a time zone other than UTC"))
		return
	case x.Select != nil:
		e.columnList(cols, nil, len(cols))
		e.w(" ")
		if x.IgnoreErr && !x.IsReplace && len(x.OnDuplicate) == 0 {
			// Each row the SELECT gives is counted: those not written were duplicates.
			e.out.CountsRows = true
			e.w("SELECT * FROM (")
			if !e.convertedSelect(x, cols) {
				e.insertTargets = cols
				e.query(x.Select)
			}
			e.w(") WHERE binlite_counted()")
			break
		}
		if e.convertedSelect(x, cols) {
			break
		}
		e.insertTargets = cols
		if len(x.OnDuplicate) > 0 {
			// SQLite would read the upsert's ON as a join's without a WHERE.
			e.w("SELECT * FROM (")
			e.query(x.Select)
			e.w(") WHERE true")
		} else {
			e.query(x.Select)
		}
	default:
		e.values(x, cols, def)
	}
	if len(x.OnDuplicate) > 0 {
		e.w(" ON CONFLICT DO UPDATE")
		e.excluded = true
		e.setList(x.OnDuplicate, tn.Name.O, def, s)
		e.excluded = false
	}
}

func (e *emitter) query(n ast.ResultSetNode) {
	switch q := n.(type) {
	case *ast.SelectStmt:
		e.selectStmt(q, nil)
	case *ast.SetOprStmt:
		e.setOpr(q, nil)
	default:
		e.fail(notYet("INSERT ... %T", n))
	}
}

// insertColumns are the columns an INSERT writes, in its values' order: the
// column list, or every column of the table. nil entries: columns of a table
// without a definition.
func insertColumns(x *ast.InsertStmt, def *catalog.Table) ([]*catalog.Column, error) {
	if len(x.Columns) == 0 {
		if def == nil {
			return nil, notYet("INSERT without a column list into a table without a definition")
		}
		out := make([]*catalog.Column, 0, len(def.Columns))
		for i := range def.Columns {
			c := &def.Columns[i]
			switch {
			case c.Invisible:
				continue // not among the values a list-less INSERT gives
			case c.Generated != nil:
				return nil, notYet("INSERT without a column list into a table with generated columns")
			}
			out = append(out, c)
		}
		return out, nil
	}
	out := make([]*catalog.Column, len(x.Columns))
	for i, cn := range x.Columns {
		if def == nil {
			out[i] = &catalog.Column{Name: cn.Name.O}
			continue
		}
		c, ok := def.Column(cn.Name.O)
		if !ok {
			return nil, mysqlerr.New(mysqlerr.ErBadField, "Unknown column '%s' in 'field list'", cn.Name.O)
		}
		if c.Generated != nil {
			return nil, notYet("a value for a generated column")
		}
		out[i] = c
	}
	return out, nil
}

// columnList renders the columns of cols kept by keep (nil: all); those from
// index always on (implicit ones) are kept too.
func (e *emitter) columnList(cols []*catalog.Column, keep []bool, always int) {
	e.w(" (")
	n := 0
	for i, c := range cols {
		if keep != nil && !keep[i] && i < always {
			continue
		}
		if n > 0 {
			e.w(", ")
		}
		n++
		e.w(quoteIdent(c.Name))
	}
	e.w(")")
}

// values renders the VALUES (or SET) rows. A column that every row gives
// DEFAULT is left out, so SQLite applies the default its table definition holds.
func (e *emitter) values(x *ast.InsertStmt, cols []*catalog.Column, def *catalog.Table) {
	rows := x.Lists
	allEmpty := true
	for _, r := range rows {
		allEmpty = allEmpty && len(r) == 0
	}
	if allEmpty && len(x.Columns) == 0 && len(nowColumns(def, nil)) > 0 {
		if len(rows) != 1 || len(x.OnDuplicate) > 0 {
			e.fail(notYet("several rows of VALUES () with CURRENT_TIMESTAMP columns"))
			return
		}
		nows := nowColumns(def, nil)
		e.columnList(nows, nil, 0)
		e.w(" VALUES (")
		for i, c := range nows {
			if i > 0 {
				e.w(", ")
			}
			e.w(e.nowValue(c))
		}
		e.w(")")
		e.out.InsertRows = 1
		return
	}
	if allEmpty && len(x.Columns) == 0 {
		for _, c := range cols {
			if c.Default == nil && !c.Nullable && !c.AutoIncrement && c.Type.Base != "" {
				if e.adjust {
					e.fail(notYet("VALUES () under IGNORE or without strict mode with a NOT NULL column without a default"))
				} else {
					e.fail(mysqlerr.New(mysqlerr.ErNoDefaultForField, "Field '%s' doesn't have a default value", c.Name))
				}
				return
			}
		}
		if len(rows) == 1 && len(x.OnDuplicate) == 0 {
			e.w(" DEFAULT VALUES")
			return
		}
		e.fail(notYet("several rows of VALUES ()"))
		return
	}
	for i, r := range rows {
		if len(r) != len(cols) {
			e.fail(mysqlerr.New(mysqlerr.ErWrongValueCountOnRow, "Column count doesn't match value count at row %d", i+1))
			return
		}
	}
	keep := make([]bool, len(cols))
	kept := 0
	for k := range cols {
		for _, r := range rows {
			if !isDefault(r[k]) {
				keep[k] = true
			}
		}
		if keep[k] {
			kept++
		} else if c := cols[k]; c.Default == nil && !c.Nullable && !c.AutoIncrement && c.Type.Base != "" {
			if !e.adjust {
				e.fail(mysqlerr.New(mysqlerr.ErNoDefaultForField, "Field '%s' doesn't have a default value", c.Name))
				return
			}
			keep[k] = true // its implicit default, with a warning (defaultValue)
			kept++
		}
	}
	if kept == 0 {
		if len(rows) == 1 && len(x.OnDuplicate) == 0 && len(nowColumns(def, nil)) == 0 {
			e.w(" DEFAULT VALUES")
			return
		}
		keep[0] = true
	}
	// The AUTO_INCREMENT column's value goes through the engine's id allocator
	// in every row, NULL where the statement leaves it out.
	var missingAuto *catalog.Column
	hasAuto := false
	for k, c := range cols {
		if c.AutoIncrement {
			keep[k], hasAuto = true, true
		}
	}
	if !hasAuto {
		for i := range def.Columns {
			if def.Columns[i].AutoIncrement {
				missingAuto = &def.Columns[i]
			}
		}
	}
	extra := e.implicitColumns(x, def)
	if e.err != nil {
		return
	}
	var keptCols []*catalog.Column
	for k, c := range cols {
		if keep[k] {
			keptCols = append(keptCols, c)
		}
	}
	nows := nowColumns(def, keptCols)
	listed := append(append(append([]*catalog.Column(nil), cols...), extra...), nows...)
	if missingAuto != nil {
		listed = append(listed, missingAuto)
	}
	e.runtimeLiterals = !onlyLiterals(rows)
	e.columnList(listed, append(keep, make([]bool, len(listed)-len(cols))...), len(cols))
	e.out.InsertRows = len(rows)
	e.out.IgnoreDuplicates = x.IgnoreErr && !x.IsReplace && len(x.OnDuplicate) == 0
	for _, c := range extra {
		// once for the statement, before its rows' warnings, as MySQL checks
		e.notes = append(e.notes, mysqlerr.Warn(mysqlerr.ErNoDefaultForField, "Field '%s' doesn't have a default value", c.Name))
	}
	e.w(" VALUES ")
	head := e.b.String()
	for i, r := range rows {
		switch {
		case i > 0 && e.out.RowsApart:
			e.w(" ON CONFLICT DO NOTHING")
			e.split()
			e.w(head)
		case i > 0:
			e.w(", ")
		}
		e.w("(")
		n := 0
		for k, v := range r {
			if !keep[k] {
				continue
			}
			if n > 0 {
				e.w(", ")
			}
			n++
			e.cell(v, cols[k], i+1, e.adjust)
		}
		for _, c := range extra {
			z, _ := implicitDefault(c)
			e.w(", " + z)
		}
		for _, c := range nows {
			e.w(", " + e.nowValue(c))
		}
		if missingAuto != nil {
			e.w(", " + autoIncFunc + "(NULL)")
		}
		e.w(")")
	}
	if e.out.RowsApart {
		e.w(" ON CONFLICT DO NOTHING")
	}
}

// rowsApart: an INSERT IGNORE ... VALUES into a table whose CHECK constraints or
// foreign keys may refuse a row (Emitted.RowsApart).
func rowsApart(x *ast.InsertStmt, def *catalog.Table) bool {
	if x.IsReplace || len(x.OnDuplicate) > 0 || x.Select != nil || len(x.Lists) == 0 || def == nil {
		return false
	}
	if len(def.ForeignKeys) > 0 {
		return true
	}
	for _, c := range def.Checks {
		if !c.NotEnforced {
			return true
		}
	}
	return false
}

func isDefault(x ast.ExprNode) bool {
	d, ok := x.(*ast.DefaultExpr)
	return ok && d.Name == nil
}

// cell renders one value written into col: DEFAULT as the column's default, a
// literal as what the column keeps of it, 0 into AUTO_INCREMENT as the next id.
// adjust: see emitter.adjust.
func (e *emitter) cell(x ast.ExprNode, col *catalog.Column, row int, adjust bool) {
	zeroGenerates := col.AutoIncrement && !e.c.mode.NoAutoValueOnZero
	if col.AutoIncrement {
		if zeroGenerates {
			e.w(autoIncFunc + "(")
		} else {
			e.w(autoIncNullFunc + "(")
		}
		defer e.w(")")
	}
	if isDefault(x) {
		e.defaultValue(col, adjust)
		return
	}
	if pm, ok := x.(*driver.ParamMarkerExpr); ok && zeroGenerates {
		e.out.ZeroToNull = append(e.out.ZeroToNull, e.params[pm.Offset]-1)
	}
	if zeroGenerates && isZeroLiteral(x) {
		e.w("NULL") // MySQL generates the next id for 0, SQLite for NULL
		return
	}
	if pm, ok := x.(*driver.ParamMarkerExpr); ok && CellConverted(col) {
		// Its value is converted as a literal of it is, when it is bound
		// (Emitted.StoreParams); what that leaves meets the conversion of a
		// computed value, as a literal the compiler does not convert does,
		// where that gives a converted value back as it is.
		n := e.params[pm.Offset]
		wrapped := wrappedCell(col)
		e.out.CellParams = append(e.out.CellParams, CellParam{Index: n - 1, Col: col, Row: row, Wrapped: wrapped})
		if !wrapped {
			e.w("?" + strconv.Itoa(n))
			return
		}
	}
	if e.literalCell(x, col, nil, row) {
		return
	}
	e.storedExpr(x, col, nil, row)
}

// storedExpr renders a computed value written into col (row: its row of a
// VALUES list, 0 for others) as MySQL stores it: adjusted to what the column can
// hold where the statement adjusts values (adjust.go); into ENUM, SET, JSON and
// binary string columns converted (storedTyped); into a temporal column in its
// spelling (a TIMESTAMP in UTC); a decimal or real into an
// integer column rounded half away from zero; into an exact DECIMAL column
// rounded to its scale.
func (e *emitter) storedExpr(x ast.ExprNode, col *catalog.Column, s *scope, row int) {
	if s == nil {
		s = e.c.row // a trigger's NEW and OLD
	}
	if e.adjust && !isNullLiteral(x) && e.adjusted(x, col, s, row) {
		return
	}
	if col != nil && col.Type.Wide() && e.storedU64(x, col, s) {
		return
	}
	if col != nil && temporalColumn(col.Type) {
		e.storedTemporal(x, col, s)
		return
	}
	if col != nil && e.storedTyped(x, col, s) {
		return
	}
	if col != nil && !col.Type.Zerofill {
		if _, _, isInt := intRange(col.Type); isInt {
			t := e.typeOf(x, s)
			switch {
			case t.isDecimal() || t.isApprox():
				e.decCall("binlite_int_store", s, "", x)
				return
			case e.yieldsStored(x, s):
				// from 2^63 beyond the column (1264); below, its value checks answer
				e.w("binlite_u64_narrow(")
				e.exprStored(x, s)
				e.w(", " + sqlString(col.Name) + ")")
				return
			}
		}
	}
	if col == nil || !col.ExactDecimal() {
		switch {
		case col != nil && e.typeOf(x, s).Wide() && col.Type.IsTextual():
			e.digitArg(x, s) // a BIGINT UNSIGNED into text: its digits
		case col != nil && (col.Type.Base == "double" || col.Type.Base == "float"):
			e.realArg(x, s)
		default:
			e.expr(x, s)
		}
		return
	}
	e.decCall("binlite_dec_keep", s, ", "+strconv.Itoa(col.Type.Length)+", "+strconv.Itoa(col.Type.Scale)+", "+sqlString(col.Name)+", "+strconv.Itoa(row), x)
}

func isZeroLiteral(x ast.ExprNode) bool {
	v, ok := x.(*driver.ValueExpr)
	if !ok {
		return false
	}
	switch v.Kind() {
	case driver.KindInt64:
		return v.GetInt64() == 0
	case driver.KindUint64:
		return v.GetUint64() == 0
	case driver.KindString, driver.KindMysqlDecimal:
		f, err := strconv.ParseFloat(strings.TrimSpace(v.GetString()+decimalText(v)), 64)
		return err == nil && f == 0
	}
	return false
}

func decimalText(v *driver.ValueExpr) string {
	if v.Kind() == driver.KindMysqlDecimal {
		return v.GetMysqlDecimal().String()
	}
	return ""
}

// defaultValue renders col's default where a row names DEFAULT beside values;
// adjust: a NOT NULL column without one gets its implicit default with a warning
// instead of failing the statement.
func (e *emitter) defaultValue(col *catalog.Column, adjust bool) {
	d := col.Default
	switch {
	case d == nil && (col.Nullable || col.AutoIncrement):
		e.w("NULL")
	case d == nil:
		if !adjust {
			e.fail(mysqlerr.New(mysqlerr.ErNoDefaultForField, "Field '%s' doesn't have a default value", col.Name))
			return
		}
		z, ok := implicitDefault(col)
		if !ok {
			e.fail(notYet("the implicit default of a %s column", col.Type.Base))
			return
		}
		e.w(z)
		e.notes = append(e.notes, mysqlerr.Warn(mysqlerr.ErNoDefaultForField, "Field '%s' doesn't have a default value", col.Name))
	case d.Null:
		e.w("NULL")
	case nowDefault(col):
		e.w(e.nowValue(col))
	case d.Expr != "" || d.Bits:
		e.fail(notYet("DEFAULT of an expression default"))
	default:
		if n, err := strconv.ParseUint(d.Lit, 10, 64); err == nil && col.Type.Wide() {
			e.w(u64.Literal(n)) // from 2^63 the stored form
			return
		}
		if _, err := strconv.ParseFloat(d.Lit, 64); err == nil && numericBase(col.Type.Base) {
			e.w(d.Lit)
			return
		}
		lit := &driver.ValueExpr{}
		lit.SetValue(d.Lit)
		if col.Type.Base == "timestamp" {
			// The catalog keeps a TIMESTAMP's default as stored, in UTC.
			defer func(tz int) { e.c.tz = tz }(e.c.tz)
			e.c.tz = 0
		}
		if !e.storedLiteral(lit, col, 1) {
			e.w(sqlString(d.Lit))
		}
	}
}

// setList renders SET col = value, ...: MySQL assigns from left to right, and a
// value names the new value of a column assigned before it (subst).
func (e *emitter) setList(list []*ast.Assignment, target string, def *catalog.Table, s *scope) {
	e.runtimeLiterals = true // warnings for each row changed
	var order []string
	vals := map[string]string{}
	for _, a := range list {
		if a.Column.Table.O != "" && !strings.EqualFold(a.Column.Table.O, target) {
			e.fail(notYet("SET of another table's column"))
			return
		}
		name := a.Column.Name.O
		var col *catalog.Column
		if def != nil {
			c, ok := def.Column(name)
			if !ok {
				e.fail(mysqlerr.New(mysqlerr.ErBadField, "Unknown column '%s' in 'field list'", name))
				return
			}
			if c.Generated != nil {
				e.fail(notYet("SET of a generated column"))
				return
			}
			col, name = c, c.Name
		}
		saved := e.b
		e.b = &strings.Builder{}
		e.subst, e.target = vals, target
		switch {
		case isDefault(a.Expr) && col != nil:
			e.defaultValue(col, e.adjust)
		case e.literalCell(a.Expr, col, s, 0):
		default:
			e.storedExpr(a.Expr, col, s, 0)
		}
		e.subst = nil
		v := e.b.String()
		e.b = saved
		key := strings.ToLower(name)
		if _, seen := vals[key]; !seen {
			order = append(order, name)
		}
		vals[key] = v
	}
	e.w(" SET ")
	for i, name := range order {
		if i > 0 {
			e.w(", ")
		}
		e.w(quoteIdent(name) + " = " + vals[strings.ToLower(name)])
	}
}

// rowidSafe: the table's rowid is SQLite's, not a column of that name.
func rowidSafe(def *catalog.Table) bool {
	if def == nil {
		return false
	}
	for _, c := range def.Columns {
		switch strings.ToLower(c.Name) {
		case "rowid", "_rowid_", "oid":
			return false
		}
	}
	return true
}

// update renders UPDATE. ORDER BY ... LIMIT picks its rows by rowid; ORDER BY
// alone only orders the writes, which SQLite does in its own order.
func (e *emitter) update(x *ast.UpdateStmt) {
	if x.With != nil {
		e.fail(notYet("WITH ... UPDATE"))
		return
	}
	s := e.c.newScope(x.TableRefs, nil)
	ts, tn, single := e.singleTable(x.TableRefs.TableRefs)
	if !single || x.MultipleTable {
		e.multiUpdate(x, s)
		return
	}
	table := e.tableName(tn)
	def := s.sources[0].def
	if e.c.tz != 0 && def != nil && localOnUpdate(def) {
		e.fail(notYet("UPDATE of a DATETIME ON UPDATE CURRENT_TIMESTAMP in a time zone other than UTC"))
		return
	}
	alias := ts.AsName.O
	target := tn.Name.O
	if alias != "" {
		target = alias
	}
	e.w("UPDATE ")
	if x.IgnoreErr {
		e.w("OR IGNORE ")
	}
	e.w(table)
	if alias != "" {
		e.w(" AS " + quoteIdent(alias))
	}
	e.setList(x.List, target, def, s)
	if x.Order != nil {
		e.orderedRows(x, table, alias, def, s)
		return
	}
	e.rowFilter(x.Where, x.Order, x.Limit, table, alias, def, s)
	e.out.Point = e.point(x, x.Where, target, def)
	if x.IgnoreErr {
		// The WHERE's operators are parenthesised: AND binds to all of it.
		if x.Where != nil || x.Limit != nil {
			e.w(" AND binlite_counted()")
		} else {
			e.w(" WHERE binlite_counted()")
		}
		e.out.CountsRows = true
	}
}

// orderedRows ends an UPDATE ... ORDER BY: MySQL writes the rows in that order
// and checks each row's unique keys as it writes it (UPDATE t SET id = id + 1
// ORDER BY id DESC succeeds), where SQLite writes them in its own order. The
// engine reads the rowids in order (Emitted.EachRow) and runs the UPDATE for
// each.
func (e *emitter) orderedRows(x *ast.UpdateStmt, table, alias string, def *catalog.Table, s *scope) {
	if !rowidSafe(def) {
		e.fail(notYet("ORDER BY on a table with a rowid column"))
		return
	}
	e.w(" WHERE rowid = ?" + strconv.Itoa(len(e.params)+1))
	saved := e.b
	e.b = &strings.Builder{}
	e.w("SELECT rowid FROM " + table)
	if alias != "" {
		e.w(" AS " + quoteIdent(alias))
	}
	if x.Where != nil {
		e.w(" WHERE ")
		e.where(x.Where, s)
	}
	e.w(" ")
	e.orderBy(x.Order, s)
	if x.Limit != nil {
		e.limit(x.Limit, s)
	}
	e.out.EachRow = e.b.String()
	e.b = saved
}

// rowFilter renders an UPDATE's or DELETE's WHERE, with ORDER BY ... LIMIT as
// a rowid subquery.
func (e *emitter) rowFilter(where ast.ExprNode, order *ast.OrderByClause, limit *ast.Limit, table, alias string, def *catalog.Table, s *scope) {
	if limit == nil {
		if where != nil {
			e.w(" WHERE ")
			e.where(where, s)
		}
		return
	}
	if !rowidSafe(def) {
		e.fail(notYet("LIMIT on a table with a rowid column"))
		return
	}
	e.w(" WHERE rowid IN (SELECT rowid FROM " + table)
	if alias != "" {
		e.w(" AS " + quoteIdent(alias))
	}
	if where != nil {
		e.w(" WHERE ")
		e.where(where, s)
	}
	if order != nil {
		e.w(" ")
		e.orderBy(order, s)
	}
	e.limit(limit, s)
	e.w(")")
}

// multiUpdate renders UPDATE over a join that writes one table: its rows are
// found by rowid through the join (SET values that read only the target), or
// with SQLite's UPDATE ... FROM over inner joins.
func (e *emitter) multiUpdate(x *ast.UpdateStmt, s *scope) {
	if x.Order != nil || x.Limit != nil {
		what := "ORDER BY"
		if x.Order == nil {
			what = "LIMIT"
		}
		e.fail(mysqlerr.New(mysqlerr.ErWrongUsage, "Incorrect usage of UPDATE and %s", what))
		return
	}
	var targets []string
	byTarget := map[string][]*ast.Assignment{}
	for _, a := range x.List {
		q := a.Column.Table.O
		if q == "" {
			q = e.ownerOf(a.Column.Name.O, s)
		}
		if q == "" {
			e.fail(notYet("multi-table UPDATE of a column no single table has"))
			return
		}
		key := strings.ToLower(q)
		if _, seen := byTarget[key]; !seen {
			targets = append(targets, q)
		}
		byTarget[key] = append(byTarget[key], a)
	}
	if len(targets) > 1 {
		e.multiUpdateMany(x, s, targets, byTarget)
		return
	}
	target := targets[0]
	ts, tn := findSource(x.TableRefs.TableRefs, target)
	if ts == nil {
		e.fail(notYet("multi-table UPDATE target"))
		return
	}
	table := e.tableName(tn)
	_, def := e.tableDef(tn)
	if !rowidSafe(def) {
		e.fail(notYet("multi-table UPDATE of a table with a rowid column"))
		return
	}
	if e.c.tz != 0 && localOnUpdate(def) {
		e.fail(notYet("UPDATE of a DATETIME ON UPDATE CURRENT_TIMESTAMP in a time zone other than UTC"))
		return
	}
	alias := quoteIdent(target)
	if !onlyReads(x.List, target, s) {
		e.updateFrom(x, ts, table, target, def, s)
		return
	}
	e.w("UPDATE ")
	if x.IgnoreErr {
		e.w("OR IGNORE ")
	}
	e.w(table + " AS " + alias)
	e.setList(x.List, target, def, s)
	e.w(" WHERE " + alias + ".rowid IN (SELECT " + alias + ".rowid FROM ")
	e.tableRefs(x.TableRefs.TableRefs, s)
	if x.Where != nil {
		e.w(" WHERE ")
		e.where(x.Where, s)
	}
	e.w(")")
}

// ownerOf names the table (alias) of s whose definition has column name, "" if
// none or several do.
func (e *emitter) ownerOf(name string, s *scope) string {
	owner := ""
	for _, src := range s.sources {
		if src.def == nil {
			return ""
		}
		if _, ok := src.def.Column(name); ok {
			if owner != "" {
				return ""
			}
			owner = src.name
		}
	}
	return owner
}

// onlyReads reports whether the SET values name only target's columns.
func onlyReads(list []*ast.Assignment, target string, s *scope) bool {
	ok := true
	for _, a := range list {
		a.Expr.Accept(&columnVisitor{fn: func(cn *ast.ColumnName) {
			if cn.Table.O != "" {
				ok = ok && strings.EqualFold(cn.Table.O, target)
				return
			}
			for _, src := range s.sources {
				if strings.EqualFold(src.name, target) || src.def == nil {
					continue
				}
				if _, has := src.def.Column(cn.Name.O); has {
					ok = false
				}
			}
		}})
	}
	return ok
}

type columnVisitor struct{ fn func(*ast.ColumnName) }

func (v *columnVisitor) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.ColumnNameExpr:
		v.fn(x.Name)
	case *ast.SubqueryExpr:
		return n, true // its own scope
	}
	return n, false
}

func (v *columnVisitor) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// findSource finds the table source named name (alias or table name) in a join.
func findSource(n ast.ResultSetNode, name string) (*ast.TableSource, *ast.TableName) {
	switch x := n.(type) {
	case *ast.Join:
		if ts, tn := findSource(x.Left, name); ts != nil {
			return ts, tn
		}
		if x.Right != nil {
			return findSource(x.Right, name)
		}
	case *ast.TableSource:
		tn, ok := x.Source.(*ast.TableName)
		if !ok {
			return nil, nil
		}
		n := x.AsName.O
		if n == "" {
			n = tn.Name.O
		}
		if strings.EqualFold(n, name) {
			return x, tn
		}
	}
	return nil, nil
}

// delete renders DELETE, single- and multi-table (one target).
func (e *emitter) delete(x *ast.DeleteStmt) {
	if x.With != nil {
		e.fail(notYet("WITH ... DELETE"))
		return
	}
	s := e.c.newScope(x.TableRefs, nil)
	if !x.IsMultiTable {
		ts, tn, ok := e.singleTable(x.TableRefs.TableRefs)
		if !ok {
			e.fail(notYet("DELETE target"))
			return
		}
		table := e.tableName(tn)
		e.w("DELETE FROM " + table)
		if ts.AsName.O != "" {
			e.w(" AS " + quoteIdent(ts.AsName.O))
		}
		e.rowFilter(x.Where, x.Order, x.Limit, table, ts.AsName.O, s.sources[0].def, s)
		target := tn.Name.O
		if ts.AsName.O != "" {
			target = ts.AsName.O
		}
		if x.Order == nil {
			e.out.Point = e.point(x, x.Where, target, s.sources[0].def)
		}
		return
	}
	if x.Tables == nil || len(x.Tables.Tables) == 0 {
		e.fail(notYet("multi-table DELETE without targets"))
		return
	}
	if len(x.Tables.Tables) > 1 {
		e.multiDeleteMany(x, s)
		return
	}
	target := x.Tables.Tables[0].Name.O
	_, tn := findSource(x.TableRefs.TableRefs, target)
	if tn == nil {
		e.fail(notYet("multi-table DELETE target"))
		return
	}
	_, def := e.tableDef(tn)
	if !rowidSafe(def) {
		e.fail(notYet("multi-table DELETE from a table with a rowid column"))
		return
	}
	alias := quoteIdent(target)
	e.w("DELETE FROM " + e.tableName(tn) + " AS " + alias)
	e.w(" WHERE " + alias + ".rowid IN (SELECT " + alias + ".rowid FROM ")
	e.tableRefs(x.TableRefs.TableRefs, s)
	if x.Where != nil {
		e.w(" WHERE ")
		e.where(x.Where, s)
	}
	e.w(")")
}

// numericBase reports whether a column type holds numbers.
func numericBase(base string) bool {
	switch base {
	case "tinyint", "smallint", "mediumint", "int", "bigint", "decimal", "float", "double", "year":
		return true
	}
	return false
}

// implicitColumns are the NOT NULL columns without a default an INSERT IGNORE
// (or one without strict mode) leaves out: MySQL stores their implicit default (0,
// the empty string) with warning 1364.
func (e *emitter) implicitColumns(x *ast.InsertStmt, def *catalog.Table) []*catalog.Column {
	if !e.adjust || def == nil || len(x.Columns) == 0 {
		return nil
	}
	named := map[string]bool{}
	for _, cn := range x.Columns {
		named[strings.ToLower(cn.Name.O)] = true
	}
	var out []*catalog.Column
	for i := range def.Columns {
		c := &def.Columns[i]
		if named[strings.ToLower(c.Name)] || c.Nullable || c.AutoIncrement || c.Default != nil || c.Generated != nil {
			continue
		}
		if _, ok := implicitDefault(c); !ok {
			// MySQL stores the zero value of a temporal type (0000-00-00 ...), which
			// binlite does not store yet; the text translation would leave the row out.
			e.fail(mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'the implicit default of %s column %s (the zero value)'", strings.ToUpper(c.Type.Base), c.Name))
			return nil
		}
		out = append(out, c)
	}
	return out
}

// updateFrom renders a multi-table UPDATE whose values read other tables as
// SQLite's UPDATE ... FROM: the other tables of an inner join in FROM, the join
// conditions in WHERE.
func (e *emitter) updateFrom(x *ast.UpdateStmt, target *ast.TableSource, table, alias string, def *catalog.Table, s *scope) {
	var others []*ast.TableSource
	var conds []ast.ExprNode
	if !innerJoin(x.TableRefs.TableRefs, &others, &conds) {
		e.fail(notYet("multi-table UPDATE over an outer join whose values read other tables"))
		return
	}
	e.w("UPDATE ")
	if x.IgnoreErr {
		e.w("OR IGNORE ")
	}
	e.w(table + " AS " + quoteIdent(alias))
	e.setList(x.List, alias, def, s)
	e.w(" FROM ")
	n := 0
	for _, ts := range others {
		if ts == target {
			continue
		}
		if n > 0 {
			e.w(", ")
		}
		n++
		e.tableRefs(ts, s)
	}
	if x.Where != nil {
		conds = append(conds, x.Where)
	}
	for i, c := range conds {
		if i == 0 {
			e.w(" WHERE ")
		} else {
			e.w(" AND ")
		}
		e.w("(")
		e.expr(c, s)
		e.w(")")
	}
}

// innerJoin flattens a tree of inner joins into its tables and ON conditions;
// false if it holds another kind of join.
func innerJoin(n ast.ResultSetNode, tables *[]*ast.TableSource, conds *[]ast.ExprNode) bool {
	switch x := n.(type) {
	case *ast.Join:
		if x.Right == nil {
			return innerJoin(x.Left, tables, conds)
		}
		if x.Tp != ast.CrossJoin || x.NaturalJoin || len(x.Using) > 0 {
			return false
		}
		if !innerJoin(x.Left, tables, conds) {
			return false
		}
		if x.Right != nil && !innerJoin(x.Right, tables, conds) {
			return false
		}
		if x.On != nil {
			*conds = append(*conds, x.On.Expr)
		}
		return true
	case *ast.TableSource:
		*tables = append(*tables, x)
		return true
	}
	return false
}

// writesOwnDefaults: a table with a default SQLite does not hold (it reads other
// columns, or ALTER changed it), which sqlcompat's INSERT writes itself.
func writesOwnDefaults(def *catalog.Table) bool {
	for i := range def.Columns {
		c := &def.Columns[i]
		if c.DefaultSupplied || c.Default != nil && (c.Default.Expr != "" && !nowDefault(c) || len(c.Default.Refs) > 0) {
			return true
		}
	}
	return false
}

// tableDef is a table reference's schema and definition (nil if it has none).
func (e *emitter) tableDef(tn *ast.TableName) (string, *catalog.Table) {
	schema := tn.Schema.O
	if schema == "" {
		schema = e.c.db
	}
	def, _ := e.c.cat.Table(schema, tn.Name.O)
	return schema, def
}
