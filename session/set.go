package session

import (
	"strings"

	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlcompat"
)

// set applies a SET statement item by item, as MySQL does (an error stops it).
func (s *Session) set(st *sqlcompat.Set) error {
	for _, it := range st.Items {
		v := it.Value
		if it.Expr != "" {
			var err error
			if v, err = s.eval(it.Expr); err != nil {
				return err
			}
		}
		switch it.Kind {
		case sqlcompat.SetUser:
			s.userVars[strings.ToLower(it.Name)] = v
		case sqlcompat.SetSession:
			if err := s.setSession(it.Name, v); err != nil {
				return err
			}
		case sqlcompat.SetGlobal, sqlcompat.SetPersist:
			if err := s.requireSuper("SET GLOBAL"); err != nil {
				return err
			}
			if err := s.env.Vars.SetGlobal(it.Name, v); err != nil {
				return err
			}
		case sqlcompat.SetNames, sqlcompat.SetCharset:
			cs := strings.ToLower(fmtValue(v))
			for _, n := range []string{"character_set_client", "character_set_results", "character_set_connection"} {
				if err := s.vars.Set(n, cs); err != nil {
					return err
				}
			}
			if it.Collation != "" {
				if err := s.vars.Set("collation_connection", it.Collation); err != nil {
					return err
				}
			}
		case sqlcompat.SetTransaction:
			if it.Global {
				if err := s.env.Vars.SetGlobal(it.Name, v); err != nil {
					return err
				}
			} else if err := s.vars.Set(it.Name, v); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Session) setSession(name string, v any) error {
	switch name {
	case "autocommit":
		before := s.vars.Int("autocommit")
		if err := s.vars.Set(name, v); err != nil {
			return err
		}
		// Switching autocommit on commits the open transaction (MySQL semantics).
		if before == 0 && s.vars.Int("autocommit") != 0 {
			return s.commit()
		}
		return nil
	case "gtid_next":
		if strings.ToUpper(fmtValue(v)) != "AUTOMATIC" {
			return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'SET gtid_next to a specific GTID'")
		}
		return nil
	}
	if d, ok := s.env.Vars.Lookup(name); ok && d.Scope&2 == 0 {
		return mysqlerr.New(mysqlerr.ErGlobalVariable, "Variable '%s' is a GLOBAL variable and should be set with SET GLOBAL", name)
	}
	return s.vars.Set(name, v)
}

// eval computes a non-constant SET value with SQLite.
func (s *Session) eval(expr string) (any, error) {
	rows, err := s.env.Engine.Query("", nil, "SELECT "+expr, nil)
	if err != nil {
		return nil, err
	}
	if len(rows.Values) == 0 || len(rows.Values[0]) == 0 {
		return nil, nil
	}
	return rows.Values[0][0], nil
}
