package sqlcompat

import (
	"strconv"
	"strings"
)

// create dispatches CREATE statements.
func (p *parser) create() (Statement, error) {
	p.next()
	switch {
	case p.accept("DATABASE"), p.accept("SCHEMA"):
		c := &CreateDatabase{IfNotExists: p.accept("IF", "NOT", "EXISTS")}
		var err error
		if c.Name, err = p.name(); err != nil {
			return nil, err
		}
		return c, p.databaseOptions()
	case p.accept("TABLE"):
		return p.createTable(false)
	case p.accept("TEMPORARY", "TABLE"):
		return p.createTable(true)
	case p.peek().is("INDEX") || p.peek().is("UNIQUE") || p.peek().is("FULLTEXT") || p.peek().is("SPATIAL"):
		return p.createIndex()
	case p.accept("USER"):
		return p.createUser()
	}
	for j := p.i; j < len(p.toks) && j < p.i+24; j++ {
		switch {
		case p.toks[j].is("VIEW"):
			return p.createView(false)
		case p.toks[j].is("TRIGGER"):
			return p.createTrigger()
		case p.toks[j].is("TABLE") || p.toks[j].is("PROCEDURE") || p.toks[j].is("FUNCTION") || p.toks[j].is("EVENT"):
			j = len(p.toks)
		}
	}
	if p.eof() {
		return nil, p.errHere()
	}
	word := strings.ToUpper(p.peek().text)
	for j := p.i; j < len(p.toks) && j < p.i+6; j++ {
		switch w := strings.ToUpper(p.toks[j].text); w {
		case "VIEW", "PROCEDURE", "FUNCTION", "TRIGGER", "EVENT", "ROLE", "TABLESPACE", "SERVER", "SPATIAL":
			return unsupported("CREATE " + w)
		}
	}
	return unsupported("CREATE " + word)
}

// databaseOptions skips [DEFAULT] CHARACTER SET|CHARSET|COLLATE|ENCRYPTION [=] value ...
func (p *parser) databaseOptions() error {
	for !p.eof() {
		p.accept("DEFAULT")
		switch {
		case p.accept("CHARACTER", "SET"), p.accept("CHARSET"), p.accept("COLLATE"), p.accept("ENCRYPTION"):
		default:
			return p.errHere()
		}
		p.acceptOp("=")
		if _, err := p.stringOrName(); err != nil {
			return err
		}
	}
	return nil
}

// drop dispatches DROP statements.
func (p *parser) drop() (Statement, error) {
	p.next()
	switch {
	case p.accept("DATABASE"), p.accept("SCHEMA"):
		d := &DropDatabase{IfExists: p.accept("IF", "EXISTS")}
		var err error
		if d.Name, err = p.name(); err != nil {
			return nil, err
		}
		return d, p.end()
	case p.accept("TABLE"), p.accept("TABLES"):
		return p.dropTable(false)
	case p.accept("TEMPORARY", "TABLE"), p.accept("TEMPORARY", "TABLES"):
		return p.dropTable(true)
	case p.accept("INDEX"):
		return p.dropIndex()
	case p.accept("USER"):
		return p.dropUser()
	case p.accept("VIEW"):
		return p.dropView()
	case p.accept("TRIGGER"):
		return p.dropTrigger()
	}
	if p.eof() {
		return nil, p.errHere()
	}
	return unsupported("DROP " + strings.ToUpper(p.peek().text))
}

// tableList parses [db.]t, ... requiring one database for all tables.
func (p *parser) tableList(d *DDL) (string, error) {
	for {
		db, t, err := p.qualified()
		if err != nil {
			return "", err
		}
		if len(d.Tables) == 0 {
			d.Schema, d.Table = db, t
		} else if db != d.Schema {
			return "tables of several databases in one statement", nil
		}
		d.Tables = append(d.Tables, t)
		if !p.acceptOp(",") {
			return "", nil
		}
	}
}

// dropTable parses DROP [TEMPORARY] TABLE [IF EXISTS] t, ... [RESTRICT|CASCADE].
func (p *parser) dropTable(temp bool) (Statement, error) {
	d := &DDL{Op: DropTable, Original: strings.TrimSpace(p.sql), IfExists: p.accept("IF", "EXISTS"), Temporary: temp}
	what, err := p.tableList(d)
	if err != nil {
		return nil, err
	}
	if what != "" {
		return unsupported(what)
	}
	if !p.accept("RESTRICT") {
		p.accept("CASCADE")
	}
	for _, t := range d.Tables {
		s := "DROP TABLE "
		if d.IfExists {
			s += "IF EXISTS "
		}
		d.SQLite = append(d.SQLite, s+quoteIdent(t))
	}
	return d, p.end()
}

// createIndex parses CREATE [UNIQUE|FULLTEXT|SPATIAL] INDEX [IF NOT EXISTS] name [USING x] ON t (parts) [options].
func (p *parser) createIndex() (Statement, error) {
	d := &DDL{Op: CreateIndex, Original: strings.TrimSpace(p.sql)}
	unique := p.accept("UNIQUE")
	skip := !unique && (p.accept("FULLTEXT") || p.accept("SPATIAL"))
	if err := p.expect("INDEX"); err != nil {
		return nil, err
	}
	d.IfNotExists = p.accept("IF", "NOT", "EXISTS")
	name, err := p.name()
	if err != nil {
		return nil, err
	}
	if p.accept("USING") {
		p.next()
	}
	if err := p.expect("ON"); err != nil {
		return nil, err
	}
	if d.Schema, d.Table, err = p.qualified(); err != nil {
		return nil, err
	}
	d.Tables = []string{d.Table}
	rw, err := newRewriter(p, p.i, len(p.toks))
	if err != nil {
		return nil, err
	}
	parts, err := p.keyParts(rw)
	if err != nil {
		return nil, err
	}
	if !skip {
		d.SQLite = []string{indexSQL(d.Table, name, unique, d.IfNotExists, parts)}
	}
	return d, nil // trailing index options (USING, COMMENT, ALGORITHM, LOCK) do not matter
}

// dropIndex parses DROP INDEX name ON t [options].
func (p *parser) dropIndex() (Statement, error) {
	d := &DDL{Op: DropIndex, Original: strings.TrimSpace(p.sql), IfExists: p.accept("IF", "EXISTS")}
	name, err := p.name()
	if err != nil {
		return nil, err
	}
	if err := p.expect("ON"); err != nil {
		return nil, err
	}
	if d.Schema, d.Table, err = p.qualified(); err != nil {
		return nil, err
	}
	d.Tables = []string{d.Table}
	if strings.EqualFold(name, "PRIMARY") {
		return unsupported("DROP PRIMARY KEY")
	}
	d.SQLite = []string{dropIndexSQL(d.Table, name, d.IfExists)}
	return d, nil
}

func dropIndexSQL(table, name string, ifExists bool) string {
	s := "DROP INDEX "
	if ifExists {
		s += "IF EXISTS "
	}
	return s + indexName(table, name)
}

// truncate parses TRUNCATE [TABLE] t.
func (p *parser) truncate() (Statement, error) {
	p.next()
	p.accept("TABLE")
	d := &DDL{Op: TruncateTable, Original: strings.TrimSpace(p.sql)}
	var err error
	if d.Schema, d.Table, err = p.qualified(); err != nil {
		return nil, err
	}
	d.Tables = []string{d.Table}
	d.SQLite = []string{"DELETE FROM " + quoteIdent(d.Table)}
	return d, p.end()
}

// renameTable parses RENAME TABLE a TO b [, c TO d].
func (p *parser) renameTable() (Statement, error) {
	p.next()
	if err := p.expect("TABLE"); err != nil {
		return nil, err
	}
	d := &DDL{Op: RenameTable, Original: strings.TrimSpace(p.sql)}
	for {
		db1, from, err := p.qualified()
		if err != nil {
			return nil, err
		}
		if err := p.expect("TO"); err != nil {
			return nil, err
		}
		db2, to, err := p.qualified()
		if err != nil {
			return nil, err
		}
		if len(d.Tables) == 0 {
			d.Schema, d.Table = db1, from
		}
		if db1 != d.Schema || db2 != d.Schema {
			return unsupported("RENAME TABLE across databases")
		}
		d.Tables = append(d.Tables, from, to)
		if p.ctx.TableDef != nil && p.ctx.TableDef(db1, from).IsView() {
			d.SQLite = append(d.SQLite, renameView(from, to)...)
		} else {
			d.SQLite = append(d.SQLite, "ALTER TABLE "+quoteIdent(from)+" RENAME TO "+quoteIdent(to))
		}
		if !p.acceptOp(",") {
			break
		}
	}
	return d, p.end()
}

// alter dispatches ALTER statements.
func (p *parser) alter() (Statement, error) {
	p.next()
	p.accept("ONLINE")
	p.accept("IGNORE")
	switch {
	case p.accept("TABLE"):
		return p.alterTable()
	case p.accept("USER"):
		return p.alterUser()
	}
	for j := p.i; j < len(p.toks) && j < p.i+24; j++ {
		if p.toks[j].is("VIEW") {
			return p.createView(true)
		}
	}
	if p.eof() {
		return nil, p.errHere()
	}
	return unsupported("ALTER " + strings.ToUpper(p.peek().text))
}

// alterTable parses ALTER TABLE t action, ... into SQLite statements. Renames
// run last so that the other actions still name the original table.
func (p *parser) alterTable() (Statement, error) {
	d := &DDL{Op: AlterTable, Original: strings.TrimSpace(p.sql)}
	var err error
	if d.Schema, d.Table, err = p.qualified(); err != nil {
		return nil, err
	}
	d.Tables = []string{d.Table}
	if p.eof() {
		return d, nil
	}
	if p.ctx.TableDef != nil {
		if def := p.ctx.TableDef(d.Schema, d.Table); def != nil {
			if handled, st, err := p.alterDefined(d, def); handled {
				return st, err
			}
		}
	}
	rw, err := newRewriter(p, p.i, len(p.toks))
	if err != nil {
		return nil, err
	}
	var renames []string
	alter := "ALTER TABLE " + quoteIdent(d.Table) + " "
	for _, r := range splitTop(p.toks, p.i, len(p.toks)) {
		if r[0] >= r[1] {
			return nil, syntaxError(p.sql, p.toks[min(r[0], len(p.toks)-1)].pos)
		}
		sp := &parser{sql: p.sql, toks: p.toks[:r[1]], i: r[0], ctx: p.ctx}
		switch {
		case sp.peek().is("ADD"):
			sp.next()
			if sp.peek().is("CHECK") || sp.peek().is("CONSTRAINT") && (sp.peekAt(1).is("CHECK") || sp.peekAt(2).is("CHECK")) {
				return unsupported("ALTER TABLE ... ADD CHECK")
			}
			if isIndexItem(sp.peek()) && !sp.peek().is("CHECK") {
				if sp.peek().is("FOREIGN") || sp.peek().is("CONSTRAINT") && sp.peekAt(2).is("FOREIGN") {
					return unsupported("ALTER TABLE ... ADD FOREIGN KEY")
				}
				ix, err := sp.parseIndexDef(rw)
				if err != nil {
					return nil, err
				}
				if ix.primary {
					return unsupported("ALTER TABLE ... ADD PRIMARY KEY")
				}
				if !ix.skip {
					if ix.name == "" {
						ix.name = ix.parts[0].name
					}
					d.SQLite = append(d.SQLite, indexSQL(d.Table, ix.name, ix.unique, false, ix.parts))
				}
				continue
			}
			sp.accept("COLUMN")
			ranges := [][2]int{{sp.i, r[1]}}
			if sp.peek().isOp("(") {
				end := matchParen(p.toks, sp.i)
				if end != r[1]-1 {
					return nil, sp.errHere()
				}
				ranges = splitTop(p.toks, sp.i+1, end)
			}
			for _, cr := range ranges {
				hi := cr[1]
				// FIRST / AFTER x place the column, which SQLite's ADD COLUMN cannot
				// do: appending it instead would put positional INSERTs' values
				// into the wrong columns, so it is refused.
				if hi-cr[0] > 2 && p.toks[hi-2].is("AFTER") || hi-cr[0] > 1 && p.toks[hi-1].is("FIRST") {
					return unsupported("ALTER TABLE ... ADD COLUMN ... FIRST/AFTER")
				}
				if cr[0] >= hi {
					return nil, sp.errHere()
				}
				c, what, err := p.parseColumn(rw, cr[0], hi)
				if err != nil {
					return nil, err
				}
				if what != "" {
					return unsupported(what)
				}
				if c.autoInc || c.primary || c.unique {
					return unsupported("ALTER TABLE ... ADD COLUMN with a key")
				}
				// SQLite adds neither a STORED column nor one whose default is an
				// expression (rows already stored would need their values).
				if c.stored {
					return unsupported("ALTER TABLE ... ADD COLUMN ... STORED")
				}
				if c.defExpr != [2]int{} {
					return unsupported("ALTER TABLE ... ADD COLUMN with a default expression")
				}
				if c.collate, err = p.columnCollation(c, p.tableCollation(d.Schema, d.Table)); err != nil {
					return nil, err
				}
				d.SQLite = append(d.SQLite, alter+"ADD COLUMN "+c.render(false))
			}
			sp.i = r[1]
		case sp.peek().is("DROP"):
			sp.next()
			switch {
			case sp.accept("INDEX"), sp.accept("KEY"):
				name, err := sp.name()
				if err != nil {
					return nil, err
				}
				d.SQLite = append(d.SQLite, dropIndexSQL(d.Table, name, false))
			case sp.accept("PRIMARY", "KEY"):
				return unsupported("ALTER TABLE ... DROP PRIMARY KEY")
			case sp.accept("FOREIGN"), sp.accept("CONSTRAINT"), sp.accept("CHECK"):
				return unsupported("ALTER TABLE ... DROP CONSTRAINT")
			default:
				sp.accept("COLUMN")
				name, err := sp.name()
				if err != nil {
					return nil, err
				}
				sp.accept("RESTRICT")
				sp.accept("CASCADE")
				d.SQLite = append(d.SQLite, alter+"DROP COLUMN "+quoteIdent(name))
			}
		case sp.peek().is("RENAME"):
			sp.next()
			switch {
			case sp.accept("COLUMN"):
				from, err := sp.name()
				if err != nil {
					return nil, err
				}
				if err := sp.expect("TO"); err != nil {
					return nil, err
				}
				to, err := sp.name()
				if err != nil {
					return nil, err
				}
				d.SQLite = append(d.SQLite, alter+"RENAME COLUMN "+quoteIdent(from)+" TO "+quoteIdent(to))
			case sp.peek().is("INDEX") || sp.peek().is("KEY"):
				return unsupported("ALTER TABLE ... RENAME INDEX")
			default:
				if !sp.accept("TO") {
					sp.accept("AS")
				}
				db, to, err := sp.qualified()
				if err != nil {
					return nil, err
				}
				if db != d.Schema {
					return unsupported("RENAME TABLE across databases")
				}
				d.Tables = append(d.Tables, to)
				renames = append(renames, alter+"RENAME TO "+quoteIdent(to))
			}
		case sp.peek().is("ALTER") && !sp.peekAt(1).is("INDEX") && !sp.peekAt(1).is("KEY") && !sp.peekAt(1).is("CHECK") && !sp.peekAt(1).is("CONSTRAINT"):
			ad, what, err := sp.alterColumnDefault(rw)
			if err != nil {
				return nil, err
			}
			if what != "" {
				return unsupported(what)
			}
			d.defaults = append(d.defaults, ad)
		case sp.peek().is("MODIFY") || sp.peek().is("CHANGE") || sp.peek().is("ALTER"):
			return unsupported("ALTER TABLE ... " + strings.ToUpper(sp.peek().text))
		case sp.accept("DISABLE", "KEYS"), sp.accept("ENABLE", "KEYS"), sp.accept("FORCE"):
		case sp.peek().is("AUTO_INCREMENT") && sp.i+2 >= len(sp.toks)-1 && sp.toks[len(sp.toks)-1].kind == tkNumber:
			// The next id: never below what the table already used, as in InnoDB.
			n, err := strconv.ParseUint(sp.toks[len(sp.toks)-1].text, 10, 64)
			if err != nil || n == 0 {
				return nil, sp.errHere()
			}
			name := sqlString(d.Table)
			d.CatalogAfter = append(d.CatalogAfter,
				"UPDATE sqlite_sequence SET seq = max(seq, "+strconv.FormatUint(n-1, 10)+") WHERE name = "+name+" COLLATE NOCASE",
				"INSERT INTO sqlite_sequence (name, seq) SELECT "+name+", "+strconv.FormatUint(n-1, 10)+" WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = "+name+" COLLATE NOCASE)")
			sp.i = len(sp.toks)
		case sp.peek().is("COMMENT") && sp.i+2 >= len(sp.toks)-1 && sp.toks[len(sp.toks)-1].kind == tkString:
			d.CatalogAfter = append(d.CatalogAfter, "UPDATE "+catalogTable+" SET def = json_set(def, '$.comment', "+sqlString(sp.toks[len(sp.toks)-1].val)+") WHERE name = "+sqlString(d.Table))
			sp.i = len(sp.toks)
		case sp.peek().is("ALGORITHM") || sp.peek().is("LOCK") || sp.peek().is("ENGINE") || sp.peek().is("DEFAULT") ||
			sp.peek().is("CHARACTER") || sp.peek().is("CHARSET") || sp.peek().is("COLLATE") || sp.peek().is("CONVERT") ||
			sp.peek().is("COMMENT") || sp.peek().is("AUTO_INCREMENT") || sp.peek().is("ROW_FORMAT") || sp.peek().is("ORDER") ||
			sp.peek().is("KEY_BLOCK_SIZE") || sp.peek().is("STATS_PERSISTENT") || sp.peek().is("PACK_KEYS") || sp.peek().is("CHECKSUM"):
			// table options and hints without a SQLite meaning
			sp.i = len(sp.toks)
		default:
			return unsupported("ALTER TABLE ... " + strings.ToUpper(sp.peek().text))
		}
		if err := sp.end(); err != nil {
			return nil, err
		}
	}
	d.SQLite = append(d.SQLite, renames...)
	return d, nil
}
