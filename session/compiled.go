package session

import (
	"strings"

	"github.com/binlite/binlite/compiler"
	"github.com/binlite/binlite/sqlcompat"
	"github.com/binlite/binlite/temporal"
)

// compiled gives q the compiler's SQLite SQL for the statement text, run in
// schema db, where the compiler compiles the statement (ok); otherwise q keeps
// sqlcompat's translation. An error is MySQL's answer to the statement.
func (s *Session) compiled(text string, q *sqlcompat.Query, db string) (_ *sqlcompat.Query, ok bool, _ error) {
	em, err := s.emit(text, db)
	if err == nil && em == nil {
		err = s.zoneGuard(text, q, db)
	}
	if err != nil || em == nil {
		return q, false, err
	}
	c := *q
	c.SQLite, c.Warnings, c.Then, c.EachRow, c.RowsApart, c.CountsRows = em.SQL, em.Warnings, em.Then, em.EachRow, em.RowsApart, em.CountsRows
	c.Point, c.Locking, c.ValuesOnly = pointValues(em.Point), em.Locking, em.ValuesOnly
	return &c, true, nil
}

func (s *Session) emit(text, db string) (*compiler.Emitted, error) {
	if s.env.Plans == nil || text == "" {
		return nil, nil
	}
	cv := s.compileVars()
	return s.env.Plans.EmitVars(text, db, cv.coll, cv.mode, cv.tz, s.userVar, s.withVirtual(s.tablesCatalog(db)))
}

// userVar is @name's value (compiler.UserVars), nil if never set.
func (s *Session) userVar(name string) any {
	return s.userVars[strings.ToLower(name)]
}

// compileVars are the session variables a statement is compiled for: the
// connection's collation, sql_mode and time zone (seconds east of UTC). They are
// read once after each SET, not for every statement (reading a variable costs a
// registry lookup).
type compileVars struct {
	known bool
	coll  string
	mode  compiler.Mode
	tz    int
	// autocommit is @@autocommit, read with them: every statement's answer
	// and every read ask for it.
	autocommit bool
}

func (s *Session) compileVars() compileVars {
	if !s.compile.known {
		str := func(name string) string {
			v, _ := s.vars.Get(name, false)
			t, _ := v.(string)
			return t
		}
		tz, _ := temporal.ParseZone(str("time_zone"))
		s.compile = compileVars{known: true, coll: str("collation_connection"), mode: modeOf(str("sql_mode")), tz: tz,
			autocommit: s.vars.Int("autocommit") != 0}
	}
	return s.compile
}

// compiledOnly is the Query of a data statement sqlcompat could not translate
// (it answered with an error or 1235) but the compiler compiles; ok=false
// leaves sqlcompat's answer.
// A compile error is MySQL's answer to the statement (ok=true, err set).
func (s *Session) compiledOnly(text string) (_ *sqlcompat.Query, ok bool, _ error) {
	if !dataStatement(text) {
		return nil, false, nil
	}
	em, err := s.emit(text, s.db)
	if err != nil {
		return nil, true, err
	}
	if em == nil {
		return nil, false, nil
	}
	kind := map[string]sqlcompat.QueryKind{"select": sqlcompat.Select, "insert": sqlcompat.Insert,
		"replace": sqlcompat.Replace, "update": sqlcompat.Update, "delete": sqlcompat.Delete}[em.Kind]
	return &sqlcompat.Query{Kind: kind, SQLite: em.SQL, NumParams: em.Params, Schemas: em.Schemas,
		Tables: em.Tables, ZeroToNullParams: em.ZeroToNull, ReadOnly: kind == sqlcompat.Select, Warnings: em.Warnings,
		InsertRows: em.InsertRows, IgnoreDuplicates: em.IgnoreDuplicates, Then: em.Then, EachRow: em.EachRow, RowsApart: em.RowsApart, CountsRows: em.CountsRows,
		Point: pointValues(em.Point), Locking: em.Locking, ValuesOnly: em.ValuesOnly}, true, nil
}

func pointValues(ps []compiler.PointPart) []sqlcompat.PointValue {
	if ps == nil {
		return nil
	}
	out := make([]sqlcompat.PointValue, len(ps))
	for i, p := range ps {
		out[i] = sqlcompat.PointValue{Param: p.Param, Value: p.Value}
	}
	return out
}

// dataStatement reports whether text starts with a data statement's keyword.
func dataStatement(text string) bool {
	t := strings.TrimLeft(text, " \t\r\n(")
	i := strings.IndexAny(t, " \t\r\n(")
	if i < 0 {
		i = len(t)
	}
	switch strings.ToUpper(t[:i]) {
	case "SELECT", "INSERT", "REPLACE", "UPDATE", "DELETE", "WITH", "TABLE":
		return true
	}
	return false
}
