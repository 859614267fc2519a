package engine

import "github.com/binlite/binlite/binlog"

// setInsertID fills in what a write tells the session about insert ids, as MySQL
// does (Sql_cmd_insert_values::execute_inner, mysql_update):
//
//   - the OK packet's insert id is the first AUTO_INCREMENT value the statement
//     generated for a row it wrote; else the value LAST_INSERT_ID(expr) set in it;
//     else, for an INSERT into a table with an AUTO_INCREMENT column that wrote or
//     changed a row, that column's value in the last such row (a row
//     ON DUPLICATE KEY UPDATE changed, a row inserted with its id given);
//   - LAST_INSERT_ID() becomes the first generated value, else expr.
func (r *Result) setInsertID(st *Stmt, alloc *autoIncAlloc, lastID uint64, lastIDSet bool, rowID uint64) {
	switch {
	case alloc != nil && alloc.first > 0:
		r.LastInsertID = uint64(alloc.first)
		r.SetsLastID, r.LastID = true, uint64(alloc.first)
	case lastIDSet:
		r.LastInsertID = lastID
		r.SetsLastID, r.LastID = true, lastID
	case st.AutoInc != nil:
		r.LastInsertID = rowID
	}
}

// autoIncValue is the AUTO_INCREMENT column's value in the last row the statement
// itself wrote or changed (0 if none, or if the statement is not an INSERT into a
// table with one).
func (w *writer) autoIncValue(st *Stmt, cc *changeCounts) uint64 {
	if st.AutoInc == nil || cc.lastOwn == nil {
		return 0
	}
	t := w.cap.cat[cc.lastTable]
	if t == nil {
		return 0
	}
	if i := t.autoIncIndex(); i >= 0 && i < len(cc.lastOwn) {
		if v := cc.lastOwn[i]; v.Kind == binlog.KindInt && v.Int != 0 {
			return uint64(v.Int)
		}
	}
	return 0
}

// autoIncIndex is the position of the table's AUTO_INCREMENT column, -1 if none.
func (t *Table) autoIncIndex() int {
	if t.AutoInc == "" {
		return -1
	}
	for i, c := range t.Columns {
		if c.Name == t.AutoInc {
			return i
		}
	}
	return -1
}
