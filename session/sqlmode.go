package session

import (
	"github.com/binlite/binlite/compiler"
	"github.com/binlite/binlite/mysqlerr"
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
	}
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
