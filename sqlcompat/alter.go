package sqlcompat

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
)

// ALTER TABLE on a table whose MySQL definition the catalog keeps. The actions are
// applied, in order, to the definition's parts (columns, keys, foreign keys,
// CHECK constraints) and give the text of the CREATE TABLE that makes the table
// the ALTER leaves: untouched parts as SHOW CREATE TABLE prints them, new and
// redefined ones as the statement spells them. That text goes through CREATE
// TABLE's own path, so the altered table is exactly the table its SHOW CREATE
// TABLE would create, and both its definition and its SQLite table come from
// the same statement. What SQLite can change in place (keys, column renames,
// columns added at the end) is changed in place; anything else rebuilds the
// SQLite table and copies its rows (rebuild.go). A replica compiles the same
// ALTER text against the same definition into the same statements.

// alterPlan is an ALTER TABLE's actions applied to a definition.
type alterPlan struct {
	p   *parser
	rw  *rewriter // the statement's SQLite spelling (expression defaults)
	d   *DDL
	old *catalog.Table

	cols   []*planColumn
	keys   []*planKey
	fks    []catalog.ForeignKey
	newFKs []string // FOREIGN KEY clauses the statement adds, named
	checks []*planCheck

	comment        *string
	renames        [][2]string // RENAME COLUMN and CHANGE renames, in order
	droppedCols    []string
	droppedKeys    []string // the old keys the SQLite table loses (renamed ones too)
	renamedKeys    []string
	tableRename    string
	copies         bool // MySQL copies the rows (ALGORITHM=COPY): they are the affected rows
	reshape        bool // the SQLite table must be rebuilt whatever the definitions say
	autoIncOptions []string
}

// planColumn is a column of the altered table.
type planColumn struct {
	name string
	from string          // the old column it keeps the values of ("" for a new one)
	def  *catalog.Column // the old definition, renamed, when the statement does not redefine it
	rest string          // the statement's definition of a new or redefined column, after its name
	end  bool            // added after every old column (no FIRST or AFTER)
}

// definition is the column as CREATE TABLE text.
func (c *planColumn) definition(old *catalog.Table) string {
	if c.def != nil {
		return old.ColumnDefinition(c.def)
	}
	return quoteMySQL(c.name) + " " + c.rest
}

// planKey is a key of the altered table: an old one (kept, its columns renamed or
// dropped) or one the statement adds.
type planKey struct {
	old  *catalog.Index
	text string
}

// planCheck is a CHECK constraint of the altered table.
type planCheck struct {
	old  *catalog.Check
	text string
}

// alterDefined compiles ALTER TABLE on table def (d holds the table's name;
// p is at the first action). handled=false leaves the statement to the text
// translation: ALTER COLUMN ... SET/DROP DEFAULT alone, which changes the
// definition alone (alterDefaultsCatalog).
func (p *parser) alterDefined(d *DDL, def *catalog.Table) (handled bool, st Statement, err error) {
	ranges := splitTop(p.toks, p.i, len(p.toks))
	onlyDefaults := true
	for _, r := range ranges {
		onlyDefaults = onlyDefaults && r[0] < r[1] && columnDefault(p.toks[r[0]:r[1]])
	}
	if onlyDefaults {
		return false, nil, nil
	}
	rw, err := newRewriter(p, p.i, len(p.toks))
	if err != nil {
		return true, nil, err
	}
	pl := &alterPlan{p: p, d: d, old: def, rw: rw}
	for i := range def.Columns {
		c := def.Columns[i]
		pl.cols = append(pl.cols, &planColumn{name: c.Name, from: c.Name, def: &c})
	}
	for i := range def.Indexes {
		ix := def.Indexes[i]
		ix.Parts = append([]catalog.IndexPart(nil), ix.Parts...)
		pl.keys = append(pl.keys, &planKey{old: &ix})
	}
	pl.fks = append(pl.fks, def.ForeignKeys...)
	for i := range def.Checks {
		ck := def.Checks[i]
		pl.checks = append(pl.checks, &planCheck{old: &ck})
	}
	for _, r := range ranges {
		if r[0] >= r[1] {
			return true, nil, syntaxError(p.sql, p.toks[min(r[0], len(p.toks)-1)].pos)
		}
		sp := &parser{sql: p.sql, toks: p.toks[:r[1]], i: r[0], ctx: p.ctx}
		what, err := pl.action(sp)
		if err != nil {
			return true, nil, err
		}
		if what != "" {
			st, err := unsupported(what)
			return true, st, err
		}
	}
	if err := pl.dependencies(); err != nil {
		return true, nil, err
	}
	if err := pl.compile(); err != nil {
		return true, nil, err
	}
	return true, d, nil
}

// action applies one comma-separated action at sp; what names an action binlite
// does not take (1235).
func (pl *alterPlan) action(sp *parser) (what string, err error) {
	switch {
	case sp.accept("ADD"):
		return pl.add(sp)
	case sp.accept("DROP"):
		return pl.drop(sp)
	case sp.accept("MODIFY"):
		sp.accept("COLUMN")
		return pl.redefine(sp, "")
	case sp.accept("CHANGE"):
		sp.accept("COLUMN")
		from, err := sp.name()
		if err != nil {
			return "", err
		}
		return pl.redefine(sp, from)
	case sp.accept("RENAME"):
		return pl.rename(sp)
	case sp.accept("ALTER"):
		if sp.accept("CHECK") || sp.accept("CONSTRAINT") {
			name, err := sp.name()
			if err != nil {
				return "", err
			}
			enforced := !sp.accept("NOT")
			if err := sp.expect("ENFORCED"); err != nil {
				return "", err
			}
			ck := pl.check(name)
			if ck == nil {
				return "", mysqlerr.New(mysqlerr.ErCheckConstraintNotFound, "Check constraint '%s' is not found in the table.", name)
			}
			if ck.old.NotEnforced == enforced {
				c := *ck.old
				c.NotEnforced = !enforced
				ck.old = &c
				pl.reshape = true
				pl.copies = pl.copies || enforced
			}
			return "", sp.end()
		}
		if columnDefault(sp.toks[sp.i-1:]) {
			sp.i--
			return pl.alterDefault(sp)
		}
		return "ALTER TABLE ... ALTER " + strings.ToUpper(sp.peek().text), nil
	case sp.accept("DISABLE", "KEYS"), sp.accept("ENABLE", "KEYS"), sp.accept("FORCE"):
		return "", sp.end()
	case sp.peek().is("CONVERT"):
		return "ALTER TABLE ... CONVERT TO CHARACTER SET", nil
	}
	return pl.options(sp)
}

// options applies table options: COMMENT, AUTO_INCREMENT, and those without a
// meaning here (ENGINE, ALGORITHM, LOCK, ROW_FORMAT ...). A character set or
// collation other than the table's is refused.
func (pl *alterPlan) options(sp *parser) (string, error) {
	for !sp.eof() {
		t := sp.next()
		switch {
		case t.is("DEFAULT"):
			continue
		case t.is("COMMENT"):
			sp.acceptOp("=")
			v := sp.next()
			if v.kind != tkString {
				sp.i--
				return "", sp.errHere()
			}
			c := v.val
			pl.comment = &c
		case t.is("AUTO_INCREMENT"):
			sp.acceptOp("=")
			v := sp.next()
			n, err := strconv.ParseUint(v.text, 10, 64)
			if v.kind != tkNumber || err != nil || n == 0 {
				sp.i--
				return "", sp.errHere()
			}
			// The next id: never below what the table already used, as in InnoDB.
			name := sqlString(pl.d.Table)
			pl.autoIncOptions = append(pl.autoIncOptions,
				"UPDATE sqlite_sequence SET seq = max(seq, "+strconv.FormatUint(n-1, 10)+") WHERE name = "+name+" COLLATE NOCASE",
				"INSERT INTO sqlite_sequence (name, seq) SELECT "+name+", "+strconv.FormatUint(n-1, 10)+" WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = "+name+" COLLATE NOCASE)")
		case t.is("CHARACTER") || t.is("CHARSET") || t.is("COLLATE"):
			if t.is("CHARACTER") {
				if err := sp.expect("SET"); err != nil {
					return "", err
				}
			}
			sp.acceptOp("=")
			v, err := sp.stringOrName()
			if err != nil {
				return "", err
			}
			same := strings.EqualFold(v, pl.old.Charset) || strings.EqualFold(catalog.DefaultCollationOf(v), pl.old.Collation)
			if t.is("COLLATE") {
				same = strings.EqualFold(v, pl.old.Collation)
			}
			if !same {
				return "ALTER TABLE ... changing the table's character set or collation", nil
			}
		case t.is("ENGINE") || t.is("ALGORITHM") || t.is("LOCK") || t.is("ROW_FORMAT") || t.is("KEY_BLOCK_SIZE") ||
			t.is("STATS_PERSISTENT") || t.is("STATS_AUTO_RECALC") || t.is("STATS_SAMPLE_PAGES") || t.is("PACK_KEYS") ||
			t.is("CHECKSUM") || t.is("DELAY_KEY_WRITE") || t.is("AVG_ROW_LENGTH") || t.is("MAX_ROWS") || t.is("MIN_ROWS") ||
			t.is("COMPRESSION") || t.is("ENCRYPTION") || t.is("INSERT_METHOD"):
			sp.acceptOp("=")
			if sp.eof() {
				return "", sp.errHere()
			}
			sp.next()
		case t.is("ORDER"):
			sp.i = len(sp.toks) // ORDER BY: InnoDB keeps rows in key order anyway
		default:
			sp.i--
			return "ALTER TABLE ... " + strings.ToUpper(t.text), nil
		}
		sp.acceptOp(",")
	}
	return "", nil
}

// text is the statement's text of tokens [lo, hi), comments dropped.
func (p *parser) text(lo, hi int) string {
	var b strings.Builder
	for i := lo; i < hi; i++ {
		if i > lo {
			b.WriteString(p.toks[i].ws)
		}
		b.WriteString(p.sql[p.toks[i].pos:p.toks[i].end])
	}
	return b.String()
}

// position reads a trailing FIRST or AFTER col of a column definition in
// tokens [lo, hi); it returns the end of the definition.
func (p *parser) position(lo, hi int) (end int, first bool, after string) {
	switch {
	case hi-lo > 1 && p.toks[hi-1].is("FIRST"):
		return hi - 1, true, ""
	case hi-lo > 2 && p.toks[hi-2].is("AFTER") && p.toks[hi-1].isName():
		return hi - 2, false, p.toks[hi-1].val2()
	}
	return hi, false, ""
}

// add applies ADD [COLUMN] ..., ADD (columns), and ADD of keys and constraints.
func (pl *alterPlan) add(sp *parser) (string, error) {
	if isIndexItem(sp.peek()) {
		kw := sp.peek()
		if kw.is("CONSTRAINT") {
			kw = sp.peekAt(1)
			if !kw.is("PRIMARY") && !kw.is("UNIQUE") && !kw.is("FOREIGN") && !kw.is("CHECK") {
				kw = sp.peekAt(2)
			}
		}
		switch {
		case kw.is("FOREIGN"):
			return "", pl.addForeignKey(sp)
		case kw.is("CHECK"):
			return "", pl.addCheck(sp)
		}
		if kw.is("PRIMARY") {
			pl.reshape = true
		}
		pl.keys = append(pl.keys, &planKey{text: sp.text(sp.i, len(sp.toks))})
		sp.i = len(sp.toks)
		return "", nil
	}
	sp.accept("COLUMN")
	lo, hi := sp.i, len(sp.toks)
	if sp.peek().isOp("(") {
		end := matchParen(sp.toks, sp.i)
		if end != hi-1 {
			return "", sp.errHere()
		}
		for _, r := range splitTop(sp.toks, lo+1, end) {
			if err := pl.addColumn(sp, r[0], r[1], false); err != nil {
				return "", err
			}
		}
		sp.i = hi
		return "", nil
	}
	sp.i = hi
	return "", pl.addColumn(sp, lo, hi, true)
}

// addForeignKey adds ADD [CONSTRAINT [name]] FOREIGN KEY ... REFERENCES ...: an
// unnamed one is named as MySQL names it, tbl_ibfk_N after the highest N the
// table has. The foreign key's triggers come from the definition; the rows the
// table holds are checked by the session (foreign_key_checks).
func (pl *alterPlan) addForeignKey(sp *parser) error {
	name := ""
	if sp.accept("CONSTRAINT") {
		if !sp.peek().is("FOREIGN") {
			n, err := sp.name()
			if err != nil {
				return err
			}
			name = n
		}
	}
	lo := sp.i
	if !sp.accept("FOREIGN", "KEY") {
		return sp.errHere()
	}
	if name == "" {
		next := 0
		prefix := strings.ToLower(pl.d.Table + "_ibfk_")
		for _, fk := range pl.fks {
			if n, err := strconv.Atoi(strings.TrimPrefix(strings.ToLower(fk.Name), prefix)); err == nil && strings.HasPrefix(strings.ToLower(fk.Name), prefix) {
				next = max(next, n)
			}
		}
		name = pl.d.Table + "_ibfk_" + strconv.Itoa(next+1+len(pl.newFKs))
	}
	pl.newFKs = append(pl.newFKs, "CONSTRAINT "+quoteMySQL(name)+" "+sp.text(lo, len(sp.toks)))
	pl.reshape = true // the SQLite table's FOREIGN KEY clauses are what its triggers follow
	// MySQL copies the table to check its rows (ALGORITHM=COPY), unless
	// foreign_key_checks is off (INPLACE): the copied rows are the affected rows.
	if pl.p.ctx.SysVar != nil {
		if v, ok := pl.p.ctx.SysVar("foreign_key_checks", false); ok && fmt.Sprint(v) != "0" {
			pl.copies = true
		}
	}
	sp.i = len(sp.toks)
	return nil
}

// addColumn adds the column defined by tokens [lo, hi); placed says FIRST/AFTER
// may follow it.
func (pl *alterPlan) addColumn(sp *parser, lo, hi int, placed bool) error {
	if lo >= hi {
		return syntaxError(sp.sql, sp.toks[min(lo, len(sp.toks)-1)].pos)
	}
	end, first, after := hi, false, ""
	if placed {
		end, first, after = sp.position(lo, hi)
	}
	name := sp.toks[lo].val2()
	if !sp.toks[lo].isName() {
		return syntaxError(sp.sql, sp.toks[lo].pos)
	}
	if pl.column(name) >= 0 {
		return mysqlerr.New(mysqlerr.ErDupFieldName, "Duplicate column name '%s'", name)
	}
	if end-lo < 2 {
		return syntaxError(sp.sql, sp.toks[min(lo+1, len(sp.toks)-1)].pos)
	}
	c := &planColumn{name: name, rest: sp.text(lo+1, end), end: !first && after == ""}
	return pl.place(c, first, after, -1)
}

// place puts c at its position: first, after column after, else at the end
// (or, for a redefined column, where it was: at).
func (pl *alterPlan) place(c *planColumn, first bool, after string, at int) error {
	switch {
	case first:
		at = 0
	case after != "":
		i := pl.column(after)
		if i < 0 {
			return mysqlerr.New(mysqlerr.ErBadField, "Unknown column '%s' in '%s'", after, pl.d.Table)
		}
		at = i + 1
	case at < 0:
		at = len(pl.cols)
	}
	if first || after != "" {
		pl.reshape = true
	}
	pl.cols = append(pl.cols[:at], append([]*planColumn{c}, pl.cols[at:]...)...)
	return nil
}

// column is the index of the altered table's column name, -1 if none.
func (pl *alterPlan) column(name string) int {
	for i, c := range pl.cols {
		if strings.EqualFold(c.name, name) {
			return i
		}
	}
	return -1
}

// addCheck applies ADD [CONSTRAINT [name]] CHECK (expr) [[NOT] ENFORCED].
func (pl *alterPlan) addCheck(sp *parser) error {
	text := sp.text(sp.i, len(sp.toks))
	if sp.accept("CONSTRAINT") && !sp.peek().is("CHECK") {
		name, err := sp.name()
		if err != nil {
			return err
		}
		if pl.check(name) != nil {
			return mysqlerr.New(mysqlerr.ErCheckConstraintDupName, "Duplicate check constraint name '%s'.", name)
		}
	}
	enforced := true
	for j := sp.i; j+1 < len(sp.toks); j++ {
		if sp.toks[j].is("NOT") && sp.toks[j+1].is("ENFORCED") && j+2 == len(sp.toks) {
			enforced = false
		}
	}
	if enforced {
		pl.copies = true // MySQL checks the rows as it copies them
	}
	pl.reshape = true
	pl.checks = append(pl.checks, &planCheck{text: text})
	sp.i = len(sp.toks)
	return nil
}

// check is the altered table's CHECK constraint name (among the old ones), or nil.
func (pl *alterPlan) check(name string) *planCheck {
	for _, c := range pl.checks {
		if c.old != nil && strings.EqualFold(c.old.Name, name) {
			return c
		}
	}
	return nil
}

// drop applies DROP [COLUMN] c, DROP {INDEX|KEY} k, DROP PRIMARY KEY, DROP
// FOREIGN KEY fk, DROP CHECK c and DROP CONSTRAINT x.
func (pl *alterPlan) drop(sp *parser) (string, error) {
	switch {
	case sp.accept("PRIMARY", "KEY"):
		if !pl.dropKey("PRIMARY") {
			return "", mysqlerr.New(mysqlerr.ErCantDropFieldOrKey, "Can't DROP 'PRIMARY'; check that column/key exists")
		}
		return "", sp.end()
	case sp.accept("INDEX"), sp.accept("KEY"):
		name, err := sp.name()
		if err != nil {
			return "", err
		}
		if !pl.dropKey(name) {
			return "", mysqlerr.New(mysqlerr.ErCantDropFieldOrKey, "Can't DROP '%s'; check that column/key exists", name)
		}
		return "", sp.end()
	case sp.accept("FOREIGN", "KEY"):
		name, err := sp.name()
		if err != nil {
			return "", err
		}
		if !pl.dropForeignKey(name) {
			return "", mysqlerr.New(mysqlerr.ErCantDropFieldOrKey, "Can't DROP '%s'; check that column/key exists", name)
		}
		return "", sp.end()
	case sp.accept("CHECK"):
		name, err := sp.name()
		if err != nil {
			return "", err
		}
		if !pl.dropCheck(name) {
			return "", mysqlerr.New(mysqlerr.ErCheckConstraintNotFound, "Check constraint '%s' is not found in the table.", name)
		}
		return "", sp.end()
	case sp.accept("CONSTRAINT"):
		name, err := sp.name()
		if err != nil {
			return "", err
		}
		if !pl.dropCheck(name) && !pl.dropForeignKey(name) && (strings.EqualFold(name, "PRIMARY") || !pl.dropKey(name)) {
			return "", mysqlerr.New(mysqlerr.ErConstraintNotFound, "Constraint '%s' does not exist.", name)
		}
		return "", sp.end()
	}
	sp.accept("COLUMN")
	name, err := sp.name()
	if err != nil {
		return "", err
	}
	sp.accept("RESTRICT")
	sp.accept("CASCADE")
	i := pl.column(name)
	if i < 0 {
		return "", mysqlerr.New(mysqlerr.ErCantDropFieldOrKey, "Can't DROP '%s'; check that column/key exists", name)
	}
	c := pl.cols[i]
	pl.cols = append(pl.cols[:i], pl.cols[i+1:]...)
	if len(pl.cols) == 0 {
		return "", mysqlerr.New(mysqlerr.ErCantRemoveAllFields, "You can't delete all columns with ALTER TABLE; use DROP TABLE instead")
	}
	pl.reshape = true
	if c.from != "" {
		pl.droppedCols = append(pl.droppedCols, c.from)
		for _, fk := range pl.fks {
			for _, fc := range fk.Columns {
				if strings.EqualFold(fc, c.name) {
					return "", mysqlerr.New(mysqlerr.ErFKColumnCannotDrop, "Cannot drop column '%s': needed in a foreign key constraint '%s'", c.name, fk.Name)
				}
			}
		}
		// MySQL takes the column out of its keys, and drops a key left without columns.
		kept := pl.keys[:0]
		for _, k := range pl.keys {
			if k.old != nil {
				parts := k.old.Parts[:0]
				for _, part := range k.old.Parts {
					if !strings.EqualFold(part.Column, c.name) {
						parts = append(parts, part)
					}
				}
				k.old.Parts = parts
				if len(parts) == 0 {
					pl.droppedKeys = append(pl.droppedKeys, k.old.Name)
					continue
				}
			}
			kept = append(kept, k)
		}
		pl.keys = kept
	}
	return "", sp.end()
}

func (pl *alterPlan) dropKey(name string) bool {
	for i, k := range pl.keys {
		if k.old != nil && strings.EqualFold(k.old.Name, name) {
			if k.old.Kind == catalog.KindPrimary {
				pl.reshape = true
				// Without a new one in the statement, InnoDB copies the rows to
				// cluster them by its own row id.
				pl.copies = true
			}
			pl.droppedKeys = append(pl.droppedKeys, k.old.Name)
			pl.keys = append(pl.keys[:i], pl.keys[i+1:]...)
			return true
		}
	}
	return false
}

func (pl *alterPlan) dropForeignKey(name string) bool {
	for i, fk := range pl.fks {
		if strings.EqualFold(fk.Name, name) {
			pl.fks = append(pl.fks[:i], pl.fks[i+1:]...)
			pl.reshape = true
			return true
		}
	}
	return false
}

func (pl *alterPlan) dropCheck(name string) bool {
	for i, c := range pl.checks {
		if c.old != nil && strings.EqualFold(c.old.Name, name) {
			pl.checks = append(pl.checks[:i], pl.checks[i+1:]...)
			pl.reshape = true
			return true
		}
	}
	return false
}

// redefine applies MODIFY [COLUMN] def and CHANGE [COLUMN] from def (from != "")
// at sp, with a trailing FIRST or AFTER.
func (pl *alterPlan) redefine(sp *parser, from string) (string, error) {
	lo, hi := sp.i, len(sp.toks)
	if lo >= hi || !sp.toks[lo].isName() {
		return "", sp.errHere()
	}
	end, first, after := sp.position(lo, hi)
	name := sp.toks[lo].val2()
	if from == "" {
		from = name
	}
	i := pl.column(from)
	if i < 0 {
		return "", mysqlerr.New(mysqlerr.ErBadField, "Unknown column '%s' in '%s'", from, pl.d.Table)
	}
	if j := pl.column(name); j >= 0 && j != i {
		return "", mysqlerr.New(mysqlerr.ErDupFieldName, "Duplicate column name '%s'", name)
	}
	old := pl.cols[i]
	if !strings.EqualFold(old.name, name) && old.from != "" {
		pl.renameColumn(old.name, name)
	}
	if end-lo < 2 {
		return "", syntaxError(sp.sql, sp.toks[min(lo+1, len(sp.toks)-1)].pos)
	}
	c := &planColumn{name: name, from: old.from, rest: sp.text(lo+1, end)}
	pl.cols = append(pl.cols[:i], pl.cols[i+1:]...)
	sp.i = hi
	return "", pl.place(c, first, after, i)
}

// renameColumn follows a column's new name in the old keys and foreign keys.
func (pl *alterPlan) renameColumn(from, to string) {
	pl.renames = append(pl.renames, [2]string{from, to})
	for _, k := range pl.keys {
		if k.old == nil {
			continue
		}
		for i := range k.old.Parts {
			if strings.EqualFold(k.old.Parts[i].Column, from) {
				k.old.Parts[i].Column = to
			}
		}
	}
	for i := range pl.fks {
		cols := append([]string(nil), pl.fks[i].Columns...)
		for j := range cols {
			if strings.EqualFold(cols[j], from) {
				cols[j] = to
			}
		}
		pl.fks[i].Columns = cols
	}
}

// rename applies RENAME COLUMN a TO b, RENAME {INDEX|KEY} a TO b and RENAME [TO|AS] t.
func (pl *alterPlan) rename(sp *parser) (string, error) {
	switch {
	case sp.accept("COLUMN"):
		from, err := sp.name()
		if err != nil {
			return "", err
		}
		if err := sp.expect("TO"); err != nil {
			return "", err
		}
		to, err := sp.name()
		if err != nil {
			return "", err
		}
		i := pl.column(from)
		if i < 0 {
			return "", mysqlerr.New(mysqlerr.ErBadField, "Unknown column '%s' in '%s'", from, pl.d.Table)
		}
		if j := pl.column(to); j >= 0 && j != i {
			return "", mysqlerr.New(mysqlerr.ErDupFieldName, "Duplicate column name '%s'", to)
		}
		c := pl.cols[i]
		if c.from != "" {
			pl.renameColumn(c.name, to)
		}
		c.name = to
		if c.def != nil {
			d := *c.def
			d.Name = to
			c.def = &d
		}
		return "", sp.end()
	case sp.accept("INDEX"), sp.accept("KEY"):
		from, err := sp.name()
		if err != nil {
			return "", err
		}
		if err := sp.expect("TO"); err != nil {
			return "", err
		}
		to, err := sp.name()
		if err != nil {
			return "", err
		}
		for _, k := range pl.keys {
			if k.old != nil && strings.EqualFold(k.old.Name, from) && k.old.Kind != catalog.KindPrimary {
				pl.droppedKeys = append(pl.droppedKeys, k.old.Name)
				pl.renamedKeys = append(pl.renamedKeys, k.old.Name)
				ix := *k.old
				ix.Name = to
				k.old = nil
				k.text = ix.Definition()
				return "", sp.end()
			}
		}
		return "", mysqlerr.New(mysqlerr.ErKeyDoesNotExist, "Key '%s' doesn't exist in table '%s'", from, pl.d.Table)
	}
	if !sp.accept("TO") {
		sp.accept("AS")
	}
	db, to, err := sp.qualified()
	if err != nil {
		return "", err
	}
	if db != pl.d.Schema {
		return "RENAME TABLE across databases", nil
	}
	pl.tableRename = to
	pl.d.Tables = append(pl.d.Tables, to)
	return "", sp.end()
}

// dependencies refuses to drop or rename a column what the altered table keeps
// of the old definition still reads (catalog.Table.Dependent).
func (pl *alterPlan) dependencies() error {
	kept := &catalog.Table{Name: pl.old.Name}
	for _, c := range pl.checks {
		if c.old != nil {
			kept.Checks = append(kept.Checks, *c.old)
		}
	}
	for _, c := range pl.cols {
		if c.def != nil {
			kept.Columns = append(kept.Columns, *c.def)
		}
	}
	gone := append([]string(nil), pl.droppedCols...)
	for _, r := range pl.renames {
		gone = append(gone, r[0])
	}
	for _, g := range gone {
		if err := kept.Dependent(g); err != nil {
			return err
		}
	}
	return nil
}

// quoteMySQL quotes a MySQL identifier.
func quoteMySQL(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

// columnDefault reports whether toks are ALTER [COLUMN] c SET DEFAULT v or
// DROP DEFAULT.
func columnDefault(toks []token) bool {
	i := 1
	if len(toks) > i && toks[i].is("COLUMN") {
		i++
	}
	return len(toks) > i+2 && toks[0].is("ALTER") && toks[i].isName() && !toks[i].is("CHECK") && !toks[i].is("CONSTRAINT") && !toks[i].is("INDEX") &&
		(toks[i+1].is("SET") || toks[i+1].is("DROP")) && toks[i+2].is("DEFAULT")
}

// alterDefault applies ALTER [COLUMN] c SET DEFAULT v | DROP DEFAULT among other
// actions (alone, it changes the definition only: alterDefaultsCatalog).
func (pl *alterPlan) alterDefault(sp *parser) (string, error) {
	ad, what, err := sp.alterColumnDefault(pl.rw)
	if err != nil || what != "" {
		return what, err
	}
	i := pl.column(ad.column)
	if i < 0 {
		return "", mysqlerr.New(mysqlerr.ErBadField, "Unknown column '%s' in '%s'", ad.column, pl.d.Table)
	}
	if pl.cols[i].def == nil {
		return "ALTER TABLE ... ALTER COLUMN ... DEFAULT of a column the statement defines", nil
	}
	t := &catalog.Table{Name: pl.d.Table}
	for _, c := range pl.cols {
		if c.def != nil {
			t.Columns = append(t.Columns, *c.def)
		}
	}
	if ad.drop {
		err = t.DropDefault(ad.column)
	} else {
		var e ast.ExprNode
		if e, err = parseExpr(ad.text); err != nil {
			return "", err
		}
		var spec *catalog.DefaultSpec
		if spec, err = catalog.SpecOf(ad.column, e); err != nil {
			return "", err
		}
		spec.SQLite = ad.sqlite
		err = t.SetDefault(ad.column, spec)
	}
	if err != nil {
		return "", err
	}
	c, _ := t.Column(ad.column)
	pl.cols[i].def = c
	return "", sp.end()
}
