package session

import (
	"github.com/binlite/binlite/mysqlerr"
	mp "github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/sqlcompat"
)

// accountStmt runs CREATE/DROP/ALTER USER, GRANT and REVOKE. Accounts live in the
// replicated mysql.user table, so these go through the binary log like other writes.
func (s *Session) accountStmt(st sqlcompat.Statement) (*mp.Result, error) {
	if err := s.requireSuper("CREATE USER"); err != nil {
		return nil, err
	}
	if err := s.writable(); err != nil {
		return nil, err
	}
	if err := s.implicitCommit(); err != nil {
		return nil, err
	}
	u := s.env.Users
	var err error
	switch x := st.(type) {
	case *sqlcompat.CreateUser:
		err = u.CreateAccount(x.User, hostOr(x.Host), authSpec(x.Auth), s.env.Vars.String("authentication_policy"), x.IfNotExists)
	case *sqlcompat.DropUser:
		for _, a := range x.Accounts {
			if err = u.Drop(a.User, hostOr(a.Host), x.IfExists); err != nil {
				break
			}
		}
	case *sqlcompat.AlterUser:
		user, host := x.User, hostOr(x.Host)
		if user == "" {
			user, host = s.account.User, s.account.Host
		}
		err = u.AlterAuth(user, host, authSpec(x.Auth))
	case *sqlcompat.Grant:
		if x.On != "*.*" {
			return nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'GRANT ON %s': privileges are global (ON *.*)", x.On)
		}
		err = u.Grant(x.User, hostOr(x.Host), x.Privs, false)
	case *sqlcompat.Revoke:
		err = u.Grant(x.User, hostOr(x.Host), x.Privs, true)
	}
	if err != nil {
		return nil, err
	}
	return ok(), nil
}

func hostOr(h string) string {
	if h == "" {
		return "%"
	}
	return h
}
