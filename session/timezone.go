package session

import (
	"strings"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlcompat"
)

// zone is the session's time_zone as seconds east of UTC (SYSTEM is UTC).
func (s *Session) zone() int { return s.compileVars().tz }

// zoneGuard refuses, in a session whose time zone is not UTC, a statement the
// compiler left to sqlcompat's translation when its answer would depend on the
// zone: that translation reads and writes TIMESTAMP values as stored (UTC) and
// takes the current time in UTC. 1235 instead of a silently different answer.
func (s *Session) zoneGuard(text string, q *sqlcompat.Query, db string) error {
	if s.zone() == 0 {
		return nil
	}
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_')
	})
	for _, w := range words {
		if zoneFunctions[w] {
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
var zoneFunctions = map[string]bool{"now": true, "current_timestamp": true, "current_date": true, "current_time": true,
	"curdate": true, "curtime": true, "localtime": true, "localtimestamp": true, "sysdate": true, "utc_timestamp": true,
	"utc_date": true, "utc_time": true, "unix_timestamp": true, "from_unixtime": true, "convert_tz": true}

// zoneDDLGuard refuses, outside UTC, a CREATE TABLE whose TIMESTAMP column has
// a literal default: MySQL reads it in the session's zone, binlite's DDL keeps
// it as written (UTC).
func (s *Session) zoneDDLGuard(d *sqlcompat.DDL) error {
	if d.Def == nil || s.zone() == 0 {
		return nil
	}
	for _, c := range d.Def.Columns {
		if c.Type.Base == "timestamp" && c.Default != nil && c.Default.Lit != "" {
			return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'a TIMESTAMP column's literal default in a time zone other than UTC'")
		}
	}
	return nil
}

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
