package session

import (
	"strings"

	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlcompat"
	"github.com/binlite/binlite/users"
)

// sql_log_bin=0: the session's changes are applied here and not written to the
// binary log (no GTID, not replicated), as in MySQL. The engine commits each such
// statement alone and syncs it itself (engine/unlogged.go).

// logBin reports whether the session's changes go to the binary log.
func (s *Session) logBin() bool { return s.vars.Int("sql_log_bin") != 0 }

// users is the account store the session's account statements change: unlogged
// under sql_log_bin=0.
func (s *Session) users() *users.Store {
	if s.logBin() {
		return s.env.Users
	}
	return s.env.Users.Unlogged()
}

// unloggedRefusal is 1235 for what binlite cannot run unlogged yet.
func (s *Session) unloggedRefusal(what string) error {
	if s.logBin() {
		return nil
	}
	return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support '%s with sql_log_bin=0'", what)
}

// setLogBin is SET [SESSION] sql_log_bin: not inside a transaction (MySQL's 1694).
func (s *Session) setLogBin(v any) error {
	if s.txn != nil {
		return mysqlerr.New(mysqlerr.ErInsideTransactionPreventsSwitchSQLLogBin, "Cannot modify @@session.sql_log_bin inside a transaction")
	}
	return s.vars.Set("sql_log_bin", v)
}

// setsLogBin reports whether it sets the session's sql_log_bin, a restricted
// session variable (SUPER, SYSTEM_VARIABLES_ADMIN or SESSION_VARIABLES_ADMIN).
func setsLogBin(it sqlcompat.SetItem) bool {
	return it.Kind == sqlcompat.SetSession && strings.EqualFold(it.Name, "sql_log_bin")
}

func (s *Session) authorizeLogBin() error {
	return s.requireGlobal("SUPER, SYSTEM_VARIABLES_ADMIN or SESSION_VARIABLES_ADMIN", users.Super, users.SystemVariablesAdmin, users.SessionVariablesAdmin)
}
