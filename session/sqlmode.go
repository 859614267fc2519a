package session

import (
	"github.com/binlite/binlite/compiler"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sysvar"
)

// sqlModeCache is the compiler's Mode of the sql_mode value last seen.
type sqlModeCache struct {
	text string
	mode compiler.Mode
	set  bool
}

// sqlMode is what of the session's sql_mode its statements are compiled for.
func (s *Session) sqlMode() compiler.Mode {
	if s.modeCache.set {
		return s.modeCache.mode // read again after a SET (session.go)
	}
	v, _ := s.vars.Get("sql_mode", false)
	m, _ := v.(string)
	if c := &s.modeCache; !c.set || m != c.text {
		c.text, c.set = m, true
		c.mode = compiler.Mode{
			NotStrict:             !sysvar.HasSQLMode(m, "STRICT_TRANS_TABLES") && !sysvar.HasSQLMode(m, "STRICT_ALL_TABLES"),
			NoDivisionByZeroError: !sysvar.HasSQLMode(m, "ERROR_FOR_DIVISION_BY_ZERO"),
		}
	}
	return s.modeCache.mode
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
