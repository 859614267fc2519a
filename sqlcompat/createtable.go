package sqlcompat

import (
	"slices"
	"strings"
)

// column is a parsed MySQL column definition.
type column struct {
	name       string
	lo, hi     int    // its tokens
	base       string // MySQL type name, upper case
	typ        string // SQLite type text
	charset    string // CHARACTER SET, as written
	collation  string // COLLATE as written
	collate    string // the SQLite collation (setCollations)
	binaryAttr bool   // the BINARY attribute: the character set's _bin collation
	notNull    bool
	def        string // translated DEFAULT value, "" if none
	autoInc    bool
	primary    bool
	unique     bool
	extra      []string // translated REFERENCES / CHECK / GENERATED clauses
	// defExpr is the byte range of a DEFAULT (expression) in the statement, the
	// parentheses included (see catalogText); {0, 0} for none.
	defExpr [2]int
	gen     string // a generated column's SQLite expression, parenthesised
	stored  bool   // the generated column is STORED
}

// render spells the column for SQLite; autoPK makes it the rowid alias.
func (c *column) render(autoPK bool) string {
	var b strings.Builder
	b.WriteString(quoteIdent(c.name))
	exact := c.exactDecimal()
	switch {
	case autoPK:
		b.WriteString(" INTEGER PRIMARY KEY AUTOINCREMENT")
	case exact:
		// Exact decimal text (package decimal): TEXT affinity keeps the digits,
		// the collation orders and compares them as numbers.
		b.WriteString(" DECTEXT" + strings.TrimPrefix(c.typ, c.base) + " COLLATE " + decimalCollation)
	case c.typ != "":
		b.WriteString(" " + c.typ)
	}
	if c.collate != "" && !autoPK && !exact {
		b.WriteString(" COLLATE " + c.collate)
	}
	if c.notNull {
		b.WriteString(" NOT NULL")
	}
	if c.def != "" {
		b.WriteString(" DEFAULT " + c.def)
	}
	if c.primary && !autoPK {
		b.WriteString(" PRIMARY KEY")
	}
	if c.unique {
		b.WriteString(" UNIQUE")
	}
	if c.gen != "" {
		kind := " VIRTUAL"
		if c.stored {
			kind = " STORED"
		}
		b.WriteString(" GENERATED ALWAYS AS " + c.gen + kind)
	}
	for _, e := range c.extra {
		b.WriteString(" " + e)
	}
	return b.String()
}

// decimalCollation orders exact DECIMAL text (decimal.Compare, registered by the engine).
const decimalCollation = "binlite_decimal"

// exactDecimal: a DECIMAL column kept as exact text (catalog.Column.ExactDecimal);
// a generated one keeps SQLite's number.
func (c *column) exactDecimal() bool {
	switch c.base {
	case "DECIMAL", "DEC", "NUMERIC", "FIXED":
		return c.gen == ""
	}
	return false
}

// typeMap maps MySQL type names to the SQLite spelling; "" keeps the name.
// Integer types lose their display width; keepArgs says whether (args) stay.
var typeMap = map[string]struct {
	name     string
	keepArgs bool
}{
	"TINYINT": {"TINYINT", false}, "SMALLINT": {"SMALLINT", false}, "MEDIUMINT": {"MEDIUMINT", false},
	"INT": {"INT", false}, "INTEGER": {"INTEGER", false}, "BIGINT": {"BIGINT", false},
	"INT1": {"TINYINT", false}, "INT2": {"SMALLINT", false}, "INT3": {"MEDIUMINT", false},
	"INT4": {"INT", false}, "INT8": {"BIGINT", false}, "MIDDLEINT": {"MEDIUMINT", false},
	"BOOL": {"INTEGER", false}, "BOOLEAN": {"INTEGER", false}, "BIT": {"INTEGER", false}, "YEAR": {"INTEGER", false},
	"ENUM": {"TEXT", false}, "SET": {"TEXT", false}, "JSON": {"TEXT", false},
}

// parseColumn parses a column definition in toks[lo:hi] of p.
func (p *parser) parseColumn(rw *rewriter, lo, hi int) (*column, string, error) {
	sp := &parser{sql: p.sql, toks: p.toks[:hi], i: lo, ctx: p.ctx}
	c := &column{lo: lo, hi: hi}
	var err error
	if c.name, err = sp.name(); err != nil {
		return nil, "", err
	}
	t := sp.next()
	if t.kind != tkIdent {
		sp.i--
		return nil, "", sp.errHere()
	}
	base := strings.ToUpper(t.text)
	switch {
	case base == "DOUBLE":
		sp.accept("PRECISION")
	case base == "NATIONAL" || base == "NCHAR" || base == "NVARCHAR":
		if base == "NATIONAL" {
			if sp.eof() {
				return nil, "", sp.errHere()
			}
			base = strings.ToUpper(sp.next().text)
		}
		if base == "NCHAR" || base == "CHAR" || base == "CHARACTER" {
			base = "CHAR"
			if sp.accept("VARYING") {
				base = "VARCHAR"
			}
		} else {
			base = "VARCHAR"
		}
	case base == "CHARACTER":
		base = "CHAR"
		if sp.accept("VARYING") {
			base = "VARCHAR"
		}
	case base == "LONG":
		base = "MEDIUMTEXT"
		sp.accept("VARCHAR")
		sp.accept("VARBINARY")
	case base == "SERIAL":
		base = "BIGINT"
		c.autoInc, c.notNull, c.unique = true, true, true
	case spatialTypes[base]:
		// Stored as bytes, a spatial value would not answer ST_ functions, SRIDs
		// or spatial indexes as MySQL does.
		return nil, "spatial data types (" + base + ")", nil
	}
	args := ""
	if sp.peek().isOp("(") {
		end := matchParen(sp.toks, sp.i)
		if end >= hi {
			return nil, "", sp.errHere()
		}
		args = rw.emit(sp.i, end+1)
		sp.i = end + 1
	}
	c.base, c.typ = base, base
	if m, ok := typeMap[base]; ok {
		c.typ = m.name
		if m.keepArgs {
			c.typ += args
		}
	} else {
		c.typ += args
	}
	for !sp.eof() {
		if what, err := sp.columnAttr(rw, c); err != nil || what != "" {
			return nil, what, err
		}
	}
	// MySQL 8.4 parses a column's own REFERENCES clause and creates no foreign key
	// (only FOREIGN KEY (...) REFERENCES does).
	c.extra = slices.DeleteFunc(c.extra, func(e string) bool { return strings.HasPrefix(e, "REFERENCES ") })
	return c, "", nil
}

// spatialTypes are MySQL's spatial column types.
var spatialTypes = map[string]bool{"GEOMETRY": true, "POINT": true, "LINESTRING": true, "POLYGON": true, "MULTIPOINT": true,
	"MULTILINESTRING": true, "MULTIPOLYGON": true, "GEOMETRYCOLLECTION": true, "GEOMCOLLECTION": true}

// columnAttr parses one column attribute into c.
func (sp *parser) columnAttr(rw *rewriter, c *column) (string, error) {
	t := sp.next()
	up := strings.ToUpper(t.text)
	if t.kind != tkIdent {
		sp.i--
		return "", sp.errHere()
	}
	switch up {
	case "BINARY":
		c.binaryAttr = true
	case "ASCII", "UNICODE": // MySQL's shorthands for these character sets
		c.charset = map[string]string{"ASCII": "latin1", "UNICODE": "ucs2"}[up]
	case "INVISIBLE":
		// SELECT * and INSERT without a column list would show and expect it.
		return "INVISIBLE columns", nil
	case "UNSIGNED":
		if c.base == "BIGINT" && !strings.HasSuffix(c.typ, " UNSIGNED") {
			// SQLite's declared type says what its values may be (package u64:
			// from 2^63 8-byte BLOBs), also where no MySQL definition is kept
			c.typ += " UNSIGNED"
		}
	case "SIGNED", "ZEROFILL", "BYTE", "NULL", "VISIBLE":
	case "NOT":
		if err := sp.expect("NULL"); err != nil {
			return "", err
		}
		c.notNull = true
	case "CHARACTER", "CHARSET", "COLLATE", "COMMENT", "COLUMN_FORMAT", "STORAGE", "SRID", "ENGINE_ATTRIBUTE", "SECONDARY_ENGINE_ATTRIBUTE":
		if up == "CHARACTER" {
			if err := sp.expect("SET"); err != nil {
				return "", err
			}
		}
		sp.acceptOp("=")
		if sp.eof() {
			return "", sp.errHere()
		}
		switch v := sp.next().val2(); up {
		case "CHARACTER", "CHARSET":
			c.charset = v
		case "COLLATE":
			c.collation = v
		}
	case "DEFAULT":
		from := sp.peek()
		def, err := sp.defaultValue(rw)
		if err != nil {
			return "", err
		}
		c.def = def
		if from.isOp("(") {
			c.defExpr = [2]int{from.pos, sp.toks[sp.i-1].end}
		}
	case "ON":
		if err := sp.expect("UPDATE"); err != nil {
			return "", err
		}
		if _, err := sp.defaultValue(rw); err != nil {
			return "", err
		}
	case "AUTO_INCREMENT":
		c.autoInc = true
	case "PRIMARY":
		if err := sp.expect("KEY"); err != nil {
			return "", err
		}
		c.primary = true
	case "KEY":
		c.primary = true
	case "UNIQUE":
		sp.accept("KEY")
		c.unique = true
	case "REFERENCES":
		from := sp.i
		if sp.peekAt(1).isOp(".") {
			rw.dropQualifier(sp.i) // SQLite foreign keys stay within one database
		}
		sp.i = len(sp.toks)
		c.extra = append(c.extra, "REFERENCES "+rw.emit(from, len(sp.toks)))
	case "CONSTRAINT", "CHECK":
		name := ""
		if up == "CONSTRAINT" {
			if !sp.peek().is("CHECK") {
				name = sp.next().val2()
			}
			if err := sp.expect("CHECK"); err != nil {
				return "", err
			}
		}
		if !sp.peek().isOp("(") {
			return "", sp.errHere()
		}
		end := matchParen(sp.toks, sp.i)
		if end >= len(sp.toks) {
			return "", sp.errHere()
		}
		check := "CHECK " + rw.emit(sp.i, end+1)
		if name != "" {
			// SQLite names the failing constraint, and MySQL's 3819 names it too.
			check = "CONSTRAINT " + quoteIdent(name) + " " + check
		}
		sp.i = end + 1
		if !sp.accept("NOT", "ENFORCED") {
			sp.accept("ENFORCED")
			c.extra = append(c.extra, check) // a NOT ENFORCED constraint is only declared
		}
	case "GENERATED", "AS":
		if up == "GENERATED" {
			if err := sp.expect("ALWAYS", "AS"); err != nil {
				return "", err
			}
		}
		if !sp.peek().isOp("(") {
			return "", sp.errHere()
		}
		end := matchParen(sp.toks, sp.i)
		if end >= len(sp.toks) {
			return "", sp.errHere()
		}
		c.gen = rw.emit(sp.i, end+1)
		sp.i = end + 1
		if sp.accept("STORED") || sp.accept("PERSISTENT") {
			c.stored = true
		} else {
			sp.accept("VIRTUAL")
		}
	default:
		return "column attribute " + up, nil
	}
	return "", nil
}

// defaultValue parses a DEFAULT (or ON UPDATE) value and returns its SQLite text.
func (sp *parser) defaultValue(rw *rewriter) (string, error) {
	t := sp.peek()
	switch {
	case t.isOp("("):
		end := matchParen(sp.toks, sp.i)
		if end >= len(sp.toks) {
			return "", sp.errHere()
		}
		s := rw.emit(sp.i, end+1)
		sp.i = end + 1
		return s, nil
	case (t.isOp("-") || t.isOp("+")) && sp.peekAt(1).kind == tkNumber:
		sp.i += 2
		return t.text + sp.toks[sp.i-1].text, nil
	case t.is("CURRENT_TIMESTAMP") || t.is("NOW") || t.is("LOCALTIME") || t.is("LOCALTIMESTAMP"):
		sp.i++
		if sp.peek().isOp("(") {
			sp.i = matchParen(sp.toks, sp.i) + 1
		}
		return "CURRENT_TIMESTAMP", nil
	case t.kind == tkString || t.kind == tkNumber || t.kind == tkHexString || t.kind == tkBitString ||
		t.is("NULL") || t.is("TRUE") || t.is("FALSE"):
		sp.i++
		return rw.out[sp.i-1], nil
	}
	return "", sp.errHere()
}

// keyPart is one parsed index column.
type keyPart struct {
	sql  string // SQLite text: "col" [DESC] or (expr)
	name string // column name, "" for expressions
}

// keyParts parses (part, ...) at sp's cursor: col [(len)] [ASC|DESC] or (expr).
func (sp *parser) keyParts(rw *rewriter) ([]keyPart, error) {
	if !sp.peek().isOp("(") {
		return nil, sp.errHere()
	}
	end := matchParen(sp.toks, sp.i)
	if end >= len(sp.toks) {
		return nil, sp.errHere()
	}
	var parts []keyPart
	for _, r := range splitTop(sp.toks, sp.i+1, end) {
		if r[0] >= r[1] {
			return nil, syntaxError(sp.sql, sp.toks[r[0]].pos)
		}
		var kp keyPart
		j := r[0]
		if sp.toks[j].isOp("(") {
			e := matchParen(sp.toks, j)
			kp.sql = rw.emit(j, e+1)
			j = e + 1
		} else if sp.toks[j].isName() {
			kp.name = sp.toks[j].val2()
			kp.sql = quoteIdent(kp.name)
			j++
			if j < r[1] && sp.toks[j].isOp("(") { // prefix length: SQLite indexes whole values
				j = matchParen(sp.toks, j) + 1
			}
		} else {
			return nil, syntaxError(sp.sql, sp.toks[j].pos)
		}
		if j < r[1] && (sp.toks[j].is("ASC") || sp.toks[j].is("DESC")) {
			if sp.toks[j].is("DESC") {
				kp.sql += " DESC"
			}
			j++
		}
		if j != r[1] {
			return nil, syntaxError(sp.sql, sp.toks[j].pos)
		}
		parts = append(parts, kp)
	}
	sp.i = end + 1
	return parts, nil
}

// indexSQL builds the SQLite CREATE INDEX for a MySQL index of table.
func indexSQL(table, name string, unique, ifNotExists bool, parts []keyPart) string {
	var b strings.Builder
	b.WriteString("CREATE ")
	if unique {
		b.WriteString("UNIQUE ")
	}
	b.WriteString("INDEX ")
	if ifNotExists {
		b.WriteString("IF NOT EXISTS ")
	}
	cols := make([]string, len(parts))
	for k, kp := range parts {
		cols[k] = kp.sql
	}
	b.WriteString(indexName(table, name) + " ON " + quoteIdent(table) + " (" + strings.Join(cols, ", ") + ")")
	return b.String()
}

// indexName is the SQLite name of MySQL index name on table: SQLite index
// names are global to a database while MySQL's are per table.
func indexName(table, name string) string { return quoteIdent(table + "." + name) }

// indexDef is a table-level index parsed from CREATE TABLE or ALTER TABLE.
type indexDef struct {
	name    string
	unique  bool
	primary bool
	skip    bool // FULLTEXT / SPATIAL: SQLite has no equivalent
	parts   []keyPart
}

// parseIndexDef parses [CONSTRAINT [sym]] PRIMARY KEY | UNIQUE [KEY|INDEX] |
// KEY|INDEX | FULLTEXT|SPATIAL [KEY|INDEX], then [name] [USING x] (parts) [options].
func (sp *parser) parseIndexDef(rw *rewriter) (*indexDef, error) {
	d := &indexDef{}
	if sp.accept("CONSTRAINT") && !sp.peek().is("PRIMARY") && !sp.peek().is("UNIQUE") {
		sp.next()
	}
	switch {
	case sp.accept("PRIMARY", "KEY"):
		d.primary = true
	case sp.accept("UNIQUE"):
		d.unique = true
		if !sp.accept("KEY") {
			sp.accept("INDEX")
		}
	case sp.accept("FULLTEXT"), sp.accept("SPATIAL"):
		d.skip = true
		if !sp.accept("KEY") {
			sp.accept("INDEX")
		}
	case sp.accept("KEY"), sp.accept("INDEX"):
	default:
		return nil, sp.errHere()
	}
	if t := sp.peek(); t.isName() && !t.is("USING") {
		d.name = t.val2()
		sp.i++
	}
	if sp.accept("USING") {
		sp.next()
	}
	var err error
	if d.parts, err = sp.keyParts(rw); err != nil {
		return nil, err
	}
	sp.i = len(sp.toks) // index options (USING, COMMENT, VISIBLE ...) do not matter to SQLite
	return d, nil
}

// isIndexItem reports whether a create_definition starting at t is an index or constraint.
func isIndexItem(t token) bool {
	for _, kw := range []string{"PRIMARY", "UNIQUE", "KEY", "INDEX", "FULLTEXT", "SPATIAL", "CONSTRAINT", "FOREIGN", "CHECK"} {
		if t.is(kw) {
			return true
		}
	}
	return false
}

// createTable parses CREATE [TEMPORARY] TABLE [IF NOT EXISTS] [db.]t (defs) [options].
func (p *parser) createTable(temp bool) (Statement, error) {
	d := &DDL{Op: CreateTable, Original: strings.TrimSpace(p.sql), Temporary: temp}
	d.IfNotExists = p.accept("IF", "NOT", "EXISTS")
	var err error
	if d.Schema, d.Table, err = p.qualified(); err != nil {
		return nil, err
	}
	d.Tables = []string{d.Table}
	if p.peek().is("LIKE") || p.peek().isOp("(") && p.peekAt(1).is("LIKE") {
		if temp {
			return unsupported("CREATE TEMPORARY TABLE ... LIKE")
		}
		return p.createLike(d)
	}
	if cs, err := p.createSelect(); err != nil || cs != nil {
		if err != nil {
			return nil, err
		}
		if temp {
			return unsupported("CREATE TEMPORARY TABLE ... SELECT")
		}
		d.Select = cs
		return d, nil
	}
	if !p.peek().isOp("(") {
		return nil, p.errHere()
	}
	open := p.i
	closeAt := matchParen(p.toks, open)
	if closeAt >= len(p.toks) {
		return nil, syntaxError(p.sql, len(p.sql))
	}
	rw, err := newRewriter(p, open, closeAt)
	if err != nil {
		return nil, err
	}
	var cols []*column
	var idx []*indexDef
	var checks, fks []string
	for _, r := range splitTop(p.toks, open+1, closeAt) {
		if r[0] >= r[1] {
			return nil, syntaxError(p.sql, p.toks[r[0]].pos)
		}
		sp := &parser{sql: p.sql, toks: p.toks[:r[1]], i: r[0], ctx: p.ctx}
		first := p.toks[r[0]]
		// A column may be named like a keyword only when quoted, so bare
		// PRIMARY/KEY/... start an index or constraint.
		if first.kind == tkIdent && isIndexItem(first) {
			kw := sp.peek()
			if kw.is("CONSTRAINT") {
				if !sp.peekAt(1).is("PRIMARY") && !sp.peekAt(1).is("UNIQUE") && !sp.peekAt(1).is("FOREIGN") && !sp.peekAt(1).is("CHECK") {
					kw = sp.peekAt(2)
				} else {
					kw = sp.peekAt(1)
				}
			}
			switch {
			case kw.is("FOREIGN"):
				fk, err := sp.foreignKey(rw)
				if err != nil {
					return nil, err
				}
				fks = append(fks, fk)
			case kw.is("CHECK"):
				c := &column{} // [CONSTRAINT [name]] CHECK (...) reads as a column's
				if what, err := sp.columnAttr(rw, c); err != nil || what != "" {
					if err != nil {
						return nil, err
					}
					return unsupported(what)
				}
				checks = append(checks, c.extra...)
			default:
				ix, err := sp.parseIndexDef(rw)
				if err != nil {
					return nil, err
				}
				idx = append(idx, ix)
			}
			continue
		}
		c, what, err := p.parseColumn(rw, r[0], r[1])
		if err != nil {
			return nil, err
		}
		if what != "" {
			return unsupported(what)
		}
		cols = append(cols, c)
	}
	cp := &createParts{temp: temp, cols: cols, idx: idx, checks: checks, fks: fks}
	def, err := tableDefinition(cp, d.Original, p.ctx.DefaultCollation)
	if err != nil {
		if !temp { // a temporary table has no stored definition to get wrong
			return nil, err
		}
		def = nil
	}
	d.def = def
	if err := setCollations(p, cols, def, tableOptionCollation(p.toks, closeAt+1, p.ctx.DefaultCollation)); err != nil {
		return nil, err
	}
	return d, buildCreateTable(d, temp, cols, idx, checks, fks)
}

// foreignKey parses [CONSTRAINT [sym]] FOREIGN KEY [name] (cols) REFERENCES ...
func (sp *parser) foreignKey(rw *rewriter) (string, error) {
	for !sp.eof() && !sp.peek().is("FOREIGN") {
		sp.next()
	}
	sp.next()
	if err := sp.expect("KEY"); err != nil {
		return "", err
	}
	if sp.peek().isName() {
		sp.next()
	}
	parts, err := sp.keyParts(rw)
	if err != nil {
		return "", err
	}
	if !sp.peek().is("REFERENCES") {
		return "", sp.errHere()
	}
	c := &column{}
	if _, err := sp.columnAttr(rw, c); err != nil {
		return "", err
	}
	cols := make([]string, len(parts))
	for k, kp := range parts {
		cols[k] = kp.sql
	}
	return "FOREIGN KEY (" + strings.Join(cols, ", ") + ") " + strings.Join(c.extra, " "), nil
}

// uniqueKeyOn reports whether a UNIQUE key of idx is on column name alone.
func uniqueKeyOn(idx []*indexDef, name string) bool {
	for _, ix := range idx {
		if ix.unique && len(ix.parts) == 1 && strings.EqualFold(ix.parts[0].name, name) {
			return true
		}
	}
	return false
}

// buildCreateTable renders the SQLite statements of a parsed CREATE TABLE.
func buildCreateTable(d *DDL, temp bool, cols []*column, idx []*indexDef, checks, fks []string) error {
	var pk []keyPart
	for _, ix := range idx {
		if ix.primary {
			pk = ix.parts
		}
	}
	var defs []string
	autoPKDone := false
	for _, c := range cols {
		// A key's column is NOT NULL in MySQL whatever it says (SQLite lets a
		// PRIMARY KEY column of a rowid table hold NULL).
		for _, kp := range pk {
			c.notNull = c.notNull || kp.name != "" && strings.EqualFold(kp.name, c.name)
		}
		c.notNull = c.notNull || c.primary && !c.autoInc
		if c.notNull && c.def == "NULL" {
			c.def = ""
		}
	}
	for _, c := range cols {
		if c.autoInc {
			d.AutoIncColumn = c.name
		}
		// Without a PRIMARY KEY, a unique AUTO_INCREMENT column (SERIAL) is the
		// rowid too: SQLite generates ids only there, and InnoDB clusters by it.
		autoPK := c.autoInc && !autoPKDone && (c.primary || len(pk) == 1 && pk[0].name != "" && strings.EqualFold(pk[0].name, c.name) ||
			len(pk) == 0 && strings.Contains(strings.ToUpper(c.typ), "INT") && (c.unique || uniqueKeyOn(idx, c.name)))
		if autoPK {
			autoPKDone = true
			if !c.primary {
				pk = nil // now inline
			}
		}
		defs = append(defs, c.render(autoPK))
	}
	if len(pk) > 0 && !autoPKDone || len(pk) > 1 {
		names := make([]string, len(pk))
		for k, kp := range pk {
			names[k] = kp.sql
		}
		defs = append(defs, "PRIMARY KEY ("+strings.Join(names, ", ")+")")
	}
	defs = append(defs, fks...)
	defs = append(defs, checks...)
	head := "CREATE TABLE "
	if temp {
		head = "CREATE TEMP TABLE "
	}
	if d.IfNotExists {
		head += "IF NOT EXISTS "
	}
	d.SQLite = []string{head + quoteIdent(d.Table) + " (" + strings.Join(defs, ", ") + ")"}
	d.create = &createParts{temp: temp, cols: cols, idx: idx, checks: checks, fks: fks}
	used := map[string]bool{}
	for _, ix := range idx {
		if ix.primary || ix.skip {
			continue
		}
		name := ix.name
		if name == "" {
			// MySQL names an unnamed index after its first column, adding _2, _3 ... on clashes.
			base := ix.parts[0].name
			if base == "" {
				base = "functional_index"
			}
			name = base
			for n := 2; used[strings.ToLower(name)]; n++ {
				name = base + "_" + itoa(n)
			}
		}
		used[strings.ToLower(name)] = true
		d.SQLite = append(d.SQLite, indexSQL(d.Table, name, ix.unique, d.IfNotExists, ix.parts))
	}
	return nil
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
