package sqlcompat

import (
	"strings"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
)

// Changing a SQLite table's shape is SQLite's documented procedure for the
// changes its own ALTER TABLE cannot make: create the new table under another
// name, copy the rows, drop the old table, rename the new one, create its
// indexes and triggers again. The DDL's statements run in one SQLite
// transaction (the engine's DDL savepoint) with the catalog change, so a crash
// leaves the old table or the new one, never a mix. The copy is one INSERT ...
// SELECT whose values convert as MySQL's ALTER TABLE converts them
// (catalog.CopyValue). The rename runs with legacy_alter_table on: the other
// tables' foreign key triggers name the table, and SQLite's checking rename would
// refuse them while it is missing; the engine turns the setting off again
// whatever happens.

// rebuildTable is the name the new table is built under.
const rebuildTable = "binlite_alter_new"

// compile turns the plan into the DDL's statements and the table's new definition.
func (pl *alterPlan) compile() error {
	d, old := pl.d, pl.old
	inner, err := pl.p.createFrom(pl.createText(), d.Schema, nil)
	if err != nil {
		return err
	}
	def := inner.Def
	for _, c := range pl.cols {
		nc, _ := def.Column(c.name)
		if c.def != nil && nc != nil {
			nc.NoDefault = c.def.NoDefault // ALTER COLUMN ... DROP DEFAULT's, which the text cannot say
			if !nc.Nullable && nc.Default != nil && nc.Default.Null {
				// A column an added PRIMARY KEY makes NOT NULL loses the DEFAULT
				// NULL it was printed with, as in MySQL.
				nc.Default = nil
			}
		}
	}
	def.AutoIncrement = old.AutoIncrement
	if err := duplicates(def); err != nil {
		return err
	}
	var redefined []catalog.Column
	for _, c := range pl.cols {
		if c.def != nil {
			continue
		}
		nc, _ := def.Column(c.name)
		redefined = append(redefined, *nc)
		if c.from == "" {
			pl.copies = pl.copies || nc.Generated != nil && nc.Generated.Stored
			continue
		}
		oc, _ := old.Column(c.from)
		pl.copies = pl.copies || catalog.ChangeCopies(oc, nc)
	}
	for _, ck := range def.Checks {
		// MySQL checks the rows against a CHECK it did not enforce before.
		if ck.NotEnforced {
			continue
		}
		checked := false
		for _, oc := range old.Checks {
			checked = checked || strings.EqualFold(oc.Name, ck.Name) && oc.Expr == ck.Expr && !oc.NotEnforced
		}
		pl.copies = pl.copies || !checked
	}
	for _, m := range (&catalog.Table{Columns: redefined}).Deprecations() {
		d.Warnings = append(d.Warnings, mysqlerr.Warn(mysqlerr.ErWarnDeprecatedSyntaxNoReplacement, "%s", m))
	}
	d.DroppedColumns = pl.droppedCols
	for _, k := range pl.droppedKeys {
		if !containsFold(pl.renamedKeys, k) {
			d.DroppedIndexes = append(d.DroppedIndexes, k)
		}
	}
	for _, r := range pl.renames {
		d.SQLite = append(d.SQLite, "ALTER TABLE "+quoteIdent(d.Table)+" RENAME COLUMN "+quoteIdent(r[0])+" TO "+quoteIdent(r[1]))
		// Other tables' foreign keys follow the column (SQLite's rename changed
		// their clauses; binlite_rename_ref changes their definitions).
		d.CatalogAfter = append(d.CatalogAfter, "UPDATE "+catalogTable+" SET def = binlite_rename_ref(def, "+sqlString(d.Table)+", "+sqlString(r[0])+", "+sqlString(r[1])+")")
	}
	if stmts, ok := pl.inPlace(inner, def); ok {
		d.SQLite = append(d.SQLite, stmts...)
	} else if err := pl.rebuild(inner, def); err != nil {
		return err
	}
	enc, err := def.Encode()
	if err != nil {
		return mysqlerr.New(mysqlerr.ErUnknownError, "%v", err)
	}
	d.CatalogAfter = append(d.CatalogAfter, "UPDATE "+catalogTable+" SET def = "+sqlString(enc)+" WHERE name = "+sqlString(d.Table))
	d.CatalogAfter = append(d.CatalogAfter, pl.autoIncOptions...)
	if t := pl.tableRename; t != "" {
		to := sqlString(t)
		d.CatalogAfter = append(d.CatalogAfter, "ALTER TABLE "+quoteIdent(d.Table)+" RENAME TO "+quoteIdent(t),
			"UPDATE "+catalogTable+" SET name = "+to+", def = json_set(def, '$.name', "+to+") WHERE name = "+sqlString(d.Table))
	}
	d.Def, d.planned = def, true
	return nil
}

// createText is the CREATE TABLE of the altered table.
func (pl *alterPlan) createText() string {
	var items []string
	for _, c := range pl.cols {
		items = append(items, c.definition(pl.old))
	}
	for _, k := range pl.keys {
		if k.old != nil {
			items = append(items, k.old.Definition())
		} else {
			items = append(items, k.text)
		}
	}
	for _, fk := range pl.fks {
		items = append(items, fk.Definition())
	}
	items = append(items, pl.newFKs...)
	for _, c := range pl.checks {
		if c.old != nil {
			items = append(items, c.old.Definition())
		} else {
			items = append(items, c.text)
		}
	}
	opts := *pl.old
	if pl.comment != nil {
		opts.Comment = *pl.comment
	}
	return "CREATE TABLE " + quoteMySQL(pl.d.Table) + " (\n  " + strings.Join(items, ",\n  ") + "\n) " + opts.Options(0)
}

// createFrom compiles CREATE TABLE text that binlite wrote (ALTER TABLE's, CREATE
// TABLE ... LIKE's) for schema: its SQLite statements and its definition, which
// adjust (if not nil) changes first in what the text cannot say.
func (p *parser) createFrom(text, schema string, adjust func(*catalog.Table)) (*DDL, error) {
	toks, lerr := lex(text)
	if lerr != nil {
		return nil, syntaxError(text, lerr.pos)
	}
	ctx := *p.ctx
	ctx.DB = schema
	cp := &parser{sql: text, toks: toks, ctx: &ctx}
	cp.next()
	cp.next() // CREATE TABLE
	st, err := cp.createTable(false)
	if err != nil {
		return nil, err
	}
	d, ok := st.(*DDL)
	if !ok {
		return nil, st.(*Unsupported).Err()
	}
	if d.def == nil {
		return nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'this table definition in ALTER TABLE or CREATE TABLE ... LIKE'")
	}
	if adjust != nil {
		adjust(d.def)
	}
	if err := createTableCatalog(d); err != nil {
		return nil, err
	}
	return d, nil
}

// duplicates refuses two keys or two CHECK constraints of one name, and a key
// on a column the table does not have.
func duplicates(def *catalog.Table) error {
	seen := map[string]bool{}
	for _, ix := range def.Indexes {
		k := strings.ToLower(ix.Name)
		if seen[k] {
			return mysqlerr.New(mysqlerr.ErDupKeyName, "Duplicate key name '%s'", ix.Name)
		}
		seen[k] = true
		for _, p := range ix.Parts {
			if _, ok := def.Column(p.Column); p.Column != "" && !ok {
				return mysqlerr.New(mysqlerr.ErKeyColumnDoesNotExist, "Key column '%s' doesn't exist in table", p.Column)
			}
		}
	}
	seen = map[string]bool{}
	for _, c := range def.Checks {
		k := strings.ToLower(c.Name)
		if seen[k] {
			return mysqlerr.New(mysqlerr.ErCheckConstraintDupName, "Duplicate check constraint name '%s'.", c.Name)
		}
		seen[k] = true
	}
	return nil
}

// inPlace returns the statements that make the old SQLite table the new one
// without copying it; ok=false when it must be rebuilt. SQLite changes in place
// keys added or dropped, columns renamed (already done), defaults changed (the
// INSERT then writes them: Column.DefaultSupplied) and columns added at the end
// that its ADD COLUMN adds as MySQL does.
func (pl *alterPlan) inPlace(inner *DDL, def *catalog.Table) (out []string, ok bool) {
	old, t := pl.old, quoteIdent(pl.d.Table)
	if pl.reshape || pl.copies {
		return nil, false
	}
	for _, c := range pl.cols {
		nc, _ := def.Column(c.name)
		if c.from == "" {
			// The ON UPDATE trigger names every column: a new one needs a new trigger.
			add, ok := pl.appendColumn(inner, def, nc, c)
			if !ok || old.HasOnUpdate() || def.HasOnUpdate() {
				return nil, false
			}
			out = append(out, add)
			continue
		}
		oc, _ := old.Column(c.from)
		if !catalog.SameStorage(oc, nc) {
			return nil, false
		}
		if oc.SQLiteDefault() != nc.SQLiteDefault() || oc.DefaultSupplied {
			nc.DefaultSupplied = true // the SQLite table keeps the old default
		}
	}
	oldPK, _ := old.PrimaryKey()
	newPK, _ := def.PrimaryKey()
	if (oldPK == nil) != (newPK == nil) || oldPK != nil && oldPK.Definition() != newPK.Definition() {
		return nil, false
	}
	for _, name := range pl.droppedKeys {
		if ix := index(old, name); ix != nil && (ix.Kind == catalog.KindIndex || ix.Kind == catalog.KindUnique) {
			out = append(out, dropIndexSQL(pl.d.Table, name, false))
		}
	}
	for _, ix := range def.Indexes {
		if index(old, ix.Name) != nil && !containsFold(pl.droppedKeys, ix.Name) {
			continue
		}
		prefix := " " + indexName(pl.d.Table, ix.Name) + " ON " + t + " "
		for _, q := range inner.SQLite[1:] {
			if strings.Contains(q, prefix) {
				out = append(out, q)
			}
		}
	}
	return out, true
}

// appendColumn is SQLite's ADD COLUMN of new column nc, when SQLite can add it
// as MySQL does: at the end, with a constant default (every existing row gets
// it), no key and no CHECK to verify on the rows.
func (pl *alterPlan) appendColumn(inner *DDL, def *catalog.Table, nc *catalog.Column, c *planColumn) (string, bool) {
	if !c.end || nc.AutoIncrement || nc.DefaultSupplied || nc.Generated != nil && nc.Generated.Stored || nc.OnUpdate != "" {
		return "", false
	}
	var col *column
	for _, cc := range inner.create.cols {
		if strings.EqualFold(cc.name, nc.Name) {
			col = cc
		}
	}
	if col == nil || col.primary || col.unique || len(col.extra) > 0 || col.defExpr != [2]int{} ||
		col.def == "CURRENT_TIMESTAMP" || col.notNull && col.def == "NULL" {
		return "", false
	}
	if col.notNull && col.def == "" {
		// The rows there get the type's implicit default, as in MySQL; SQLite
		// needs it as the column's default to add it (an INSERT that leaves the
		// column out is refused first under strict mode: no default in MySQL).
		zero, ok := nc.ImplicitValue()
		if !ok {
			return "", false
		}
		withZero := *col
		withZero.def = zero
		col = &withZero
	}
	for _, ix := range def.Indexes {
		for _, p := range ix.Parts {
			if ix.Kind == catalog.KindPrimary && strings.EqualFold(p.Column, nc.Name) {
				return "", false
			}
		}
	}
	ref := strings.ToLower(quoteMySQL(nc.Name))
	for _, ck := range def.Checks {
		if !ck.NotEnforced && strings.Contains(strings.ToLower(ck.Expr), ref) {
			return "", false
		}
	}
	s := "ALTER TABLE " + quoteIdent(pl.d.Table) + " ADD COLUMN " + col.render(false)
	if checks := def.ColumnValueChecks(nc.Name); len(checks) > 0 {
		s += " " + strings.Join(checks, " ")
	}
	return s, true
}

// index is t's key name, or nil.
func index(t *catalog.Table, name string) *catalog.Index {
	for i := range t.Indexes {
		if strings.EqualFold(t.Indexes[i].Name, name) {
			return &t.Indexes[i]
		}
	}
	return nil
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// rebuild adds the statements that build the new table, copy the rows into it
// and put it in the old one's place.
func (pl *alterPlan) rebuild(inner *DDL, def *catalog.Table) error {
	d := pl.d
	stmts := inner.Statements()[len(inner.CatalogBefore):]
	create := stmts[0]
	head := "CREATE TABLE " + quoteIdent(d.Table) + " ("
	if !strings.HasPrefix(create, head) {
		return mysqlerr.New(mysqlerr.ErUnknownError, "alter table: unexpected statement %q", create)
	}
	tmp := quoteIdent(rebuildTable)
	d.SQLite = append(d.SQLite, "DROP TABLE IF EXISTS "+tmp, "CREATE TABLE "+tmp+" ("+create[len(head):])
	copyRows, err := pl.copyRows(inner, def)
	if err != nil {
		return err
	}
	d.SQLite = append(d.SQLite, copyRows)
	if pl.copies {
		d.counted = len(d.SQLite)
	}
	t := sqlString(d.Table)
	if strings.Contains(create, " AUTOINCREMENT") {
		// The AUTO_INCREMENT counter stays where it was (SQLite's sqlite_sequence
		// row goes with the dropped table, and follows the renamed one).
		n := sqlString(rebuildTable)
		old := "(SELECT seq FROM sqlite_sequence WHERE name = " + t + " COLLATE NOCASE)"
		d.SQLite = append(d.SQLite,
			"UPDATE sqlite_sequence SET seq = max(seq, ifnull("+old+", 0)) WHERE name = "+n,
			"INSERT INTO sqlite_sequence (name, seq) SELECT "+n+", "+old+" WHERE "+old+" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = "+n+")")
	}
	d.SQLite = append(d.SQLite,
		"DROP TABLE "+quoteIdent(d.Table),
		"PRAGMA legacy_alter_table = ON",
		"ALTER TABLE "+tmp+" RENAME TO "+quoteIdent(d.Table),
		"PRAGMA legacy_alter_table = OFF")
	d.SQLite = append(d.SQLite, stmts[1:]...) // indexes, the ON UPDATE trigger
	return nil
}

// copyRows is the INSERT ... SELECT that copies the old table's rows into the
// new one, in the old table's primary key order (MySQL's copy order, which its
// "at row N" counts).
func (pl *alterPlan) copyRows(inner *DDL, def *catalog.Table) (string, error) {
	old := pl.old
	current := map[string]string{} // an old column's name in the SQLite table now (after renames)
	for _, c := range old.Columns {
		current[strings.ToLower(c.Name)] = c.Name
	}
	for _, r := range pl.renames {
		for k, v := range current {
			if strings.EqualFold(v, r[0]) {
				current[k] = r[1]
			}
		}
	}
	var names, values []string
	for i := range def.Columns {
		nc := &def.Columns[i]
		if nc.Generated != nil {
			continue
		}
		c := pl.cols[pl.column(nc.Name)]
		if c.from == "" {
			v, ok, err := pl.newValue(inner, def, nc)
			if err != nil {
				return "", err
			}
			if ok {
				names, values = append(names, quoteIdent(nc.Name)), append(values, v)
			}
			continue
		}
		oc, _ := old.Column(c.from)
		src := quoteIdent(current[strings.ToLower(c.from)])
		v, err := catalog.CopyValue(src, oc, nc)
		if err != nil {
			return "", err
		}
		if oc.Nullable && !nc.Nullable {
			if v, err = catalog.NullCopy(v, nc, pl.copies); err != nil {
				return "", err
			}
		}
		names, values = append(names, quoteIdent(nc.Name)), append(values, v)
	}
	q := "INSERT INTO " + quoteIdent(rebuildTable) + " (" + strings.Join(names, ", ") + ") SELECT " + strings.Join(values, ", ") + " FROM " + quoteIdent(pl.d.Table)
	if pk, ok := old.PrimaryKey(); ok {
		var order []string
		for _, p := range pk.Parts {
			if p.Column == "" {
				order = nil
				break
			}
			order = append(order, quoteIdent(current[strings.ToLower(p.Column)]))
		}
		if len(order) > 0 {
			q += " ORDER BY " + strings.Join(order, ", ")
		}
	}
	if len(names) == 0 {
		return "", mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'ALTER TABLE leaving only generated columns'")
	}
	return q, nil
}

// newValue is the value a column the ALTER adds gets in the rows already there
// when the new SQLite table's own default does not give it (ok=false: it does):
// a default SQLite does not hold, or the implicit default of a NOT NULL column
// without one.
func (pl *alterPlan) newValue(inner *DDL, def *catalog.Table, nc *catalog.Column) (string, bool, error) {
	switch {
	case nc.AutoIncrement:
		// SQLite numbers the rows when the column is the rowid; otherwise it
		// would leave them NULL.
		if !strings.Contains(inner.SQLite[0], quoteIdent(nc.Name)+" INTEGER PRIMARY KEY AUTOINCREMENT") {
			return "", false, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'ALTER TABLE ... ADD COLUMN ... AUTO_INCREMENT that is not the primary key'")
		}
		return "", false, nil
	case nc.Default != nil && nc.DefaultSupplied:
		sql, refs, err := nc.DefaultSQL()
		if err != nil {
			return "", false, err
		}
		for _, r := range refs {
			i := pl.column(r)
			if i < 0 || pl.cols[i].def == nil || !strings.EqualFold(pl.cols[i].from, r) {
				return "", false, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'ALTER TABLE adding column %s whose default reads a column the statement changes'", nc.Name)
			}
		}
		return sql, true, nil
	case nc.Default == nil && !nc.Nullable:
		// A temporal column's zero value is not one strict mode takes: the rows
		// get no value, which the NOT NULL column refuses if there are any.
		zero, ok := nc.ImplicitValue()
		return zero, ok, nil
	}
	return "", false, nil
}
