package session

import (
	"strings"

	"github.com/binlite/binlite/compiler"
	"github.com/binlite/binlite/mysqlerr"
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
	if err == nil && em == nil {
		err = s.queryModeGuard(text, q)
	}
	if err != nil || em == nil {
		return q, false, err
	}
	c := *q
	c.SQLite, c.Warnings, c.Then, c.EachRow, c.RowsApart, c.CountsRows = em.SQL, em.Warnings, em.Then, em.EachRow, em.RowsApart, em.CountsRows
	c.Point, c.Locking, c.ValuesOnly = pointValues(em.Point), em.Locking, em.ValuesOnly
	c.ZeroToNullParams = em.ZeroToNull // the compiler's: none under NO_AUTO_VALUE_ON_ZERO
	c.StoreParams = storeParams(em)
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
	if strings.HasPrefix(name, compiler.ContextPrefix) {
		return s.contextValue(name[len(compiler.ContextPrefix):])
	}
	return s.userVars[strings.ToLower(name)]
}

// contextValue is the value of a context function the compiler compiles in
// (compiler.ContextPrefix): the values sqlcompat substitutes, with the unsigned
// ones as MySQL types them.
func (s *Session) contextValue(name string) any {
	switch name {
	case "current_user", "current_role", "found_rows":
		return compiler.NotKnown{} // CURRENT_USER may be written without (); FOUND_ROWS is not kept
	}
	v, ok := s.function(strings.ToUpper(name))
	if !ok {
		return compiler.NotKnown{}
	}
	switch name {
	case "connection_id", "last_insert_id":
		if n, isInt := v.(int64); isInt && n >= 0 {
			return uint64(n)
		}
	}
	return v
}

// compileVars are the session variables a statement is compiled for: the
// connection's collation, sql_mode and time zone (seconds east of UTC). They are
// read once after each SET, not for every statement (reading a variable costs a
// registry lookup).
type compileVars struct {
	known bool
	coll  string
	mode  compiler.Mode
	read  sqlcompat.ReadMode
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
		mode := str("sql_mode")
		s.compile = compileVars{known: true, coll: str("collation_connection"), mode: modeOf(mode), read: readModeOf(mode), tz: tz,
			autocommit: s.vars.Int("autocommit") != 0}
	}
	return s.compile
}

// textParams turns an INSERT sent as text with literal values into the prepared
// statement it amounts to (compiler.InsertParams): the same INSERT with new values
// then reuses one compiled statement and one prepared SQLite statement instead of
// being parsed, compiled and prepared again. Its values are converted into
// their columns as the literals are (compiler.Emitted.StoreParams) where the
// compiler converts them when bound (compiler.CellConverted), or kept as they
// are (compiler.KeptAsBound); other columns (BIT, JSON, binary strings ...)
// leave the text as it is. ok is false when the text is no such statement or
// the compiler does not compile it.
func (s *Session) textParams(text string) (ptext string, st sqlcompat.Statement, args []any, ok bool) {
	if s.env.Plans == nil || len(text) < 7 {
		return "", nil, nil, false
	}
	if c := text[0] | 0x20; c != 'i' && c != 'r' {
		return "", nil, nil, false
	}
	// The text is in the default mode's spelling by now (sqlcompat.Respell):
	// backslashes escape.
	ptext, args, ok = compiler.InsertParams(text, true)
	if !ok {
		return "", nil, nil, false
	}
	q, compiled, err := s.compiledOnly(ptext)
	if !compiled || err != nil || q == nil {
		// A compile error is answered for the text as sent, by the usual path.
		return "", nil, nil, false
	}
	plan := s.env.Plans.QueryVars(ptext, s.db, s.sqlMode(), s.userVar, engineCatalog{s.env.Engine})
	if plan.Err != nil || len(plan.Params) != len(args) {
		return "", nil, nil, false
	}
	for i, col := range plan.Params {
		if col == nil || !compiler.CellConverted(col) && !compiler.KeptAsBound(col.Type, args[i]) {
			return "", nil, nil, false
		}
		switch col.Type.Base {
		case "date", "datetime", "timestamp":
			// Zero dates and dates with zero parts follow sql_mode on the literal
			// path (compiler/zerodates.go), not yet on the parameter path.
			return "", nil, nil, false
		}
	}
	return ptext, q, args, true
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
		Point: pointValues(em.Point), Locking: em.Locking, ValuesOnly: em.ValuesOnly,
		StoreParams: storeParams(em)}, true, nil
}

// storeParams is the compiled statement's conversion of the values bound to
// its VALUES cells, nil when it has none.
func storeParams(em *compiler.Emitted) func([]any) ([]any, []bool, []mysqlerr.Warning, error) {
	if len(em.CellParams) == 0 {
		return nil
	}
	return em.StoreParams
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
