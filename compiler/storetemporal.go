package compiler

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/temporal"
)

// temporalColumn: the type holds DATE, DATETIME, TIMESTAMP or TIME values, as
// text in MySQL's spelling (a TIMESTAMP's in UTC).
func temporalColumn(ty catalog.Type) bool {
	switch ty.Base {
	case "date", "datetime", "timestamp", "time":
		return true
	}
	return false
}

// columnKind is the kind of value a temporal column holds, and its fractional
// digits.
func columnKind(ty catalog.Type) (temporal.Kind, int) {
	switch ty.Base {
	case "date":
		return temporal.Date, 0
	case "time":
		return temporal.Time, ty.Scale
	}
	return temporal.Datetime, ty.Scale
}

// temporalLiteral renders literal v written into temporal column col as MySQL
// stores it: read by the type's rules ('24-1-2', 20240101123000, '3:4' for a
// TIME), extra fractional digits rounded, a DATE's time of day dropped (Note
// 1265), a TIMESTAMP moved from the session's zone to UTC. A value the column
// cannot hold is MySQL's strict-mode error 1292. It returns false when v is not
// a literal it converts.
func (e *emitter) temporalLiteral(v *driver.ValueExpr, col *catalog.Column, row int) bool {
	k, fsp := columnKind(col.Type)
	var st temporal.Stored
	var ok bool
	var in string
	switch v.Kind() {
	case driver.KindNull:
		e.w("NULL")
		return true
	case driver.KindString:
		if v.Type.GetCharset() == "binary" {
			return false
		}
		in = v.GetString()
		st, ok = temporal.StoreTextZero(in, k, fsp, e.c.tz)
	case driver.KindInt64, driver.KindUint64, driver.KindMysqlDecimal, driver.KindFloat64:
		in = e.literalText(v)
		st, ok = temporal.StoreNumberZero(in, k, fsp)
	default:
		return false
	}
	if ok && st.Zero != temporal.NotZero {
		return e.zeroLiteral(st, in, col, row)
	}
	if ok && col.Type.Base == "timestamp" {
		st.Value, ok = st.Value.Shift(-e.c.tz)
		ok = ok && st.Value.TimestampRange()
	}
	if !ok {
		if e.adjust && k != temporal.Time {
			// MySQL stores the zero date of a value it cannot read, with a warning.
			e.notes = append(e.notes, mysqlerr.Warn(mysqlerr.ErWarnDataTruncated, "Data truncated for column '%s' at row %d", col.Name, row))
			e.w(zeroDateSQL(k, fsp))
			return true
		}
		if e.adjust {
			return false // the value check refuses it
		}
		e.fail(mysqlerr.New(mysqlerr.ErTruncatedWrongValue, "Incorrect %s value: '%s' for column '%s' at row %d", k, in, col.Name, row))
		return true
	}
	if st.Note {
		e.notes = append(e.notes, mysqlerr.Note(mysqlerr.ErWarnDataTruncated, "Data truncated for column '%s' at row %d", col.Name, row))
	}
	e.w(sqlString(st.Value.String(fsp)))
	return true
}

// zeroLiteral renders a literal date with zero parts (st, read from in) written
// into col as sql_mode has MySQL store it. Without NO_ZERO_DATE the zero date
// is kept, without NO_ZERO_IN_DATE a zero month or day; where the mode refuses
// it, a strict write fails (1292) and one that adjusts values stores the zero
// date with a warning (1264 for the zero date, 1265 for a zero part). A
// TIMESTAMP holds the zero date but no zero part.
func (e *emitter) zeroLiteral(st temporal.Stored, in string, col *catalog.Column, row int) bool {
	k, fsp := columnKind(col.Type)
	keep, code := e.c.mode.ZeroDates, mysqlerr.ErWarnDataOutOfRange
	if st.Zero == temporal.ZeroInDate {
		keep, code = e.c.mode.ZeroInDates && col.Type.Base != "timestamp", mysqlerr.ErWarnDataTruncated
	}
	switch {
	case keep:
		if st.Note {
			e.notes = append(e.notes, mysqlerr.Note(mysqlerr.ErWarnDataTruncated, "Data truncated for column '%s' at row %d", col.Name, row))
		}
		e.w(zeroOK(sqlString(st.Value.String(fsp))))
	case e.adjust:
		msg := "Out of range value for column '%s' at row %d"
		if code == mysqlerr.ErWarnDataTruncated {
			msg = "Data truncated for column '%s' at row %d"
		}
		e.notes = append(e.notes, mysqlerr.Warn(code, msg, col.Name, row))
		e.w(zeroDateSQL(k, fsp))
	default:
		e.fail(mysqlerr.New(mysqlerr.ErTruncatedWrongValue, "Incorrect %s value: '%s' for column '%s' at row %d", k, in, col.Name, row))
	}
	return true
}

// zeroDateSQL renders the zero date of a DATE or DATETIME column with fsp
// fractional digits as a written value: see zeroOK.
func zeroDateSQL(k temporal.Kind, fsp int) string {
	return zeroOK(sqlString(temporal.ZeroText(k, fsp)))
}

// zeroOK renders a date with zero parts the statement may store: the engine's
// binlite_zero_ok gives the value and lets the column's value check
// (binlite_zero_date) accept it in the running statement.
func zeroOK(lit string) string { return "binlite_zero_ok(" + lit + ")" }

// storedTemporal renders a computed value written into a temporal column: in
// the column's spelling (a DATE into a DATETIME is at midnight), a TIMESTAMP's
// moved from the session's zone to UTC; a value the column cannot hold is
// 1292.
func (e *emitter) storedTemporal(x ast.ExprNode, col *catalog.Column, s *scope) {
	e.storeAs(func() { e.expr(x, s) }, sqlKind(e.typeOf(x, s)), col)
}

// storeAs renders a value (rendered by value, of MySQL type src) written into
// temporal column col: see storedTemporal.
func (e *emitter) storeAs(value func(), src string, col *catalog.Column) {
	k, fsp := columnKind(col.Type)
	if col.Type.Base == "timestamp" {
		e.w("binlite_tz_utc(")
		value()
		e.w(", " + src + ", " + strconv.Itoa(fsp) + ", " + e.tz() + ")")
		return
	}
	e.w("binlite_store(")
	value()
	e.w(", " + src + ", '" + k.String() + "', " + strconv.Itoa(fsp) + ", " + e.tz() + ", " + sqlString(col.Name) + ")")
}

// selectRows is the name INSERT ... SELECT gives its SELECT when the rows are
// converted on their way into the table (temporalSelect).
const selectRows = "`binlite_rows`"

// temporalSelect renders INSERT ... SELECT into temporal columns, or into a
// table with CURRENT_TIMESTAMP columns it leaves out: the SELECT becomes a
// common table expression whose columns are named by position, and each value
// goes into its column as a written one does (a DATE into a DATETIME is at
// midnight, a TIMESTAMP in UTC). It returns false when nothing needs it, or the
// SELECT's columns are not known.
func (e *emitter) temporalSelect(x *ast.InsertStmt, cols []*catalog.Column, def *catalog.Table) bool {
	converts := false
	for _, c := range cols {
		converts = converts || c != nil && temporalColumn(c.Type)
	}
	nows := nowColumns(def, cols)
	if !converts && len(nows) == 0 {
		return false
	}
	sel := e.c.queryColumns(x.Select, nil)
	if len(sel) != len(cols) {
		return false
	}
	head := e.b.String() // INSERT INTO `t`
	e.b.Reset()
	e.w("WITH " + selectRows + "(")
	for i := range cols {
		if i > 0 {
			e.w(", ")
		}
		e.w(quoteIdent("c" + strconv.Itoa(i+1)))
	}
	e.w(") AS (")
	e.query(x.Select)
	e.w(") " + head)
	e.columnList(append(append([]*catalog.Column(nil), cols...), nows...), nil, 0)
	e.w(" SELECT ")
	for i, c := range cols {
		if i > 0 {
			e.w(", ")
		}
		ref := quoteIdent("c" + strconv.Itoa(i+1))
		if c != nil && temporalColumn(c.Type) {
			e.storeAs(func() { e.w(ref) }, sqlKind(sel[i].t), c)
		} else {
			e.w(ref)
		}
	}
	for _, c := range nows {
		e.w(", " + e.nowValue(c))
	}
	e.w(" FROM " + selectRows)
	if len(x.OnDuplicate) > 0 {
		e.w(" WHERE true") // SQLite would read the upsert's ON as a join's
	}
	return true
}

// nowDefault: the column's default is CURRENT_TIMESTAMP.
func nowDefault(c *catalog.Column) bool {
	return c.Default != nil && strings.HasPrefix(c.Default.Expr, "CURRENT_TIMESTAMP") && len(c.Default.Refs) == 0 && !c.DefaultSupplied
}

// nowValue renders the time a DEFAULT or ON UPDATE CURRENT_TIMESTAMP column
// takes: the statement's time at the column's digits, in UTC for a TIMESTAMP,
// in the session's zone for a DATETIME.
func (e *emitter) nowValue(c *catalog.Column) string {
	zone := e.tz()
	if c.Type.Base == "timestamp" {
		zone = "0"
	}
	return "binlite_now(" + strconv.Itoa(c.Type.Scale) + ", " + zone + ")"
}

// nowColumns are the CURRENT_TIMESTAMP columns of def an INSERT naming cols
// leaves out: the INSERT writes their time itself (SQLite's own default has
// neither the column's digits nor the session's zone).
func nowColumns(def *catalog.Table, cols []*catalog.Column) []*catalog.Column {
	named := map[string]bool{}
	for _, c := range cols {
		named[strings.ToLower(c.Name)] = true
	}
	var out []*catalog.Column
	for i := range def.Columns {
		c := &def.Columns[i]
		if nowDefault(c) && !named[strings.ToLower(c.Name)] {
			out = append(out, c)
		}
	}
	return out
}

// zoneSensitiveTarget: writing def's columns from a SELECT (whose values the
// compiler does not convert one by one) would go wrong in a session zone other
// than UTC: a TIMESTAMP column, a DATETIME whose default or ON UPDATE is the
// session's time.
func zoneSensitiveTarget(def *catalog.Table) bool {
	for i := range def.Columns {
		c := &def.Columns[i]
		if c.Type.Base == "timestamp" || c.Type.Base == "datetime" && (nowDefault(c) || c.OnUpdate != "") {
			return true
		}
	}
	return false
}

// localOnUpdate: def has a DATETIME column ON UPDATE CURRENT_TIMESTAMP, whose
// trigger writes UTC time: right only in a UTC session.
func localOnUpdate(def *catalog.Table) bool {
	for i := range def.Columns {
		if def.Columns[i].Type.Base == "datetime" && def.Columns[i].OnUpdate != "" {
			return true
		}
	}
	return false
}
