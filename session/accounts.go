package session

import (
	mp "github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/sqlcompat"
)

// accountStmt runs CREATE/DROP/ALTER USER, GRANT and REVOKE. Accounts live in the
// replicated mysql.user table, so these go through the binary log like other writes.
func (s *Session) accountStmt(st sqlcompat.Statement) (*mp.Result, error) {
	if err := s.accountAllowed(st); err != nil {
		return nil, err
	}
	if err := s.writable(); err != nil {
		return nil, err
	}
	if err := s.implicitCommit(); err != nil {
		return nil, err
	}
	u := s.users()
	var err error
	switch x := st.(type) {
	case *sqlcompat.CreateUser:
		err = u.CreateAccount(x.User, hostOr(x.Host), authSpec(x.Auth), s.env.Vars.String("authentication_policy"), x.IfNotExists)
	case *sqlcompat.DropUser:
		for _, a := range x.Accounts {
			if err = u.Drop(a.User, hostOr(a.Host), x.IfExists); err != nil {
				break
			}
			if err = u.DropGrants(a.User, hostOr(a.Host)); err != nil {
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
		err = s.grant(x)
	case *sqlcompat.Revoke:
		err = s.revoke(x)
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
