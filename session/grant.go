package session

import (
	"strings"

	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlcompat"
	"github.com/binlite/binlite/users"
)

// accountAllowed checks CREATE USER, DROP USER and ALTER USER / SET PASSWORD of
// another account: MySQL wants the CREATE USER privilege, or the write privilege
// on the mysql schema the statement amounts to.
func (s *Session) accountAllowed(st sqlcompat.Statement) error {
	if s.hasGlobal(users.CreateUser) {
		return nil
	}
	var p users.Priv
	switch x := st.(type) {
	case *sqlcompat.CreateUser:
		p = users.Insert
	case *sqlcompat.DropUser:
		p = users.Delete
	case *sqlcompat.AlterUser:
		if x.User == "" || x.User == s.account.User && hostOr(x.Host) == s.account.Host {
			return nil // one's own password
		}
		p = users.Update
	default:
		return nil
	}
	if s.grants().OnDB(users.Schema).Has(p) {
		return nil
	}
	return s.requireGlobal("CREATE USER", users.CreateUser)
}

// grantTarget reads GRANT's ON clause: *.*, *, db.*, db.tbl or tbl.
func (s *Session) grantTarget(on string) (users.Target, error) {
	db, table, qualified := strings.Cut(on, ".")
	if !qualified {
		db, table = s.db, on
		if on == "*" {
			table = "*"
		}
		if db == "" {
			return users.Target{}, mysqlerr.New(mysqlerr.ErNoDB, "No database selected")
		}
	}
	switch {
	case db == "*" && table == "*":
		return users.Target{Level: users.Global}, nil
	case db == "*":
		return users.Target{}, mysqlerr.New(mysqlerr.ErParse, "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '%s'", on)
	case table == "*":
		return users.Target{Level: users.DB, DB: db}, nil
	}
	if internalTable(table) {
		return users.Target{}, noSuchTable(db, table)
	}
	return users.Target{Level: users.Table, DB: db, Table: table}, nil
}

// grantPrivs reads GRANT's privilege list for a level, with MySQL's errors for
// a privilege that level cannot hold.
func grantPrivs(names []string, t users.Target) (users.Set, error) {
	var set users.Set
	for _, n := range names {
		switch n {
		case "ALL", "ALL PRIVILEGES":
			set = set.Union(users.All(t.Level))
			continue
		case "USAGE":
			continue
		}
		p, ok := users.ParsePriv(n)
		if !ok {
			if strings.Contains(n, " ") || !strings.Contains(n, "_") {
				return set, mysqlerr.New(mysqlerr.ErParse, "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '%s'", n)
			}
			return set, mysqlerr.New(3929, "Dynamic privilege '%s' is not registered with the server.", n)
		}
		if p != users.GrantOption && !users.All(t.Level).Has(p) {
			switch {
			case t.Level == users.Table:
				return set, mysqlerr.New(1144, "Illegal GRANT/REVOKE command; please consult the manual to see which privileges can be used")
			case p.Dynamic():
				return set, mysqlerr.New(3619, "Illegal privilege level specified for %s", p)
			default:
				return set, mysqlerr.New(1221, "Incorrect usage of DB GRANT and GLOBAL PRIVILEGES")
			}
		}
		set = set.With(p)
	}
	return set, nil
}

// mayGrant is nil when the session's account may grant or revoke privs at t:
// it must hold them and GRANT OPTION there (or above).
func (s *Session) mayGrant(t users.Target, privs users.Set) error {
	g := s.grants()
	var held users.Set
	switch t.Level {
	case users.Global:
		held = g.Global
	case users.DB:
		held = g.OnDB(t.DB)
	default:
		held = g.OnTable(t.DB, t.Table)
	}
	if held.Has(users.GrantOption) && held.Contains(privs) {
		return nil
	}
	switch t.Level {
	case users.Global:
		pw := "NO"
		if s.account.HasPassword {
			pw = "YES"
		}
		return mysqlerr.New(1045, "Access denied for user '%s'@'%s' (using password: %s)", s.account.User, s.account.Host, pw)
	case users.DB:
		return s.dbDenied(t.DB)
	}
	return s.tableDenied(users.GrantOption, t.DB, t.Table)
}

// grant runs GRANT privs ON target TO account [WITH GRANT OPTION].
func (s *Session) grant(x *sqlcompat.Grant) error {
	t, err := s.grantTarget(x.On)
	if err != nil {
		return err
	}
	privs, err := grantPrivs(x.Privs, t)
	if err != nil {
		return err
	}
	if x.GrantOption {
		privs = privs.With(users.GrantOption)
	}
	if err := s.mayGrant(t, privs); err != nil {
		return err
	}
	if t.Level == users.Table && !s.env.Engine.HasSchema(t.DB) {
		return noSuchTable(t.DB, t.Table)
	}
	if t.Level == users.Table {
		if _, err := s.table(t.DB, t.Table); err != nil {
			return err // MySQL refuses a table grant on a table that does not exist (1146)
		}
	}
	return s.users().Change(x.User, hostOr(x.Host), t, privs, false)
}

// revoke runs REVOKE privs ON target FROM account, and REVOKE ALL PRIVILEGES,
// GRANT OPTION FROM account.
func (s *Session) revoke(x *sqlcompat.Revoke) error {
	if x.All {
		if !s.hasGlobal(users.CreateUser) && !s.grants().OnDB(users.Schema).Has(users.Update) {
			return s.requireGlobal("CREATE USER", users.CreateUser)
		}
		return s.users().RevokeAll(x.User, hostOr(x.Host))
	}
	t, err := s.grantTarget(x.On)
	if err != nil {
		return err
	}
	privs, err := grantPrivs(x.Privs, t)
	if err != nil {
		return err
	}
	if err := s.mayGrant(t, privs); err != nil {
		return err
	}
	return s.users().Change(x.User, hostOr(x.Host), t, privs, true)
}
