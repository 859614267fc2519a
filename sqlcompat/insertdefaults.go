package sqlcompat

import (
	"strconv"
	"strings"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
)

// Defaults and generated columns in writes. SQLite has no DEFAULT keyword in
// VALUES, no DEFAULT(col) and refuses values for generated columns, and its table
// does not hold every MySQL default (catalog.Table.InsertDefaults), so an INSERT
// is rewritten from the table's definition:
//
//   - a column whose value is DEFAULT in every row is left out (its default
//     applies); a generated column must be left out so (else 3105);
//   - DEFAULT among values is the default's SQLite expression;
//   - the columns whose default the INSERT must write are added with their
//     expressions; when an expression reads other columns of the row, the rows
//     become a derived table that names the columns, computed in column order:
//     INSERT INTO t (qty, doubled) SELECT "qty", "doubled" FROM (SELECT *,
//     (qty * 2) AS "doubled" FROM (SELECT column1 AS "qty" FROM (VALUES (?)))).
//
// Placeholders keep their order, so the statement's parameters are unchanged.

// insertShape is where the parts of an INSERT are among its tokens.
type insertShape struct {
	schema, table       string
	tableEnd            int // the table name's last token
	listOpen, listClose int // the column list's parentheses; listOpen -1 if none
	cols                []string
	values              int        // VALUES, -1 if none
	tuples              [][][2]int // each row's value ranges
	parens              [][2]int   // each row's parentheses
	set                 int        // SET of the SET form, -1 if none
	source              int        // the first token of INSERT ... SELECT's query, -1 if none
	bodyEnd, ondup      int
	ignore              bool
	// autoCol is the AUTO_INCREMENT column the statement leaves out (quoted),
	// "" if none; autoDone: the rewrite added it (with AutoIncFunc(NULL)).
	autoCol  string
	autoDone bool
}

// insertDefaults rewrites the INSERT for the defaults and generated columns of
// its table; rendered reports that it also rendered the SET form.
func (d *dmlState) insertDefaults(sh *insertShape) (rendered bool, err error) {
	var def *catalog.Table
	if d.p.ctx.TableDef != nil {
		def = d.p.ctx.TableDef(sh.schema, sh.table)
	}
	lo := sh.tableEnd + 1
	if def == nil {
		if d.hasDefaultWord(lo, len(d.toks)) || d.emptyRow(sh) {
			return false, (&Unsupported{What: "DEFAULT in a write to a table without a stored definition"}).Err()
		}
		return false, nil
	}
	if err := d.defaultFuncs(def, lo, len(d.toks)); err != nil {
		return false, err
	}
	given := sh.cols
	if sh.listOpen < 0 && sh.set < 0 {
		given = nil
		for _, c := range def.Columns {
			given = append(given, c.Name)
		}
	}
	if sh.source >= 0 && sh.source < sh.bodyEnd {
		return false, d.selectDefaults(sh, def, given)
	}
	if sh.values < 0 && sh.set < 0 || len(sh.tuples) == 0 {
		return false, nil // SQLite refuses what is not an INSERT
	}
	for _, p := range sh.parens {
		if p[1] >= len(d.toks) {
			return false, nil // an unclosed row: SQLite's syntax error
		}
	}
	for n, row := range sh.tuples {
		empty := len(row) == 1 && row[0][0] == row[0][1]
		if empty && sh.listOpen >= 0 && len(given) > 0 || !empty && len(row) != len(given) {
			return false, mysqlerr.New(mysqlerr.ErWrongValueCountOnRow, "Column count doesn't match value count at row %d", n+1)
		}
	}
	// Positions whose value is DEFAULT in every row are left out.
	keep := make([]bool, len(given))
	dropped, anyDefault := false, false
	for k, name := range given {
		col, ok := def.Column(name)
		if !ok {
			return false, nil // SQLite names the unknown column
		}
		allDefault, anyValue := true, false
		for _, row := range sh.tuples {
			if len(row) == 1 && row[0][0] == row[0][1] { // ()
				continue
			}
			if d.isDefaultWord(row[k]) {
				anyDefault = true
				continue
			}
			allDefault, anyValue = false, true
		}
		if col.Generated != nil && anyValue {
			return false, mysqlerr.New(mysqlerr.ErNonDefaultValueForGeneratedColumn, "The value specified for generated column '%s' in table '%s' is not allowed.", col.Name, def.Name)
		}
		keep[k] = !allDefault
		dropped = dropped || allDefault
	}
	var kept []string
	for k, name := range given {
		if keep[k] {
			kept = append(kept, name)
		}
	}
	extra, err := def.InsertDefaults(kept, !sh.ignore)
	if err != nil {
		return false, err
	}
	if !dropped && len(extra) == 0 && !anyDefault && !d.emptyRow(sh) {
		return false, nil
	}
	if sh.autoCol != "" && !d.emptyRow(sh) {
		name := strings.ReplaceAll(strings.Trim(sh.autoCol, `"`), `""`, `"`)
		extra = append(extra, catalog.RowDefault{Column: name, SQL: AutoIncFunc + "(NULL)"})
		sh.autoDone = true
	}
	// DEFAULT among values.
	for _, row := range sh.tuples {
		for k, r := range row {
			if k < len(given) && keep[k] && d.isDefaultWord(r) {
				col, _ := def.Column(given[k])
				sql, refs, err := col.DefaultSQL()
				if err != nil {
					return false, err
				}
				if len(refs) > 0 {
					return false, (&Unsupported{What: "DEFAULT for column " + col.Name + " among values in other rows"}).Err()
				}
				d.out[r[0]] = sql
			}
		}
	}
	if len(kept) == 0 && len(extra) == 0 {
		// Some column must be named: the first one that is not generated, with its default.
		for i := range def.Columns {
			c := &def.Columns[i]
			if c.Generated == nil {
				sql, refs, err := c.DefaultSQL()
				if err != nil {
					return false, err
				}
				extra = append(extra, catalog.RowDefault{Column: c.Name, SQL: sql, Refs: refs})
				break
			}
		}
	}
	list := quotedList(kept, extra)
	wrap := needsRow(extra)
	if sh.set >= 0 {
		var vals []string
		for k, r := range sh.tuples[0] {
			if keep[k] {
				vals = append(vals, d.emit(r[0], r[1]))
			}
		}
		var rows string
		switch {
		case !wrap:
			rows = "VALUES (" + strings.Join(append(vals, extraSQL(extra)...), ", ") + ")"
		case len(vals) == 0:
			pre, post := rowSelect(kept, extra, false, sh.ondup >= 0)
			rows = pre + "VALUES (NULL)" + post
		default:
			pre, post := rowSelect(kept, extra, false, sh.ondup >= 0)
			rows = pre + "VALUES (" + strings.Join(vals, ", ") + ")" + post
		}
		d.out[sh.set] = "(" + list + ") " + rows
		d.skipRange(sh.set+1, sh.bodyEnd-1)
		return true, nil
	}
	d.setColumnList(sh, list)
	for t, row := range sh.tuples {
		vals := 0
		for k, r := range row {
			if r[0] == r[1] {
				continue
			}
			if dropped && k+1 < len(row) {
				d.skip[r[1]] = true // the comma: the kept values get their own
			}
			if !keep[k] {
				d.skipRange(r[0], r[1]-1)
				continue
			}
			if dropped && vals > 0 {
				d.after[r[0]-1] += ","
			}
			vals++
		}
		closeTok := sh.parens[t][1]
		switch {
		case !wrap && len(extra) > 0:
			sep := ""
			if vals > 0 {
				sep = ", "
			}
			d.out[closeTok] = sep + strings.Join(extraSQL(extra), ", ") + ")"
		case wrap && vals == 0:
			d.out[closeTok] = "NULL)"
		}
	}
	if wrap {
		pre, post := rowSelect(kept, extra, false, sh.ondup >= 0)
		d.out[sh.values] = pre + "VALUES"
		last := sh.parens[len(sh.parens)-1][1]
		d.after[last] = post + d.after[last]
	}
	return false, nil
}

// selectDefaults adds to INSERT ... SELECT the columns whose default the INSERT
// must write.
func (d *dmlState) selectDefaults(sh *insertShape, def *catalog.Table, given []string) error {
	for _, name := range given {
		if col, ok := def.Column(name); ok && col.Generated != nil {
			return mysqlerr.New(mysqlerr.ErNonDefaultValueForGeneratedColumn, "The value specified for generated column '%s' in table '%s' is not allowed.", col.Name, def.Name)
		}
	}
	extra, err := def.InsertDefaults(given, !sh.ignore)
	if err != nil || len(extra) == 0 {
		return err
	}
	d.setColumnList(sh, quotedList(given, extra))
	var pre, post string
	if !needsRow(extra) {
		pre, post = "SELECT *, "+strings.Join(extraSQL(extra), ", ")+" FROM (", ")"
	} else {
		// The query's columns get the names of the columns they go into: a first,
		// empty member of a UNION names them.
		names := make([]string, len(given))
		for k, g := range given {
			names[k] = "NULL AS " + quoteIdent(g)
		}
		p, q := rowSelect(given, extra, true, false)
		pre = p + "SELECT " + strings.Join(names, ", ") + " WHERE 0 UNION ALL SELECT * FROM ("
		post = ")" + q
	}
	if sh.ondup >= 0 {
		post += " WHERE true"
	}
	d.after[sh.source-1] += " " + pre
	d.after[sh.bodyEnd-1] += post
	return nil
}

// setColumnList makes the INSERT's column list list.
func (d *dmlState) setColumnList(sh *insertShape, list string) {
	if sh.listOpen >= 0 {
		d.skipRange(sh.listOpen+1, sh.listClose-1)
		d.after[sh.listOpen] = list + d.after[sh.listOpen]
		return
	}
	d.after[sh.tableEnd] += " (" + list + ")"
}

// rowSelect is the derived table around rows whose columns are given (in order:
// column1, column2 ... of VALUES, or already named so) that adds the columns of
// extra, an expression that reads the row's columns in a layer of its own: text
// before and after the rows. ondup ends it with the WHERE that keeps SQLite from
// reading ON CONFLICT as a join constraint.
func rowSelect(given []string, extra []catalog.RowDefault, named, ondup bool) (string, string) {
	var first []string
	for k, g := range given {
		if named {
			first = append(first, quoteIdent(g))
		} else {
			first = append(first, "column"+strconv.Itoa(k+1)+" AS "+quoteIdent(g))
		}
	}
	var layers []catalog.RowDefault
	for _, e := range extra {
		if len(e.Refs) == 0 {
			first = append(first, e.SQL+" AS "+quoteIdent(e.Column))
		} else {
			layers = append(layers, e)
		}
	}
	if len(first) == 0 {
		first = []string{"NULL AS binlite_row"}
	}
	pre, post := "SELECT "+strings.Join(first, ", ")+" FROM (", ")"
	for _, e := range layers {
		pre, post = "SELECT *, "+e.SQL+" AS "+quoteIdent(e.Column)+" FROM ("+pre, post+")"
	}
	all := append([]string(nil), given...)
	for _, e := range extra {
		all = append(all, e.Column)
	}
	for k, a := range all {
		all[k] = quoteIdent(a)
	}
	pre, post = "SELECT "+strings.Join(all, ", ")+" FROM ("+pre, post+")"
	if ondup {
		post += " WHERE true"
	}
	return pre, post
}

func quotedList(given []string, extra []catalog.RowDefault) string {
	var out []string
	for _, g := range given {
		out = append(out, quoteIdent(g))
	}
	for _, e := range extra {
		out = append(out, quoteIdent(e.Column))
	}
	return strings.Join(out, ", ")
}

func extraSQL(extra []catalog.RowDefault) []string {
	out := make([]string, len(extra))
	for k, e := range extra {
		out[k] = e.SQL
	}
	return out
}

func needsRow(extra []catalog.RowDefault) bool {
	for _, e := range extra {
		if len(e.Refs) > 0 {
			return true
		}
	}
	return false
}

// isDefaultWord reports whether the value range r is the bare keyword DEFAULT.
func (d *dmlState) isDefaultWord(r [2]int) bool {
	return r[1]-r[0] == 1 && d.toks[r[0]].is("DEFAULT")
}

// hasDefaultWord reports whether DEFAULT appears among tokens [lo, hi).
func (d *dmlState) hasDefaultWord(lo, hi int) bool {
	for j := lo; j < hi && j < len(d.toks); j++ {
		if d.toks[j].is("DEFAULT") {
			return true
		}
	}
	return false
}

// emptyRow reports whether some row of the INSERT is ().
func (d *dmlState) emptyRow(sh *insertShape) bool {
	for _, row := range sh.tuples {
		if len(row) == 1 && row[0][0] == row[0][1] {
			return true
		}
	}
	return false
}

// defaultFuncs replaces DEFAULT(col) among tokens [lo, hi) by the default of def's
// column. MySQL refuses it for a column whose default is an expression (3773).
func (d *dmlState) defaultFuncs(def *catalog.Table, lo, hi int) error {
	toks := d.toks
	for j := lo; j+3 < hi && j+3 < len(toks); j++ {
		if !toks[j].is("DEFAULT") || !toks[j+1].isOp("(") || !toks[j+2].isName() || !toks[j+3].isOp(")") {
			continue
		}
		col, ok := def.Column(toks[j+2].val2())
		if !ok {
			return mysqlerr.New(mysqlerr.ErBadField, "Unknown column '%s' in 'field list'", toks[j+2].val2())
		}
		var sql string
		switch {
		case col.Default != nil && strings.HasPrefix(col.Default.Expr, "("):
			return mysqlerr.New(mysqlerr.ErDefaultAsValGenerated, "DEFAULT function cannot be used with default value expressions")
		case col.Generated != nil || col.Default != nil && col.Default.Expr != "":
			return (&Unsupported{What: "DEFAULT(" + col.Name + ")"}).Err()
		case col.AutoIncrement && col.Default == nil:
			sql = "0"
		default:
			var err error
			if sql, _, err = col.DefaultSQL(); err != nil {
				return err
			}
		}
		d.out[j] = "(" + sql + ")"
		d.skipRange(j+1, j+3)
		j += 3
	}
	return nil
}

// noDefaultFuncs refuses DEFAULT(col) outside INSERT and UPDATE, where binlite
// does not know the column's table.
func (d *dmlState) noDefaultFuncs() error {
	for j := 0; j+1 < len(d.toks); j++ {
		if d.toks[j].is("DEFAULT") && d.toks[j+1].isOp("(") {
			return (&Unsupported{What: "DEFAULT(col) outside INSERT and UPDATE"}).Err()
		}
	}
	return nil
}

// updateDefaults handles UPDATE t SET col = DEFAULT and DEFAULT(col), and refuses
// writing a generated column (3105; SET col = DEFAULT leaves it alone).
func (d *dmlState) updateDefaults() error {
	toks := d.toks
	set, tbl := -1, -1
	for j := 1; j < len(toks); j++ {
		if toks[j].is("SET") {
			set = j
			break
		}
		if tbl < 0 && toks[j].isName() && !toks[j].is("IGNORE") && !toks[j].is("LOW_PRIORITY") {
			tbl = j
		}
	}
	if set < 0 || tbl < 0 || d.p.ctx.TableDef == nil {
		return d.noDefaultFuncs()
	}
	schema, table := d.p.ctx.DB, toks[tbl].val2()
	if tbl+2 < set && toks[tbl+1].isOp(".") {
		schema, table = toks[tbl].val2(), toks[tbl+2].val2()
	}
	def := d.p.ctx.TableDef(schema, table)
	if def == nil {
		if d.hasDefaultWord(set, len(toks)) {
			return (&Unsupported{What: "DEFAULT in a write to a table without a stored definition"}).Err()
		}
		return nil
	}
	end, depth := len(toks), 0
	for j := set + 1; j < len(toks) && end == len(toks); j++ {
		switch {
		case toks[j].isOp("("):
			depth++
		case toks[j].isOp(")"):
			depth--
		case depth == 0 && toks[j].is("WHERE"):
			end = j
		}
	}
	if err := d.defaultFuncs(def, set+1, len(toks)); err != nil {
		return err
	}
	items := splitTop(toks, set+1, end)
	assigned := map[string]bool{}
	for _, r := range items {
		if eq := r[0] + 1; eq < r[1] && toks[eq].isOp("=") {
			assigned[strings.ToLower(toks[r[0]].val2())] = true
		} else if eq := r[0] + 3; eq < r[1] && toks[eq].isOp("=") {
			assigned[strings.ToLower(toks[r[0]+2].val2())] = true
		}
	}
	var dropped, kept []int
	for n, r := range items {
		eq := r[0] + 1
		if eq+2 < r[1] && toks[r[0]+1].isOp(".") {
			eq = r[0] + 3
		}
		if eq >= r[1] || !toks[eq].isOp("=") {
			continue
		}
		col, ok := def.Column(toks[eq-1].val2())
		if !ok {
			kept = append(kept, n)
			continue
		}
		isDefault := d.isDefaultWord([2]int{eq + 1, r[1]})
		switch {
		case col.Generated != nil && !isDefault:
			return mysqlerr.New(mysqlerr.ErNonDefaultValueForGeneratedColumn, "The value specified for generated column '%s' in table '%s' is not allowed.", col.Name, def.Name)
		case col.Generated != nil:
			dropped = append(dropped, n)
			continue
		case isDefault:
			sql, refs, err := col.DefaultSQL()
			if err != nil {
				return err
			}
			for _, ref := range refs {
				// MySQL assigns left to right; SQLite's SET reads the row as it was.
				if assigned[strings.ToLower(ref)] {
					return (&Unsupported{What: "SET " + col.Name + " = DEFAULT with a column its default reads"}).Err()
				}
			}
			d.out[eq+1] = sql
		}
		kept = append(kept, n)
	}
	if len(dropped) == 0 {
		return nil
	}
	if len(kept) == 0 {
		// Nothing left to assign: a no-op assignment keeps SQLite's syntax.
		for _, c := range def.Columns {
			if c.Generated == nil {
				r := items[dropped[0]]
				d.out[r[0]] = quoteIdent(c.Name) + " = " + quoteIdent(c.Name)
				d.skipRange(r[0]+1, r[1]-1)
				dropped = dropped[1:]
				break
			}
		}
	}
	for _, n := range dropped {
		r := items[n]
		if n+1 < len(items) {
			d.skipRange(r[0], items[n+1][0]-1)
		} else {
			d.skipRange(r[0]-1, r[1]-1)
		}
	}
	return nil
}
