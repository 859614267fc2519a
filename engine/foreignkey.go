package engine

import (
	"database/sql/driver"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/binlite/binlite/mysqlerr"
)

// Foreign keys are enforced by triggers binlite derives from the schema file, not by
// SQLite's own foreign key support (connections run with it off), because InnoDB's
// differ from SQLite's in ways an application sees:
//
//   - InnoDB checks every row as it is written (a multi-row INSERT into a
//     self-referencing table may not name a parent that a later row inserts);
//     SQLite's immediate constraints are checked at the end of the statement;
//   - MySQL names the failing constraint and tells a parent (1451) from a child
//     (1452) failure; SQLite says "FOREIGN KEY constraint failed";
//   - foreign_key_checks=0 is per session and may change inside a transaction;
//     PRAGMA foreign_keys is per connection (the schema's writer serves every
//     session's statements in one shared transaction) and is a no-op inside one;
//   - a replica stores the row images its source logged, cascaded rows included,
//     without running the actions or checks again.
//
// The SQLite table keeps its FOREIGN KEY clauses (SQLite maintains them through
// RENAME TABLE and RENAME COLUMN, and they survive an ALTER that drops the stored
// MySQL definition); after every DDL the triggers are made to match them
// (syncForeignKeys). Every trigger acts only while binlite_fk_checks() is true.

// ForeignKey is one FOREIGN KEY constraint of a table.
type ForeignKey struct {
	Name       string // MySQL's constraint name (the definition's; else <table>_ibfk_<n>)
	Table      string // the child table
	Columns    []string
	Parent     string // the referenced table
	RefColumns []string
	OnDelete   string // as SQLite spells it: NO ACTION, RESTRICT, CASCADE, SET NULL, SET DEFAULT
	OnUpdate   string
}

// Text is the constraint as MySQL's messages print it:
// CONSTRAINT `n` FOREIGN KEY (`a`) REFERENCES `p` (`id`) ON DELETE CASCADE.
func (fk *ForeignKey) Text(parentSchema string) string {
	q := func(cols []string) string {
		out := make([]string, len(cols))
		for i, c := range cols {
			out[i] = backtick(c)
		}
		return strings.Join(out, ", ")
	}
	parent := backtick(fk.Parent)
	if parentSchema != "" {
		parent = backtick(parentSchema) + "." + parent
	}
	s := "CONSTRAINT " + backtick(fk.Name) + " FOREIGN KEY (" + q(fk.Columns) + ") REFERENCES " + parent + " (" + q(fk.RefColumns) + ")"
	if fk.OnDelete != "NO ACTION" && fk.OnDelete != "" {
		s += " ON DELETE " + fk.OnDelete
	}
	if fk.OnUpdate != "NO ACTION" && fk.OnUpdate != "" {
		s += " ON UPDATE " + fk.OnUpdate
	}
	return s
}

func backtick(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// fkMessageMark starts a trigger's message that fromFnError completes (fkMessage).
const fkMessageMark = "fk:"

// fkMessage is MySQL's 1451/1452 text; rest is "`child`, CONSTRAINT ...".
func fkMessage(code uint16, db, rest string) string {
	head := "Cannot add or update a child row"
	if code == mysqlerr.ErRowIsReferenced {
		head = "Cannot delete or update a parent row"
	}
	return head + ": a foreign key constraint fails (" + backtick(db) + "." + rest + ")"
}

// loadForeignKeys reads the FOREIGN KEY clauses of the tables whose SQLite
// definition has one, naming them from the stored MySQL definitions.
func loadForeignKeys(c *sqliteConn, cat catalog, withRefs []string) error {
	for _, name := range withRefs {
		t := cat[name]
		if t == nil {
			continue
		}
		rows, err := c.query(`SELECT id, "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id DESC, seq`, name)
		if err != nil {
			return fmt.Errorf("engine: foreign keys of %s: %w", name, err)
		}
		dest := make([]driver.Value, 6)
		var fks []ForeignKey
		last := int64(-1)
		for {
			if err := rows.Next(dest); err != nil {
				if err == io.EOF {
					break
				}
				rows.Close()
				return fmt.Errorf("engine: foreign keys of %s: %w", name, err)
			}
			if id := asInt(dest[0]); id != last || len(fks) == 0 {
				last = id
				fks = append(fks, ForeignKey{Table: name, Parent: asString(dest[1]), OnUpdate: asString(dest[4]), OnDelete: asString(dest[5])})
			}
			fk := &fks[len(fks)-1]
			fk.Columns = append(fk.Columns, asString(dest[2]))
			fk.RefColumns = append(fk.RefColumns, asString(dest[3]))
		}
		rows.Close()
		used := map[string]bool{}
		for i := range fks {
			if n := definedName(t, &fks[i]); n != "" {
				fks[i].Name = n
				used[strings.ToLower(n)] = true
			}
		}
		n := 0
		for i := range fks {
			for fks[i].Name == "" {
				n++
				if g := fmt.Sprintf("%s_ibfk_%d", name, n); !used[strings.ToLower(g)] {
					fks[i].Name = g
				}
			}
			if fks[i].RefColumns[0] == "" {
				// REFERENCES p without columns means p's primary key.
				if p := cat.lookup(fks[i].Parent); p != nil && len(p.PK) == len(fks[i].Columns) {
					for k, pk := range p.PK {
						fks[i].RefColumns[k] = p.Columns[pk].Name
					}
				}
			}
		}
		t.ForeignKeys = fks
	}
	return nil
}

// definedName finds fk among the table's stored MySQL definition.
func definedName(t *Table, fk *ForeignKey) string {
	if t.Def == nil {
		return ""
	}
	for _, d := range t.Def.ForeignKeys {
		if len(d.Columns) == len(fk.Columns) && strings.EqualFold(d.RefTable, fk.Parent) && equalFoldAll(d.Columns, fk.Columns) {
			return d.Name
		}
	}
	return ""
}

func equalFoldAll(a, b []string) bool {
	for i := range a {
		if !strings.EqualFold(a[i], b[i]) {
			return false
		}
	}
	return true
}

// lookup finds a table by name as SQLite does, ignoring case.
func (cat catalog) lookup(name string) *Table {
	if t := cat[name]; t != nil {
		return t
	}
	for n, t := range cat {
		if strings.EqualFold(n, name) {
			return t
		}
	}
	return nil
}

// ReferencedBy lists the foreign keys of schema's tables that reference table.
func (e *Engine) ReferencedBy(schema, table string) []ForeignKey {
	s, err := e.schema(schema)
	if err != nil {
		return nil
	}
	var out []ForeignKey
	for _, t := range *s.cat.Load() {
		for _, fk := range t.ForeignKeys {
			if strings.EqualFold(fk.Parent, table) {
				out = append(out, fk)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Table+"\x00"+out[i].Name < out[j].Table+"\x00"+out[j].Name })
	return out
}

// fkTriggerPrefix names binlite's foreign key triggers; syncForeignKeys owns them all.
const fkTriggerPrefix = "binlite_fk:"

// fkTriggers are the triggers that enforce cat's foreign keys, by name.
func fkTriggers(cat catalog) map[string]string {
	out := map[string]string{}
	for _, t := range cat {
		for i := range t.ForeignKeys {
			fk := &t.ForeignKeys[i]
			parent := cat.lookup(fk.Parent)
			for kind, sql := range fkTriggerSQL(fk, parent) {
				name := fkTriggerPrefix + fk.Table + ":" + fk.Name + ":" + kind
				out[name] = "CREATE TRIGGER " + quoteIdent(name) + " " + sql
			}
		}
	}
	return out
}

// fkTriggerSQL is the body of each trigger of fk after CREATE TRIGGER name, by kind:
// the child's checks (ins, upd) and the parent's restriction or action (del, upd
// of the referenced columns). parent is nil when the referenced table is missing
// (created or dropped with foreign_key_checks=0): every child row naming one fails.
func fkTriggerSQL(fk *ForeignKey, parent *Table) map[string]string {
	q := quoteIdent
	child, p := q(fk.Table), q(fk.Parent)
	rest := backtick(fk.Table) + ", " + fk.Text("")
	raise := func(code uint16) string {
		return "BEGIN SELECT RAISE(ABORT, " + sqlQuote(fnErrorText(code, fkMessageMark+rest)) + "); END"
	}
	var notNull, childChanged, parentChanged, match, refMatch, sets, nulls []string
	for k, c := range fk.Columns {
		r := fk.RefColumns[k]
		notNull = append(notNull, "NEW."+q(c)+" IS NOT NULL")
		childChanged = append(childChanged, "NEW."+q(c)+" IS NOT OLD."+q(c))
		parentChanged = append(parentChanged, "NEW."+q(r)+" IS NOT OLD."+q(r))
		match = append(match, q(r)+" = NEW."+q(c))
		refMatch = append(refMatch, q(c)+" = OLD."+q(r))
		sets = append(sets, q(c)+" = NEW."+q(r))
		nulls = append(nulls, q(c)+" = NULL")
	}
	and := func(s []string) string { return strings.Join(s, " AND ") }
	or := func(s []string) string { return "(" + strings.Join(s, " OR ") + ")" }
	cols := func(cs []string) string {
		out := make([]string, len(cs))
		for i, c := range cs {
			out[i] = q(c)
		}
		return strings.Join(out, ", ")
	}
	missing := "binlite_fk_checks()"
	if parent != nil {
		missing += " AND NOT EXISTS (SELECT 1 FROM " + p + " WHERE " + and(match) + ")"
	}
	out := map[string]string{
		"ins": "AFTER INSERT ON " + child + " FOR EACH ROW WHEN " + and(notNull) + " AND " + missing + " " + raise(mysqlerr.ErNoReferencedRow),
		"upd": "AFTER UPDATE OF " + cols(fk.Columns) + " ON " + child + " FOR EACH ROW WHEN " + or(childChanged) + " AND " + and(notNull) + " AND " + missing + " " + raise(mysqlerr.ErNoReferencedRow),
	}
	if parent == nil {
		return out
	}
	referenced := "EXISTS (SELECT 1 FROM " + child + " WHERE " + and(refMatch) + ")"
	switch fk.OnDelete {
	case "CASCADE":
		out["pdel"] = "AFTER DELETE ON " + p + " FOR EACH ROW WHEN binlite_fk_checks() BEGIN DELETE FROM " + child + " WHERE " + and(refMatch) + "; END"
	case "SET NULL":
		out["pdel"] = "AFTER DELETE ON " + p + " FOR EACH ROW WHEN binlite_fk_checks() BEGIN UPDATE " + child + " SET " + strings.Join(nulls, ", ") + " WHERE " + and(refMatch) + "; END"
	default:
		out["pdel"] = "BEFORE DELETE ON " + p + " FOR EACH ROW WHEN binlite_fk_checks() AND " + referenced + " " + raise(mysqlerr.ErRowIsReferenced)
	}
	onUpdate := fk.OnUpdate
	if strings.EqualFold(fk.Table, fk.Parent) {
		// InnoDB refuses a cascaded update of the table the cascade started from.
		onUpdate = "RESTRICT"
	}
	head := " UPDATE OF " + cols(fk.RefColumns) + " ON " + p + " FOR EACH ROW WHEN " + or(parentChanged) + " AND binlite_fk_checks()"
	switch onUpdate {
	case "CASCADE":
		out["pupd"] = "AFTER" + head + " BEGIN UPDATE " + child + " SET " + strings.Join(sets, ", ") + " WHERE " + and(refMatch) + "; END"
	case "SET NULL":
		out["pupd"] = "AFTER" + head + " BEGIN UPDATE " + child + " SET " + strings.Join(nulls, ", ") + " WHERE " + and(refMatch) + "; END"
	default:
		out["pupd"] = "BEFORE" + head + " AND " + referenced + " " + raise(mysqlerr.ErRowIsReferenced)
	}
	return out
}

func sqlQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// syncForeignKeys makes the schema's foreign key triggers those of cat: it drops
// what no longer matches and creates what is missing, inside the caller's
// transaction (the DDL's, an apply's, or opening a file made before the triggers).
func syncForeignKeys(c *sqliteConn, cat catalog) error {
	if err := syncTriggerSet(c, fkTriggerPrefix, fkTriggers(cat)); err != nil {
		return fmt.Errorf("engine: foreign key triggers: %w", err)
	}
	return nil
}

// syncTriggerSet makes the SQLite triggers whose names start with prefix exactly
// want (name → CREATE TRIGGER text): it drops those that differ or are no longer
// wanted and creates what is missing, in name order, inside the caller's
// transaction. Foreign keys (fkTriggerPrefix) and users' triggers (trgPrefix)
// are each one such set.
func syncTriggerSet(c *sqliteConn, prefix string, want map[string]string) error {
	rows, err := c.query(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, ?) = ?`, len(prefix), prefix)
	if err != nil {
		return err
	}
	have := map[string]string{}
	dest := make([]driver.Value, 2)
	for {
		if err := rows.Next(dest); err != nil {
			if err == io.EOF {
				break
			}
			rows.Close()
			return err
		}
		have[asString(dest[0])] = asString(dest[1])
	}
	rows.Close()
	for name, sql := range have {
		if want[name] != sql {
			if _, err := c.exec(`DROP TRIGGER IF EXISTS ` + quoteIdent(name)); err != nil {
				return fmt.Errorf("drop trigger %s: %w", name, err)
			}
		}
	}
	names := make([]string, 0, len(want))
	for name := range want {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if have[name] == want[name] {
			continue
		}
		if _, err := c.exec(want[name]); err != nil {
			return fmt.Errorf("create trigger %s: %w", name, err)
		}
	}
	return nil
}
