package users

import (
	"slices"
	"strings"

	"github.com/binlite/binlite/mysqlerr"
)

// Grants live beside the user table, in the mysql schema, so they replicate with
// the accounts: the user table's privileges column holds the global privileges
// (static and dynamic names, comma-separated, GRANT OPTION among them), "db" the
// schema-level ones and "tables_priv" the table-level ones, each row's privileges
// in the same form. (MySQL spreads the same facts over mysql.user's *_priv
// columns, mysql.global_grants, mysql.db and mysql.tables_priv.)
var grantsDDL = []string{
	`CREATE TABLE IF NOT EXISTS "db" ("Host" TEXT NOT NULL, "Db" TEXT NOT NULL, "User" TEXT NOT NULL, "privileges" TEXT NOT NULL DEFAULT '', PRIMARY KEY ("Host", "Db", "User"))`,
	`CREATE TABLE IF NOT EXISTS "tables_priv" ("Host" TEXT NOT NULL, "Db" TEXT NOT NULL, "User" TEXT NOT NULL, "Table_name" TEXT NOT NULL COLLATE NOCASE, "privileges" TEXT NOT NULL DEFAULT '', PRIMARY KEY ("Host", "Db", "User", "Table_name"))`,
}

// Privs is the account's global privileges.
func (a *Account) Privs() Set {
	if a.User == root.User && a.Host == root.Host && slices.Equal(a.Privileges, root.Privileges) {
		return Everything
	}
	return parseList(strings.Join(a.Privileges, ","))
}

// Grants are an account's privileges at every level.
type Grants struct {
	Global Set
	DBs    []DBGrant
	Tables []TableGrant
}

// DBGrant is a GRANT ... ON db.* (Pattern may hold MySQL's % and _ wildcards).
type DBGrant struct {
	Pattern string
	Privs   Set
}

// TableGrant is a GRANT ... ON db.tbl.
type TableGrant struct {
	DB, Table string
	Privs     Set
}

// dbMatches applies a db grant's pattern: % and _ are wildcards, \ escapes them.
func dbMatches(pattern, db string) bool {
	if !strings.ContainsAny(pattern, `%_\`) {
		return pattern == db
	}
	return escapedLike(pattern, db)
}

func escapedLike(p, s string) bool {
	if p == "" {
		return s == ""
	}
	switch p[0] {
	case '%':
		for i := 0; i <= len(s); i++ {
			if escapedLike(p[1:], s[i:]) {
				return true
			}
		}
		return false
	case '_':
		return s != "" && escapedLike(p[1:], s[1:])
	case '\\':
		if len(p) > 1 {
			return s != "" && s[0] == p[1] && escapedLike(p[2:], s[1:])
		}
	}
	return s != "" && s[0] == p[0] && escapedLike(p[1:], s[1:])
}

// OnDB is what the account holds on every table of db: its global privileges
// and those of the db grants that match.
func (g *Grants) OnDB(db string) Set {
	s := g.Global
	for _, d := range g.DBs {
		if dbMatches(d.Pattern, db) {
			s = s.Union(d.Privs)
		}
	}
	return s
}

// OnTable is what the account holds on db.table.
func (g *Grants) OnTable(db, table string) Set {
	s := g.OnDB(db)
	for _, t := range g.Tables {
		if t.DB == db && strings.EqualFold(t.Table, table) {
			s = s.Union(t.Privs)
		}
	}
	return s
}

// AnyIn reports whether the account holds any privilege in db, on the schema
// or on one of its tables (what USE, SHOW DATABASES and SHOW TABLES ask).
func (g *Grants) AnyIn(db string) bool {
	if !g.OnDB(db).Minus(Of(GrantOption)).Empty() {
		return true
	}
	for _, t := range g.Tables {
		if t.DB == db && !t.Privs.Empty() {
			return true
		}
	}
	return false
}

// Load reads the schema- and table-level grants of user@host (the account's
// stored host pattern); global is its global privileges.
func (st *Store) Load(user, host string, global Set) (*Grants, error) {
	g := &Grants{Global: global}
	rows, err := st.eng.Query(Schema, nil, `SELECT "Db", "privileges" FROM "db" WHERE "User" = ? AND "Host" = ?`, []any{user, host})
	if err != nil {
		return nil, err
	}
	for _, r := range rows.Values {
		g.DBs = append(g.DBs, DBGrant{Pattern: asString(r[0]), Privs: parseList(asString(r[1]))})
	}
	rows, err = st.eng.Query(Schema, nil, `SELECT "Db", "Table_name", "privileges" FROM "tables_priv" WHERE "User" = ? AND "Host" = ?`, []any{user, host})
	if err != nil {
		return nil, err
	}
	for _, r := range rows.Values {
		g.Tables = append(g.Tables, TableGrant{DB: asString(r[0]), Table: asString(r[1]), Privs: parseList(asString(r[2]))})
	}
	return g, nil
}

// Target is what a GRANT or REVOKE applies to.
type Target struct {
	Level     Level
	DB, Table string
}

// ErrNoSuchGrant is MySQL's 1141/1147 for a REVOKE of what was never granted.
func errNoSuchGrant(user, host string, t Target) error {
	if t.Level == Table {
		return mysqlerr.New(1147, "There is no such grant defined for user '%s' on host '%s' on table '%s'", user, host, t.Table)
	}
	return mysqlerr.New(1141, "There is no such grant defined for user '%s' on host '%s'", user, host)
}

// Change adds (GRANT) or removes (REVOKE) privileges of user@host at a level. The
// account must exist (MySQL 8 no longer creates it: 1410).
func (st *Store) Change(user, host string, t Target, privs Set, revoke bool) error {
	a, ok := st.exact(user, host)
	if !ok {
		if revoke {
			return errNoSuchGrant(user, host, t)
		}
		return mysqlerr.New(1410, "You are not allowed to create a user with GRANT")
	}
	switch t.Level {
	case Global:
		cur := a.Privs()
		next := cur.Union(privs)
		if revoke {
			next = cur.Minus(privs)
		}
		_, err := st.exec(`UPDATE "user" SET "privileges" = ? WHERE "User" = ? AND "Host" = ?`, formatList(next), user, host)
		return err
	case DB:
		return st.changeRow(`"db"`, []string{"Db"}, []any{t.DB}, user, host, t, privs, revoke)
	default:
		return st.changeRow(`"tables_priv"`, []string{"Db", "Table_name"}, []any{t.DB, t.Table}, user, host, t, privs, revoke)
	}
}

// changeRow updates one db or tables_priv row; a row left with no privilege is deleted.
func (st *Store) changeRow(table string, keys []string, keyVals []any, user, host string, t Target, privs Set, revoke bool) error {
	where := `"User" = ? AND "Host" = ?`
	args := []any{user, host}
	for i, k := range keys {
		where += ` AND "` + k + `" = ?`
		args = append(args, keyVals[i])
	}
	rows, err := st.eng.Query(Schema, nil, `SELECT "privileges" FROM `+table+` WHERE `+where, args)
	if err != nil {
		return err
	}
	var cur Set
	exists := len(rows.Values) > 0
	if exists {
		cur = parseList(asString(rows.Values[0][0]))
	}
	next := cur.Union(privs)
	if revoke {
		if !exists {
			return errNoSuchGrant(user, host, t)
		}
		next = cur.Minus(privs)
	}
	switch {
	case next.Empty() && exists:
		_, err = st.exec(`DELETE FROM `+table+` WHERE `+where, args...)
	case next.Empty():
	case exists:
		_, err = st.exec(`UPDATE `+table+` SET "privileges" = ? WHERE `+where, append([]any{formatList(next)}, args...)...)
	default:
		cols := `"User", "Host", "` + strings.Join(keys, `", "`) + `", "privileges"`
		marks := strings.Repeat("?, ", len(args)) + "?"
		_, err = st.exec(`INSERT INTO `+table+` (`+cols+`) VALUES (`+marks+`)`, append(args, formatList(next))...)
	}
	return err
}

// RevokeAll is REVOKE ALL PRIVILEGES, GRANT OPTION FROM user@host: every level.
func (st *Store) RevokeAll(user, host string) error {
	if _, ok := st.exact(user, host); !ok {
		return mysqlerr.New(1141, "There is no such grant defined for user '%s' on host '%s'", user, host)
	}
	if _, err := st.exec(`UPDATE "user" SET "privileges" = '' WHERE "User" = ? AND "Host" = ?`, user, host); err != nil {
		return err
	}
	return st.DropGrants(user, host)
}

// DropGrants removes an account's schema and table grants (DROP USER).
func (st *Store) DropGrants(user, host string) error {
	for _, t := range []string{`"db"`, `"tables_priv"`} {
		if _, err := st.exec(`DELETE FROM `+t+` WHERE "User" = ? AND "Host" = ?`, user, host); err != nil {
			return err
		}
	}
	return nil
}

// Exists reports whether user@host is an account (exactly that host pattern).
func (st *Store) Exists(user, host string) bool {
	if user == root.User {
		return host == root.Host
	}
	_, ok := st.exact(user, host)
	return ok
}

// ShowGrants renders SHOW GRANTS FOR user@host as MySQL 8.4 does: the global
// static privileges (USAGE when none), the global dynamic ones, then one line
// per schema and per table.
func (st *Store) ShowGrants(user, host string) ([]string, error) {
	var g *Grants
	if user == root.User {
		if host != root.Host {
			return nil, mysqlerr.New(1141, "There is no such grant defined for user '%s' on host '%s'", user, host)
		}
		g = &Grants{Global: Everything}
	} else {
		a, ok := st.exact(user, host)
		if !ok {
			return nil, mysqlerr.New(1141, "There is no such grant defined for user '%s' on host '%s'", user, host)
		}
		var err error
		if g, err = st.Load(user, host, a.Privs()); err != nil {
			return nil, err
		}
	}
	to := " TO " + QuoteAccount(user, host)
	var out []string
	static, dynamic := splitStatic(g.Global)
	out = append(out, "GRANT "+staticText(static, Global)+" ON *.*"+to+withGrant(g.Global))
	if len(dynamic) > 0 {
		out = append(out, "GRANT "+strings.Join(dynamic, ",")+" ON *.*"+to+withGrant(g.Global))
	}
	dbs := slices.Clone(g.DBs)
	slices.SortFunc(dbs, func(a, b DBGrant) int { return strings.Compare(a.Pattern, b.Pattern) })
	for _, d := range dbs {
		s, _ := splitStatic(d.Privs)
		out = append(out, "GRANT "+staticText(s, DB)+" ON "+quoteName(d.Pattern)+".*"+to+withGrant(d.Privs))
	}
	tables := slices.Clone(g.Tables)
	slices.SortFunc(tables, func(a, b TableGrant) int {
		return strings.Compare(a.DB+"\x00"+a.Table, b.DB+"\x00"+b.Table)
	})
	for _, t := range tables {
		s, _ := splitStatic(t.Privs)
		out = append(out, "GRANT "+staticText(s, Table)+" ON "+quoteName(t.DB)+"."+quoteName(t.Table)+to+withGrant(t.Privs))
	}
	return out, nil
}

// splitStatic is s's static privileges (GRANT OPTION apart) and its dynamic
// privileges' names.
func splitStatic(s Set) (static Set, dynamic []string) {
	for _, p := range s.List() {
		switch {
		case p == GrantOption:
		case p.Dynamic():
			dynamic = append(dynamic, p.String())
		default:
			static = static.With(p)
		}
	}
	return static, dynamic
}

// staticText lists static privileges as SHOW GRANTS does: USAGE for none, ALL
// PRIVILEGES for all of a schema's or table's (MySQL lists the global ones).
func staticText(s Set, l Level) string {
	if s.Empty() {
		return "USAGE"
	}
	if l != Global && s.Contains(All(l)) {
		return "ALL PRIVILEGES"
	}
	var names []string
	for _, p := range s.List() {
		names = append(names, p.String())
	}
	return strings.Join(names, ", ")
}

func withGrant(s Set) string {
	if s.Has(GrantOption) {
		return " WITH GRANT OPTION"
	}
	return ""
}

func quoteName(n string) string { return "`" + strings.ReplaceAll(n, "`", "``") + "`" }

// QuoteAccount is `user`@`host` as SHOW GRANTS writes accounts.
func QuoteAccount(user, host string) string { return quoteName(user) + "@" + quoteName(host) }
