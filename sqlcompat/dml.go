package sqlcompat

import (
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
)

// strippedWords are MySQL-only modifiers that SQLite neither needs nor accepts.
// All are reserved words in MySQL, so they never name a column.
var strippedWords = map[string]bool{
	"LOW_PRIORITY": true, "HIGH_PRIORITY": true, "DELAYED": true, "SQL_NO_CACHE": true,
	"SQL_CACHE": true, "SQL_CALC_FOUND_ROWS": true, "SQL_SMALL_RESULT": true,
	"SQL_BIG_RESULT": true, "SQL_BUFFER_RESULT": true,
}

// selectListEnd lists the keywords that end a select list at its own depth.
var selectListEnd = map[string]bool{
	"FROM": true, "INTO": true, "WHERE": true, "GROUP": true, "HAVING": true, "ORDER": true,
	"LIMIT": true, "UNION": true, "EXCEPT": true, "INTERSECT": true, "WINDOW": true, "FOR": true, "LOCK": true,
}

// tableListEnd lists the keywords that end a comma-separated table list.
var tableListEnd = map[string]bool{
	"WHERE": true, "GROUP": true, "HAVING": true, "ORDER": true, "LIMIT": true, "UNION": true,
	"SET": true, "WINDOW": true, "EXCEPT": true, "INTERSECT": true,
	"VALUES": true, "VALUE": true, "SELECT": true, "FOR": true, "LOCK": true, "INTO": true,
}

// dmlState carries one query's translation.
type dmlState struct {
	*rewriter
	q      *Query
	seen   map[string]bool
	schema map[string]bool
}

// query translates SELECT, INSERT, REPLACE, UPDATE and DELETE.
func (p *parser) query() (Statement, error) {
	q := &Query{Kind: Select}
	switch strings.ToUpper(p.toks[0].text) {
	case "INSERT":
		q.Kind = Insert
	case "REPLACE":
		q.Kind = Replace
	case "UPDATE":
		q.Kind = Update
	case "DELETE":
		q.Kind = Delete
	case "VALUES", "TABLE":
		return unsupported(strings.ToUpper(p.toks[0].text) + " statement")
	}
	q.ReadOnly = q.Kind == Select
	rw, err := newRewriter(p, 0, len(p.toks))
	if err != nil {
		return nil, err
	}
	d := &dmlState{rewriter: rw, q: q, seen: map[string]bool{}, schema: map[string]bool{}}
	if what := d.unsupported(); what != "" {
		return unsupported(what)
	}
	d.stripModifiers()
	switch q.Kind {
	case Insert, Replace:
		what, err := d.insert()
		if err != nil {
			return nil, err
		}
		if what != "" {
			return unsupported(what)
		}
	case Update:
		if what := d.update(); what != "" {
			return unsupported(what)
		}
		if err := d.updateDefaults(); err != nil {
			return nil, err
		}
	default:
		if err := d.noDefaultFuncs(); err != nil {
			return nil, err
		}
	case Delete:
		if what := d.delete(); what != "" {
			return unsupported(what)
		}
	}
	d.tableRefs()
	d.selectAliases()
	q.SQLite = rw.emit(0, len(rw.toks))
	q.NumParams = rw.params
	return q, nil
}

// unsupported names a construct SQLite cannot run, or returns "".
func (d *dmlState) unsupported() string {
	depth := 0
	for i, t := range d.toks {
		switch {
		case t.isOp("("):
			depth++
		case t.isOp(")"):
			depth--
		case t.is("INTO") && d.q.Kind == Select:
			return "SELECT ... INTO"
		case t.isOp(":="):
			return "variable assignment in expressions"
		case depth == 0 && (d.q.Kind == Update || d.q.Kind == Delete) && (t.is("LIMIT") || (t.is("ORDER") && i+1 < len(d.toks) && d.toks[i+1].is("BY"))):
			return d.q.Kind.String() + " ... " + strings.ToUpper(t.text)
		}
	}
	return ""
}

// stripModifiers drops priority/cache modifiers, locking clauses and index hints.
func (d *dmlState) stripModifiers() {
	toks := d.toks
	n := len(toks)
	for i := 0; i < n; i++ {
		t := toks[i]
		if t.kind != tkIdent {
			continue
		}
		up := strings.ToUpper(t.text)
		switch {
		case strippedWords[up]:
			d.skip[i] = true
		case up == "STRAIGHT_JOIN":
			if prev := d.prevKept(i); prev >= 0 && (toks[prev].is("SELECT") || toks[prev].is("DISTINCT") || toks[prev].is("ALL")) {
				d.skip[i] = true
			} else {
				d.out[i] = "JOIN"
			}
		case (up == "USE" || up == "FORCE" || up == "IGNORE") && i+1 < n && (toks[i+1].is("INDEX") || toks[i+1].is("KEY")):
			j := i + 2
			for j < n && !toks[j].isOp("(") {
				j++
			}
			end := matchParen(toks, j)
			d.skipRange(i, end)
			i = end
		case up == "FOR" && i+1 < n && (toks[i+1].is("UPDATE") || toks[i+1].is("SHARE")):
			j := i + 2
			if j < n && toks[j].is("OF") {
				j++
				for j < n && (toks[j].isName() || toks[j].isOp(",") || toks[j].isOp(".")) && !toks[j].is("NOWAIT") && !toks[j].is("SKIP") {
					j++
				}
			}
			if j < n && toks[j].is("NOWAIT") {
				j++
			} else if j+1 < n && toks[j].is("SKIP") && toks[j+1].is("LOCKED") {
				j += 2
			}
			d.skipRange(i, j-1)
			i = j - 1
		case up == "LOCK" && i+3 < n && toks[i+1].is("IN") && toks[i+2].is("SHARE") && toks[i+3].is("MODE"):
			d.skipRange(i, i+3)
			i += 3
		}
	}
}

// insert handles INSERT/REPLACE: IGNORE, the SET form, ON DUPLICATE KEY
// UPDATE, the AUTO_INCREMENT zero rule, and defaults (insertDefaults).
func (d *dmlState) insert() (string, error) {
	toks := d.toks
	n := len(toks)
	i := 1
	ignore := false
	for i < n && (toks[i].is("IGNORE") || strippedWords[strings.ToUpper(toks[i].text)] && toks[i].kind == tkIdent) {
		if toks[i].is("IGNORE") {
			ignore = true
		}
		d.skip[i] = true
		i++
	}
	if ignore {
		if d.q.Kind == Replace {
			d.out[0] = "REPLACE" // REPLACE IGNORE is not MySQL; keep REPLACE semantics
		} else {
			d.out[0] = "INSERT OR IGNORE"
		}
	}
	if i < n && toks[i].is("INTO") {
		i++
	}
	if i >= n || !toks[i].isName() {
		return "", nil
	}
	schema, table := d.p.ctx.DB, toks[i].val2()
	d.tableRef(i)
	if i+2 < n && toks[i+1].isOp(".") && toks[i+2].isName() {
		schema, table = toks[i].val2(), toks[i+2].val2()
		i += 2
	}
	sh := &insertShape{schema: schema, table: table, tableEnd: i, listOpen: -1, values: -1, source: -1, ignore: ignore}
	i++
	if i < n && toks[i].is("PARTITION") {
		return "INSERT ... PARTITION", nil
	}
	var cols []string
	var tuples [][][2]int
	setForm, colEnd := -1, -1
	if i < n && toks[i].isOp("(") && !(i+1 < n && (toks[i+1].is("SELECT") || toks[i+1].is("WITH"))) {
		end := matchParen(toks, i)
		sh.listOpen, sh.listClose = i, end
		colEnd = end
		for _, r := range splitTop(toks, i+1, end) {
			if r[1]-r[0] >= 1 {
				cols = append(cols, toks[r[1]-1].val2())
			}
		}
		i = end + 1
	}
	ondup := -1
	for j := i; j+3 < n; j++ {
		if toks[j].is("ON") && toks[j+1].is("DUPLICATE") && toks[j+2].is("KEY") && toks[j+3].is("UPDATE") {
			ondup = j
			break
		}
	}
	bodyEnd := n
	if ondup >= 0 {
		bodyEnd = ondup
	}
	alias := ""
	switch {
	case i < n && (toks[i].is("VALUES") || toks[i].is("VALUE")):
		d.out[i] = "VALUES"
		sh.values = i
		j := i + 1
		for j < bodyEnd && toks[j].isOp("(") {
			end := matchParen(toks, j)
			tuples = append(tuples, splitTop(toks, j+1, end))
			sh.parens = append(sh.parens, [2]int{j, end})
			j = end + 1
			if j < bodyEnd && toks[j].isOp(",") {
				j++
			}
		}
		// MySQL 8's row alias: VALUES (...) AS new ON DUPLICATE KEY UPDATE c = new.c
		if j+1 < bodyEnd && toks[j].is("AS") && toks[j+1].isName() {
			alias = toks[j+1].val2()
			d.skipRange(j, bodyEnd-1)
		}
	case i < n && toks[i].is("SET"):
		setForm = i
		cols = nil
		var vals [][2]int
		for _, r := range splitTop(toks, i+1, bodyEnd) {
			eq := r[0]
			for eq < r[1] && !toks[eq].isOp("=") && !toks[eq].isOp(":=") {
				eq++
			}
			if eq == r[0] || eq >= r[1] {
				return "", nil
			}
			cols = append(cols, toks[eq-1].val2())
			vals = append(vals, [2]int{eq + 1, r[1]})
		}
		tuples = [][][2]int{vals}
	case ondup >= 0 && !d.hasTopWord(i, ondup, "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT"):
		// INSERT ... SELECT: SQLite would read ON as a join constraint without a WHERE.
		d.after[ondup-1] += " WHERE true"
		sh.source = i
	default:
		sh.source = i
	}
	d.storedLiterals(schema, table, cols, tuples)
	autoCol := d.autoIncValues(schema, table, cols, tuples)
	d.q.InsertRows = len(tuples)
	d.q.IgnoreDuplicates = ignore && ondup < 0 && d.q.Kind == Insert
	sh.cols, sh.tuples, sh.set, sh.bodyEnd, sh.ondup = cols, tuples, setForm, bodyEnd, ondup
	sh.autoCol = autoCol
	rendered, err := d.insertDefaults(sh)
	if err != nil {
		return "", err
	}
	if sh.autoDone {
		autoCol = ""
	}
	if autoCol != "" && setForm < 0 && colEnd > 0 {
		d.addAutoIncColumn(autoCol, colEnd, tuples)
	}
	if setForm >= 0 && !rendered {
		var c, v []string
		for k, col := range cols {
			c = append(c, quoteIdent(col))
			v = append(v, d.emit(tuples[0][k][0], tuples[0][k][1]))
		}
		if autoCol != "" {
			c, v = append(c, autoCol), append(v, AutoIncFunc+"(NULL)")
		}
		d.out[setForm] = "(" + strings.Join(c, ", ") + ") VALUES (" + strings.Join(v, ", ") + ")"
		d.skipRange(setForm+1, bodyEnd-1)
	}
	if ondup >= 0 {
		d.out[ondup] = "ON CONFLICT DO UPDATE SET"
		d.skipRange(ondup+1, ondup+3)
		for j := ondup + 4; j < n; j++ {
			switch {
			case toks[j].is("VALUES") && j+3 < n && toks[j+1].isOp("(") && toks[j+2].isName() && toks[j+3].isOp(")"):
				d.out[j] = "excluded." + quoteIdent(toks[j+2].val2())
				d.skipRange(j+1, j+3)
				j += 3
			case alias != "" && toks[j].isName() && toks[j].val2() == alias && j+1 < n && toks[j+1].isOp("."):
				d.out[j] = "excluded"
			}
		}
	}
	return "", nil
}

// hasTopWord reports whether one of kws appears at depth 0 within toks[lo:hi].
func (d *dmlState) hasTopWord(lo, hi int, kws ...string) bool {
	depth := 0
	for j := lo; j < hi; j++ {
		switch t := d.toks[j]; {
		case t.isOp("("):
			depth++
		case t.isOp(")"):
			depth--
		case depth == 0:
			for _, kw := range kws {
				if t.is(kw) {
					return true
				}
			}
		}
	}
	return false
}

// storedLiterals rewrites literals written straight into a column to what the
// column keeps (catalog.Type.StoreText/StoreFloat): text into a binary column
// becomes a blob literal (SQLite would keep text, and LENGTH, comparisons with
// X'..' values and NUL bytes would behave as text), CHAR loses trailing spaces,
// FLOAT keeps single precision.
func (d *dmlState) storedLiterals(schema, table string, cols []string, tuples [][][2]int) {
	if d.p.ctx.TableDef == nil {
		return
	}
	def := d.p.ctx.TableDef(schema, table)
	if def == nil {
		return
	}
	if len(cols) == 0 {
		for _, c := range def.Columns {
			cols = append(cols, c.Name)
		}
	}
	types := make([]*catalog.Type, len(cols))
	for k, c := range cols {
		if col, ok := def.Column(c); ok {
			types[k] = &col.Type
		}
	}
	for row, tuple := range tuples {
		for k, r := range tuple {
			if k < len(types) && types[k] != nil && r[1]-r[0] == 1 {
				d.storedLiteral(r[0], types[k], cols[k], row+1)
			}
		}
	}
}

// storedLiteral rewrites token j, a value written into column col (of type ty)
// of row (1-based, for the note MySQL gives when the value loses digits).
func (d *dmlState) storedLiteral(j int, ty *catalog.Type, col string, row int) {
	t := d.toks[j]
	note := func(in, stored string) {
		if ty.Truncates(in, stored) {
			d.q.Warnings = append(d.q.Warnings, mysqlerr.Note(mysqlerr.ErWarnDataTruncated, "Data truncated for column '%s' at row %d", col, row))
		}
	}
	switch t.kind {
	case tkString:
		if n, ok := ty.StoreNumber(t.val); ok && ty.Base == "decimal" {
			d.out[j] = sqlString(n) // exact decimal text (package decimal)
			note(t.val, n)
		} else if v, ok := ty.StoreText(t.val); ok {
			d.out[j] = literal(v)
			if sv, isText := v.(string); isText {
				note(t.val, sv)
			}
		}
	case tkHexString:
		if b, err := hex.DecodeString(t.val); err == nil && ty.IsBinary() {
			d.out[j] = blobLiteral(string(ty.StoreBytes(b)))
		}
	case tkNumber:
		if n, ok := ty.StoreNumber(t.text); ok {
			d.out[j] = n
			if ty.Base == "decimal" {
				d.out[j] = sqlString(n) // exact decimal text (package decimal)
			}
			note(t.text, n)
		} else if f, err := strconv.ParseFloat(t.text, 64); err == nil {
			if v, ok := ty.StoreFloat(f); ok {
				d.out[j] = strconv.FormatFloat(v, 'g', 17, 64)
			}
		}
	}
}

func blobLiteral(s string) string { return "X'" + hex.EncodeToString([]byte(s)) + "'" }

// update handles UPDATE [IGNORE] t SET ...; multi-table updates are unsupported.
func (d *dmlState) update() string {
	toks := d.toks
	n := len(toks)
	i := 1
	for i < n && (toks[i].is("IGNORE") || toks[i].is("LOW_PRIORITY")) {
		if toks[i].is("IGNORE") {
			d.out[0] = "UPDATE OR IGNORE"
		}
		d.skip[i] = true
		i++
	}
	set := -1
	depth := 0
	for j := i; j < n; j++ {
		switch t := toks[j]; {
		case t.isOp("("):
			depth++
		case t.isOp(")"):
			depth--
		case depth == 0 && (t.isOp(",") || t.is("JOIN")):
			if set < 0 {
				return "multi-table UPDATE"
			}
		case depth == 0 && t.is("SET") && set < 0:
			set = j
		}
	}
	if set < 0 {
		return ""
	}
	end := n
	for j := set + 1; j < n; j++ {
		if toks[j].is("WHERE") {
			end = j
			break
		}
	}
	// SQLite's SET takes bare column names: drop t. qualifiers.
	for _, r := range splitTop(toks, set+1, end) {
		if r[1]-r[0] > 3 && toks[r[0]+1].isOp(".") && toks[r[0]+3].isOp("=") {
			d.dropQualifier(r[0])
		}
		// col = literal stores what the column keeps of it.
		if d.p.ctx.TableDef != nil && r[1]-r[0] == 3 && toks[r[0]+1].isOp("=") && toks[r[0]].isName() {
			schema, table := d.p.ctx.DB, toks[i].val2()
			if i+2 < n && toks[i+1].isOp(".") {
				schema, table = toks[i].val2(), toks[i+2].val2()
			}
			if def := d.p.ctx.TableDef(schema, table); def != nil {
				if col, ok := def.Column(toks[r[0]].val2()); ok {
					d.storedLiteral(r[0]+2, &col.Type, col.Name, 1)
				}
			}
		}
	}
	d.tableRef(i)
	return ""
}

// delete handles DELETE [IGNORE] FROM t; multi-table deletes are unsupported.
func (d *dmlState) delete() string {
	toks := d.toks
	n := len(toks)
	i := 1
	for i < n && (toks[i].is("IGNORE") || toks[i].is("LOW_PRIORITY") || toks[i].is("QUICK")) {
		d.skip[i] = true // SQLite's DELETE has no conflict clause to ignore
		i++
	}
	if i >= n || !toks[i].is("FROM") {
		return "multi-table DELETE"
	}
	for j := i + 1; j < n; j++ {
		if t := toks[j]; t.is("WHERE") {
			break
		} else if t.isOp(",") || t.is("USING") || t.is("JOIN") {
			return "multi-table DELETE"
		}
	}
	return ""
}

// tableRefs finds table references (after FROM, JOIN, INTO, UPDATE and in
// comma-separated FROM lists), unqualifies the current database and records
// Tables and Schemas. Three-part column names in the current database lose
// their schema too.
func (d *dmlState) tableRefs() {
	toks := d.toks
	n := len(toks)
	inList := map[int]bool{}
	depth := 0
	if d.q.Kind == Update {
		inList[0] = true
	}
	for i := 0; i < n; i++ {
		t := toks[i]
		intro := false
		switch {
		case t.isOp("("):
			depth++
		case t.isOp(")"):
			inList[depth] = false
			depth--
		case t.isOp(","):
			intro = inList[depth]
		case t.kind == tkIdent:
			up := strings.ToUpper(t.text)
			switch {
			case up == "FROM":
				if d.q.Kind != Delete || depth > 0 {
					inList[depth] = true
				}
				intro = true
			case up == "JOIN" || up == "STRAIGHT_JOIN":
				intro = true
			case tableListEnd[up]:
				inList[depth] = false
			}
		}
		if intro && i+1 < n {
			if toks[i+1].is("DUAL") && t.is("FROM") {
				d.skipRange(i, i+1) // SQLite has no DUAL; SELECT without FROM is the same
				continue
			}
			if toks[i+1].isName() && !toks[i+1].is("LATERAL") && !toks[i+1].is("SELECT") {
				d.tableRef(i + 1)
			}
			continue
		}
		// db.t.c where db is the current database.
		if t.isName() && (i == 0 || !toks[i-1].isOp(".")) && i+4 < n && toks[i+1].isOp(".") && toks[i+2].isName() &&
			toks[i+3].isOp(".") && toks[i+4].isName() {
			if t.val2() == d.p.ctx.DB {
				d.dropQualifier(i)
			} else {
				d.addSchema(t.val2())
			}
			i += 4
		}
	}
}

// tableRef records the table named at toks[i] (name or db.name) and drops a
// qualifier naming the current database.
func (d *dmlState) tableRef(i int) {
	toks := d.toks
	if d.seen == nil || i >= len(toks) || !toks[i].isName() {
		return
	}
	table := toks[i].val2()
	if i+2 < len(toks) && toks[i+1].isOp(".") && toks[i+2].isName() {
		db := table
		table = toks[i+2].val2()
		if db == d.p.ctx.DB {
			d.dropQualifier(i)
		} else {
			d.addSchema(db)
		}
	}
	if !d.seen[table] {
		d.seen[table] = true
		d.q.Tables = append(d.q.Tables, table)
	}
}

func (d *dmlState) addSchema(db string) {
	if !d.schema[db] {
		d.schema[db] = true
		d.q.Schemas = append(d.q.Schemas, db)
	}
}

// selectAliases names select-list items whose variable or function was
// replaced by a literal after their MySQL text, as MySQL names the column.
func (d *dmlState) selectAliases() {
	toks := d.toks
	n := len(toks)
	for s := 0; s < n; s++ {
		if !toks[s].is("SELECT") {
			continue
		}
		depth, end := 0, n
	scan:
		for j := s + 1; j < n; j++ {
			t := toks[j]
			switch {
			case t.isOp("("):
				depth++
			case t.isOp(")"):
				if depth == 0 {
					end = j
					break scan
				}
				depth--
			case depth == 0 && t.kind == tkIdent && selectListEnd[strings.ToUpper(t.text)]:
				end = j
				break scan
			}
		}
		for _, r := range splitTop(toks, s+1, end) {
			d.aliasItem(r[0], r[1])
		}
	}
}

func (d *dmlState) aliasItem(lo, hi int) {
	toks := d.toks
	for lo < hi && toks[lo].kind == tkIdent && (toks[lo].is("DISTINCT") || toks[lo].is("ALL") || toks[lo].is("DISTINCTROW") || d.skip[lo]) {
		lo++
	}
	if lo >= hi {
		return
	}
	marked := false
	depth := 0
	for j := lo; j < hi; j++ {
		switch {
		case toks[j].isOp("("):
			depth++
		case toks[j].isOp(")"):
			depth--
		case depth == 0 && toks[j].is("AS"):
			return
		}
		marked = marked || d.marked[j]
	}
	if !marked {
		return
	}
	if hi-lo < 2 {
		// a lone replaced token: fall through to naming it
	} else if last, prev := toks[hi-1], toks[hi-2]; (last.isName() || last.kind == tkString) &&
		(prev.isOp(")") || d.marked[hi-2] && prev.kind != tkOp || prev.kind == tkSysVar || prev.kind == tkUserVar ||
			prev.kind == tkNumber || prev.kind == tkString || prev.kind == tkQuotedIdent || prev.kind == tkParam ||
			prev.isName() && hi-lo >= 3) {
		return // an implicit alias
	}
	d.after[hi-1] += " AS " + quoteIdent(strings.TrimSpace(d.p.sql[toks[lo].pos:toks[hi-1].end]))
}

// prevKept is the index of the last token before i that is not dropped, or -1.
func (d *dmlState) prevKept(i int) int {
	for j := i - 1; j >= 0; j-- {
		if !d.skip[j] {
			return j
		}
	}
	return -1
}
