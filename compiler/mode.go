package compiler

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
)

// Mode is what of the session's sql_mode a statement's SQLite SQL depends on.
// The zero Mode is MySQL 8.4's default (STRICT_TRANS_TABLES,
// ERROR_FOR_DIVISION_BY_ZERO); compiled statements are cached per Mode.
type Mode struct {
	// NotStrict: neither STRICT_TRANS_TABLES nor STRICT_ALL_TABLES. A write then
	// stores what a column can hold of a value it cannot, with a warning, as
	// INSERT IGNORE does, instead of failing.
	NotStrict bool
	// NoDivisionByZeroError: no ERROR_FOR_DIVISION_BY_ZERO. A division by zero
	// is then NULL without a warning, in writes too.
	NoDivisionByZeroError bool
	// NoOnlyFullGroupBy: no ONLY_FULL_GROUP_BY. An aggregated query may then name
	// columns its GROUP BY does not determine (see groupby.go).
	NoOnlyFullGroupBy bool
	// PipesAsConcat: || is CONCAT, not OR (PIPES_AS_CONCAT).
	PipesAsConcat bool
	// HighNotPrecedence: NOT binds as tightly as ! (HIGH_NOT_PRECEDENCE), so
	// NOT a BETWEEN b AND c is (NOT a) BETWEEN b AND c.
	HighNotPrecedence bool
	// IgnoreSpace: a built-in function's name may be followed by spaces before
	// its ( (IGNORE_SPACE).
	IgnoreSpace bool
	// NoBackslashEscapes: \ is no escape (NO_BACKSLASH_ESCAPES). The session
	// respells string literals for the default reading before they get here
	// (sqlcompat.Respell); what is left is LIKE, which then has no escape
	// character unless ESCAPE names one.
	NoBackslashEscapes bool
	// NoAutoValueOnZero: 0 written into an AUTO_INCREMENT column is stored as 0;
	// only NULL asks for the next value (NO_AUTO_VALUE_ON_ZERO).
	NoAutoValueOnZero bool
	// ZeroDates: no NO_ZERO_DATE. A DATE, DATETIME or TIMESTAMP column then
	// keeps '0000-00-00' without a warning.
	ZeroDates bool
	// ZeroInDates: no NO_ZERO_IN_DATE. A DATE or DATETIME column then keeps a
	// date with a zero month or day ('2024-00-15') as it is.
	ZeroInDates bool
}

// parserMode is what of the Mode TiDB's grammar reads statements by.
func (m Mode) parserMode() mysql.SQLMode {
	var pm mysql.SQLMode
	if m.PipesAsConcat {
		pm |= mysql.ModePipesAsConcat
	}
	if m.HighNotPrecedence {
		pm |= mysql.ModeHighNotPrecedence
	}
	if m.IgnoreSpace {
		pm |= mysql.ModeIgnoreSpace
	}
	return pm
}

// What a division by zero does besides giving NULL (sqlitec.DivisionWarn,
// sqlitec.DivisionError): warn, or fail the statement.
const (
	divisionWarn  = 1
	divisionError = 2
)

// statementModes sets what the statement's kind and the Mode decide: whether a
// value a column cannot keep is adjusted (IGNORE, or not strict), and what a
// division by zero does (see divisionWarn; 0: nothing). MySQL's strict mode
// turns the warning into an error in data-changing statements (INSERT, REPLACE,
// UPDATE, DELETE; a SELECT only warns), unless they have IGNORE.
func (e *emitter) statementModes(stmt ast.StmtNode) {
	write, ignore := false, false
	switch x := stmt.(type) {
	case *ast.InsertStmt:
		write, ignore = true, x.IgnoreErr
	case *ast.UpdateStmt:
		write, ignore = true, x.IgnoreErr
	case *ast.DeleteStmt:
		write, ignore = true, x.IgnoreErr
	}
	m := e.c.mode
	e.adjust = write && (ignore || m.NotStrict)
	e.nullToZero = e.adjust
	if x, ok := stmt.(*ast.InsertStmt); ok && !ignore && len(x.Lists) == 1 && x.Select == nil {
		e.nullToZero = false // MySQL: a single-row INSERT fails on NULL (1048) in any mode
	}
	switch {
	case m.NoDivisionByZeroError:
		e.divZero = 0
	case write && !ignore && !m.NotStrict:
		e.divZero = divisionError
	default:
		e.divZero = divisionWarn
	}
}
