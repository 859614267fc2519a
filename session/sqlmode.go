package session

import (
	"github.com/binlite/binlite/compiler"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlcompat"
	"github.com/binlite/binlite/sysvar"
)

// sqlMode is what of the session's sql_mode its statements are compiled for.
func (s *Session) sqlMode() compiler.Mode { return s.compileVars().mode }

// modeOf is what of sql_mode m the compiler follows.
func modeOf(m string) compiler.Mode {
	return compiler.Mode{
		NotStrict:             !sysvar.HasSQLMode(m, "STRICT_TRANS_TABLES") && !sysvar.HasSQLMode(m, "STRICT_ALL_TABLES"),
		NoDivisionByZeroError: !sysvar.HasSQLMode(m, "ERROR_FOR_DIVISION_BY_ZERO"),
		NoOnlyFullGroupBy:     !sysvar.HasSQLMode(m, "ONLY_FULL_GROUP_BY"),
		PipesAsConcat:         sysvar.HasSQLMode(m, "PIPES_AS_CONCAT"),
		HighNotPrecedence:     sysvar.HasSQLMode(m, "HIGH_NOT_PRECEDENCE"),
		IgnoreSpace:           sysvar.HasSQLMode(m, "IGNORE_SPACE"),
		NoBackslashEscapes:    sysvar.HasSQLMode(m, "NO_BACKSLASH_ESCAPES"),
		NoAutoValueOnZero:     sysvar.HasSQLMode(m, "NO_AUTO_VALUE_ON_ZERO"),
		ZeroDates:             !sysvar.HasSQLMode(m, "NO_ZERO_DATE"),
		ZeroInDates:           !sysvar.HasSQLMode(m, "NO_ZERO_IN_DATE"),
	}
}

// readModeOf is what of sql_mode m changes how statement text is read.
func readModeOf(m string) sqlcompat.ReadMode {
	return sqlcompat.ReadMode{
		AnsiQuotes:         sysvar.HasSQLMode(m, "ANSI_QUOTES"),
		NoBackslashEscapes: sysvar.HasSQLMode(m, "NO_BACKSLASH_ESCAPES"),
		RealAsFloat:        sysvar.HasSQLMode(m, "REAL_AS_FLOAT"),
	}
}

// NoBackslashEscapes reports whether the session's sql_mode has
// NO_BACKSLASH_ESCAPES (mysqlproto.EscapesReporter).
func (s *Session) NoBackslashEscapes() bool { return s.compileVars().read.NoBackslashEscapes }

// respell gives statement text as MySQL's default reading spells it (see
// sqlcompat.Respell), so that every part of binlite reads it as the session's
// sql_mode has it read.
func (s *Session) respell(text string) string {
	return sqlcompat.Respell(text, s.compileVars().read)
}

// modeGuard refuses (1235) a statement the compiler does not compile when its
// text holds a construct the session's sql_mode gives another meaning than
// sqlcompat's translation and DDL give it.
func (s *Session) modeGuard(text string) error {
	m := s.sqlMode()
	if what := sqlcompat.ModeSensitive(text, m.PipesAsConcat, m.HighNotPrecedence, m.NoBackslashEscapes); what != "" {
		return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support '%s'", what)
	}
	return nil
}

// queryModeGuard is modeGuard for a data statement sqlcompat translates: an
// INSERT or REPLACE of it would also take 0 for the next AUTO_INCREMENT id.
func (s *Session) queryModeGuard(text string, q *sqlcompat.Query) error {
	if s.sqlMode().NoAutoValueOnZero && (q.Kind == sqlcompat.Insert || q.Kind == sqlcompat.Replace) {
		return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'sql_mode NO_AUTO_VALUE_ON_ZERO in this statement'")
	}
	return s.modeGuard(text)
}

// executionWarnings adds the warnings a statement raised while it ran (and how
// many more it raised than the engine kept) to its diagnostics area.
func (s *Session) executionWarnings(ws []mysqlerr.Warning, lost int) {
	s.notes = append(s.notes, ws...)
	s.lostWarnings += lost
}

// warningCount is @@warning_count: the conditions of the last statement,
// those beyond what it kept included.
func (s *Session) warningCount() int {
	return len(s.warnings) + s.lostWarnings
}
