package sqlcompat

import "strings"

// AutoIncFunc is the SQL function an INSERT's AUTO_INCREMENT values go through:
// the engine returns a value as given, and the next id for NULL or 0, the way
// InnoDB hands them out (engine/autoinc.go). Every row of a VALUES list calls it,
// with NULL when the statement leaves the column out.
const AutoIncFunc = "binlite_autoinc"

// autoIncValues passes the AUTO_INCREMENT column's value of every row through
// AutoIncFunc and returns the column's name (quoted) when the statement leaves it
// out: the caller then adds it with AutoIncFunc(NULL) (addAutoIncColumn). It also
// reports placeholders there (ZeroToNullParams), whose 0 means "generate" too.
func (d *dmlState) autoIncValues(schema, table string, cols []string, tuples [][][2]int) string {
	if d.p.ctx.AutoInc == nil || len(tuples) == 0 {
		return ""
	}
	col, ok := d.p.ctx.AutoInc(schema, table)
	if !ok {
		return ""
	}
	if len(cols) == 0 {
		// No column list: values are in table order, which only the engine knows.
		if d.p.ctx.Columns == nil {
			return ""
		}
		cols = d.p.ctx.Columns(schema, table)
	}
	idx := -1
	for k, c := range cols {
		if strings.EqualFold(c, col) {
			idx = k
		}
	}
	for _, tuple := range tuples {
		if len(tuple) == 0 || tuple[0][1] <= tuple[0][0] {
			return "" // VALUES (): nothing to add to
		}
	}
	if idx < 0 {
		return quoteIdent(col)
	}
	for _, tuple := range tuples {
		if idx >= len(tuple) || tuple[idx][1] <= tuple[idx][0] {
			continue
		}
		lo, hi := tuple[idx][0], tuple[idx][1]
		if hi-lo == 1 && d.toks[lo].kind == tkParam {
			d.q.ZeroToNullParams = append(d.q.ZeroToNullParams, d.paramIdx[lo])
		}
		// In out, not after: the SET form re-emits the value elsewhere and skips
		// its tokens, whose after text would still be written in place.
		last := hi - 1
		for last > lo && d.skip[last] {
			last--
		}
		d.out[lo] = AutoIncFunc + "(" + d.out[lo]
		d.out[last] += ")"
	}
	return ""
}

// addAutoIncColumn adds the AUTO_INCREMENT column col to a VALUES insert that left
// it out: after the column list's last name (colEnd is the list's closing
// parenthesis) and at the end of every row.
func (d *dmlState) addAutoIncColumn(col string, colEnd int, tuples [][][2]int) {
	d.after[colEnd-1] += ", " + col
	for _, tuple := range tuples {
		d.after[tuple[len(tuple)-1][1]-1] += ", " + AutoIncFunc + "(NULL)"
	}
}
