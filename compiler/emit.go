package compiler

import (
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
)

// Emitted is a statement compiled to SQLite's SQL: the text SQLite runs, with the
// client's ? values bound by number (?1 is the first ? of the MySQL text, whatever
// order the SQLite text names them in), and the notes MySQL gives for the
// statement's literals (a DECIMAL literal rounded into its column: 1265).
type Emitted struct {
	SQL      string
	Warnings []mysqlerr.Warning
	Kind     string   // select, insert, replace, update or delete
	Tables   []string // the tables named, the written one first
	Schemas  []string // schemas other than the current one that tables are in
	Params   int      // how many ? the MySQL text has
	// ZeroToNull are the (0-based) ? that go into an AUTO_INCREMENT column: 0
	// there means the next id, which SQLite generates for NULL.
	ZeroToNull []int
	// InsertRows is how many rows an INSERT's VALUES list has; IgnoreDuplicates:
	// INSERT IGNORE, whose skipped rows are warned about (1062).
	InsertRows       int
	IgnoreDuplicates bool
	// Then are further SQLite statements run after SQL, all or nothing (a write
	// to several tables); EachRow is a query of rowids in MySQL's write order, SQL
	// then runs once for each, bound as parameter Params+1 (see engine.Stmt).
	Then    []string
	EachRow string
	// RowsApart: an INSERT IGNORE into a table with CHECK constraints or foreign
	// keys, one row per statement (SQL, then Then), each one left out with a
	// warning if they refuse it (engine.Stmt.RowsApart).
	RowsApart bool
	// CountsRows: an IGNORE write whose rows are counted as SQLite meets them
	// (binlite_counted()); those it did not write it left out for a duplicate
	// key (1062).
	CountsRows bool
	// Point: an UPDATE or DELETE that can write only the row whose integer
	// primary key these values give (point.go); nil otherwise.
	Point []PointPart
	// Locking: SELECT ... FOR UPDATE / FOR SHARE / LOCK IN SHARE MODE.
	Locking bool
	// ValuesOnly: an INSERT or REPLACE of a VALUES list (or SET) that reads no
	// table (no subquery).
	ValuesOnly bool
	// CellParams are the ? that are whole values of a VALUES list, converted
	// into their columns when bound (StoreParams) by rules.
	CellParams []CellParam
	rules      literalRules
}

// errNotYet marks a construct the emitter does not compile yet: the statement is
// left to sqlcompat's text translation, which is what ran before the compiler
// emitted SQL. It is never an answer to a client.
var errNotYet = errors.New("not compiled yet")

func notYet(what string, args ...any) error {
	return fmt.Errorf("%w: %s", errNotYet, fmt.Sprintf(what, args...))
}

// emitter renders one statement.
type emitter struct {
	c      *compiler
	sql    string      // the MySQL text, for literal spellings
	params map[int]int // a ? marker's offset in the text → its number
	b      *strings.Builder
	err    error
	notes  []mysqlerr.Warning
	out    *Emitted

	ctes []string // names WITH defines, visible as tables
	// subst holds, while an UPDATE's SET list is emitted, the SQL of the values
	// already assigned: MySQL assigns left to right and a later expression sees
	// the new value of an earlier column.
	subst map[string]string
	// target is the table name (or alias) subst's columns belong to.
	target string
	// excluded: inside ON DUPLICATE KEY UPDATE, VALUES(c) is the proposed row.
	excluded bool
	// insertTargets: the columns an INSERT ... SELECT's select list goes into.
	insertTargets []*catalog.Column
	// fieldOut: the types the reader of the next query block's select list knows
	// its columns by (a BIGINT UNSIGNED one may be given in the stored form, see
	// emitu64.go); nil for a reader that does not type them (a CTE's).
	fieldOut []ColType
	// adjust: a value a column cannot keep is adjusted with a warning instead of
	// failing the statement (IGNORE, or sql_mode without strict mode); nullToZero:
	// NULL into a NOT NULL column is its implicit default with a warning (not in
	// a single-row INSERT without IGNORE, which fails). See mode.go.
	adjust, nullToZero bool
	// runtimeLiterals: literals that need adjusting are adjusted by the engine
	// too (see literalCell).
	runtimeLiterals bool
	// divZero is what a division by zero does (the divisions' mode argument,
	// see package sqlitec; 0: NULL, as SQLite's).
	divZero int
	// valuesNoted: MySQL's deprecation warning for VALUES(col) is given.
	valuesNoted bool
	// stmts are the SQLite statements split off before the one being rendered.
	stmts []string
	// warned are the string literals whose conversion to a number was warned
	// about (numconv.go).
	warned map[*driver.ValueExpr]bool
	// rolled are the texts of the GROUP BY items rolled up in the grouping of
	// a WITH ROLLUP query being rendered (rollup.go); aggDepth counts the
	// aggregates being rendered, inside which they are the rows' values.
	rolled   map[string]bool
	aggDepth int
	// rollupFields: the select list of that query, whose aliases GROUPING names.
	rollupFields *ast.FieldList
}

// emit compiles stmt (parsed from sql) into SQLite SQL. errNotYet (wrapped) means
// the statement is not compiled; any other error is MySQL's answer.
func (c *compiler) emit(stmt ast.StmtNode, sql string) (*Emitted, error) {
	e := &emitter{c: c, sql: sql, params: paramNumbers(stmt), b: &strings.Builder{}, out: &Emitted{}}
	e.statementModes(stmt)
	switch x := stmt.(type) {
	case *ast.SelectStmt:
		e.out.Kind = "select"
		e.out.Locking = x.LockInfo != nil && x.LockInfo.LockType != ast.SelectLockNone
		e.fieldOut = e.outTypes(x, nil) // the client's, from the same types (Plan.Columns)
		e.selectStmt(x, nil)
	case *ast.SetOprStmt:
		e.out.Kind = "select"
		e.fieldOut = e.outTypes(x, nil)
		e.setOpr(x, nil)
	case *ast.InsertStmt:
		e.out.Kind = "insert"
		if x.IsReplace {
			e.out.Kind = "replace"
		}
		e.out.ValuesOnly = x.Select == nil && !hasSubquery(x)
		e.insert(x)
	case *ast.UpdateStmt:
		e.out.Kind = "update"
		e.update(x)
	case *ast.DeleteStmt:
		e.out.Kind = "delete"
		e.delete(x)
	default:
		return nil, notYet("%T", stmt)
	}
	if e.err != nil {
		return nil, e.err
	}
	e.out.SQL, e.out.Warnings, e.out.Params = e.b.String(), e.notes, len(e.params)
	e.out.rules = literalRules{mode: e.c.mode, tz: e.c.tz, collation: e.c.collation, adjust: e.adjust, nullToZero: e.nullToZero}
	if len(e.stmts) > 0 {
		e.out.SQL, e.out.Then = e.stmts[0], append(e.stmts[1:], e.out.SQL)
	}
	return e.out, nil
}

// fail records the first error; emitting goes on harmlessly after it.
func (e *emitter) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

func (e *emitter) w(s string) { e.b.WriteString(s) }

// split ends the SQLite statement rendered so far: what follows is the next
// statement of the same MySQL statement (Emitted.Then).
func (e *emitter) split() {
	e.stmts = append(e.stmts, e.b.String())
	e.b.Reset()
}

// paramNumbers numbers the ? markers by their place in the text.
func paramNumbers(stmt ast.Node) map[int]int {
	var offs []int
	stmt.Accept(&paramVisitor{offs: &offs})
	sort.Ints(offs)
	m := make(map[int]int, len(offs))
	for i, o := range offs {
		m[o] = i + 1
	}
	return m
}

type paramVisitor struct{ offs *[]int }

func (v *paramVisitor) Enter(n ast.Node) (ast.Node, bool) {
	if p, ok := n.(*driver.ParamMarkerExpr); ok {
		*v.offs = append(*v.offs, p.Offset)
	}
	return n, false
}

func (v *paramVisitor) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// quoteIdent renders name as a SQLite identifier. Backquotes, not double quotes:
// SQLite reads a double-quoted name that matches no column as a string, so an
// unknown column would compare as text instead of failing with 1054.
func quoteIdent(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// sqlString renders s as a SQLite string literal. NUL bytes cannot appear in SQL
// text, so such strings are spelled as a blob cast to text.
func sqlString(s string) string {
	if strings.IndexByte(s, 0) >= 0 {
		return "CAST(X'" + hex.EncodeToString([]byte(s)) + "' AS TEXT)"
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

func blobLiteral(b []byte) string { return "X'" + hex.EncodeToString(b) + "'" }

// floatLiteral spells f so that SQLite reads it as a REAL.
func floatLiteral(f float64) string {
	s := strconv.FormatFloat(f, 'g', 17, 64)
	if !strings.ContainsAny(s, ".eEnI") {
		s += ".0"
	}
	return s
}

// tableName renders a table reference: unqualified in the current schema, else
// schema-qualified (the engine attaches the other schemas a statement names).
// Tables the catalog does not know (virtual schemas, missing tables) are left to
// the text translation, which has their special paths and errors.
func (e *emitter) tableName(tn *ast.TableName) string {
	if len(tn.PartitionNames) > 0 {
		e.fail(notYet("PARTITION"))
	}
	schema := tn.Schema.O
	if schema == "" {
		for _, n := range e.ctes {
			if strings.EqualFold(n, tn.Name.O) {
				return quoteIdent(tn.Name.O)
			}
		}
		schema = e.c.db
	}
	if schema == "" {
		e.fail(notYet("no schema"))
		return ""
	}
	if _, ok := e.c.cat.Table(schema, tn.Name.O); !ok {
		e.fail(notYet("table %s.%s not in the catalog", schema, tn.Name.O))
		return ""
	}
	e.out.Tables = append(e.out.Tables, tn.Name.O)
	if schema == e.c.db {
		return quoteIdent(tn.Name.O)
	}
	if !slices.Contains(e.out.Schemas, schema) {
		e.out.Schemas = append(e.out.Schemas, schema)
	}
	return quoteIdent(schema) + "." + quoteIdent(tn.Name.O)
}

// columnName renders a column reference.
func (e *emitter) columnName(cn *ast.ColumnName) string {
	var b strings.Builder
	if cn.Schema.O != "" && cn.Schema.O != e.c.db {
		b.WriteString(quoteIdent(cn.Schema.O))
		b.WriteByte('.')
	}
	if cn.Table.O != "" {
		b.WriteString(quoteIdent(cn.Table.O))
		b.WriteByte('.')
	}
	b.WriteString(quoteIdent(cn.Name.O))
	return b.String()
}
