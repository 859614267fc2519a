package session

import (
	"strings"

	"github.com/binlite/binlite/compiler"
	"github.com/binlite/binlite/decimal"
	"github.com/binlite/binlite/mysqlerr"
	mp "github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/sqlcompat"
)

// set applies a SET statement item by item, as MySQL does (an error stops it).
func (s *Session) set(st *sqlcompat.Set) error {
	for _, it := range st.Items {
		v, typed := it.Value, false
		if it.Kind == sqlcompat.SetUser && it.Text != "" {
			var err error
			if v, typed, err = s.userValue(it.Text); err != nil {
				return err
			}
		}
		if it.Expr != "" && !typed {
			var err error
			if v, err = s.eval(it.Expr); err != nil {
				return err
			}
		} else if !typed {
			v = it.Value
		}
		switch it.Kind {
		case sqlcompat.SetUser:
			name := strings.ToLower(it.Name)
			if v == nil {
				v = compiler.NullOf(s.userVars[name]) // MySQL keeps the variable's type
			}
			s.userVars[name] = v
		case sqlcompat.SetSession:
			if err := s.setSession(it.Name, v); err != nil {
				return err
			}
		case sqlcompat.SetGlobal, sqlcompat.SetPersist:
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
			if it.Next {
				if err := s.setNextTxn(it.Name, v); err != nil {
					return err
				}
				continue
			}
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
	case "sql_log_bin":
		return s.setLogBin(v)
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

// userValue is the value SET @name = text gives, typed as MySQL types it: the
// compiled SELECT of the expression decides (a DECIMAL keeps its digits as
// decimal.Exact, a binary string stays bytes). ok=false when the compiler does
// not compile the expression or types its value (sqlcompat's constant or
// evaluation stands).
func (s *Session) userValue(text string) (v any, ok bool, err error) {
	sel := "SELECT " + text
	q, ok, err := s.compiledOnly(sel)
	if !ok || err != nil || q.Kind != sqlcompat.Select {
		return nil, ok && err != nil, err
	}
	rows, err := s.read(q, nil, nil)
	if err != nil {
		return nil, true, err
	}
	s.afterRead(rows)
	plan := s.env.Plans.QueryVars(sel, s.db, s.sqlMode(), s.userVar, s.withVirtual(engineCatalog{s.env.Engine}))
	if len(plan.Columns) != 1 || !plan.Columns[0].Known() || len(rows.Values) != 1 || len(rows.Values[0]) != 1 {
		return nil, false, nil
	}
	ct, raw := plan.Columns[0], rows.Values[0][0]
	if raw == nil {
		return nil, true, nil
	}
	v = declaredValue(ct, raw)
	switch ct.Type {
	case mp.TypeNewDecimal:
		return decimal.Exact(fmtValue(v)), true, nil
	case mp.TypeTiny, mp.TypeShort, mp.TypeInt24, mp.TypeLong, mp.TypeLongLong, mp.TypeYear:
		switch x := v.(type) {
		case int64, uint64:
			return x, true, nil
		}
	case mp.TypeFloat, mp.TypeDouble:
		if f, isFloat := v.(float64); isFloat {
			return f, true, nil
		}
	case mp.TypeVarchar, mp.TypeVarString, mp.TypeString, mp.TypeBlob, mp.TypeTinyBlob, mp.TypeMediumBlob, mp.TypeLongBlob:
		switch x := v.(type) {
		case []byte:
			if ct.Charset == mp.CharsetBinary {
				return x, true, nil
			}
			return string(x), true, nil
		case string:
			if ct.Charset == mp.CharsetBinary {
				return []byte(x), true, nil
			}
			return x, true, nil
		}
	}
	return nil, false, nil // a value of a type not kept: the old evaluation stands
}
