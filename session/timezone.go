package session

import (
	"strings"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlcompat"
	"github.com/binlite/binlite/temporal"
)

// zone is the session's time_zone as seconds east of UTC (SYSTEM is UTC).
func (s *Session) zone() int {
	v, _ := s.vars.Get("time_zone", false)
	name, _ := v.(string)
	off, _ := temporal.ParseZone(name)
	return off
}

// zoneGuard refuses, in a session whose time zone is not UTC, a statement the
// compiler left to sqlcompat's translation when its answer would depend on the
// zone: that translation reads and writes TIMESTAMP values as stored (UTC) and
// takes the current time in UTC. 1235 instead of a silently different answer.
func (s *Session) zoneGuard(text string, q *sqlcompat.Query, db string) error {
	if s.zone() == 0 {
		return nil
	}
	lower := strings.ToLower(text)
	for _, fn := range zoneFunctions {
		if strings.Contains(lower, fn) {
			return zoneNotYet()
		}
	}
	cat := engineCatalog{s.env.Engine}
	for _, sc := range append([]string{db}, q.Schemas...) {
		for _, t := range q.Tables {
			if def := cat.tableDef(sc, t); def != nil && zoneSensitive(def) {
				return zoneNotYet()
			}
		}
	}
	return nil
}

// zoneFunctions are the names of functions whose value depends on the time zone.
var zoneFunctions = []string{"now", "current_", "curdate", "curtime", "localtime", "sysdate", "utc_",
	"unix_timestamp", "from_unixtime", "convert_tz"}

// zoneSensitive: the table has a column whose stored value depends on the
// session's zone (a TIMESTAMP, a CURRENT_TIMESTAMP default or ON UPDATE).
func zoneSensitive(def *catalog.Table) bool {
	for _, c := range def.Columns {
		if c.Type.Base == "timestamp" || c.OnUpdate != "" || c.Default != nil && strings.HasPrefix(c.Default.Expr, "CURRENT_TIMESTAMP") {
			return true
		}
	}
	return false
}

func zoneNotYet() error {
	return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'this statement with TIMESTAMP values or the current time in a time zone other than UTC'")
}
