package engine

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/u64"
)

// AUTO_INCREMENT values as InnoDB hands them out (innodb_autoinc_lock_mode 2, and 1
// for the statements binlite sees, which are all "simple inserts" or bulk ones):
//
//   - the first row of a statement that needs a value reserves one for every row of
//     its VALUES list (1, 2, 4 ... at a time when the number of rows is not known);
//   - a row that is not written after all (a duplicate skipped by INSERT IGNORE, a
//     duplicate that ON DUPLICATE KEY UPDATE turns into an update) gives its value
//     back to the next row of the statement;
//   - what the statement reserved is used up even when it fails or leaves values
//     unused: the next statement continues after the reservation;
//   - LAST_INSERT_ID() becomes the first value a row was actually written with.
//
// SQLite's AUTOINCREMENT gives a value to every row it tries, keeps none of a failed
// statement's and reserves nothing, so the INSERT's text passes each row's
// AUTO_INCREMENT value through binlite_autoinc(v) (sqlcompat adds the call), which
// returns v when it is a value and the next id for NULL or 0.

// AutoInc describes an INSERT or REPLACE into a table with an AUTO_INCREMENT column.
type AutoInc struct {
	Table string
	Rows  int // rows of the VALUES list; 0 when not known (INSERT ... SELECT)
}

// autoIncAlloc is one statement's AUTO_INCREMENT state.
type autoIncAlloc struct {
	base      int64 // the counter before the statement: the highest value used
	rows      int
	next      int64 // the value the next row gets; 0 before the first
	end       int64 // the last value reserved
	intervals int   // reservations made
	pending   int64 // the value given to the row being written
	lo, hi    int64 // the lowest and highest values given out
	given     int   // values given out
	maxSeen   int64 // the highest value a row of the statement was given explicitly
	first     int64 // the first generated value a row was written with (after the statement)
	top       int64 // the highest value a row was written with (after the statement)
	// restore lets a row that was not written give its value back. SQLite writes
	// each row of a VALUES list before it computes the next unless the table has
	// INSERT triggers (the foreign key checks of a child table) or the list reads
	// the table (a subquery): then it computes them all first, and a value given
	// once must stay given.
	restore bool
}

// autoIncBaseSQL reads a table's counter: the highest value sqlite_sequence
// recorded, or the highest id present if that is more.
func autoIncBaseSQL(table string) string {
	return `SELECT max(ifnull((SELECT seq FROM sqlite_sequence WHERE name = ?1 COLLATE NOCASE), 0), ifnull((SELECT max(rowid) FROM ` + quoteIdent(table) + `), 0))`
}

// startAutoInc prepares the AUTO_INCREMENT values of an INSERT: the counter is
// the writer's when it knows it, else read from the schema file.
func (w *writer) startAutoInc(st *Stmt) (*autoIncAlloc, *Table, error) {
	t := w.cap.cat.lookup(st.AutoInc.Table)
	a := &autoIncAlloc{rows: st.AutoInc.Rows, restore: t != nil && len(t.ForeignKeys) == 0 && !containsFold(st.SQL, "select")}
	if n, ok := w.autoIncCounter[strings.ToLower(st.AutoInc.Table)]; ok {
		a.base = n
		return a, t, nil
	}
	rows, err := queryConn(w.c, autoIncBaseSQL(st.AutoInc.Table), []any{st.AutoInc.Table}, "")
	if err != nil {
		return nil, nil, err
	}
	if len(rows.Values) == 1 {
		a.base = asInt(rows.Values[0][0])
	}
	return a, t, nil
}

// finishAutoInc learns the ids a successful INSERT wrote (evs are its events, n
// the rows it inserted) and records what it reserved beyond them.
func (w *writer) finishAutoInc(st *Stmt, a *autoIncAlloc, t *Table, evs []binlog.Event, n int64) error {
	col := -1
	if t != nil {
		col = t.autoIncIndex()
	}
	a.written(evs, st.AutoInc.Table, col)
	if a.given == 0 && st.AutoInc.Rows == 0 && n > 0 && a.top > a.base {
		// INSERT ... SELECT: SQLite numbered the rows, one after another.
		a.first = a.top - (n - 1)
	}
	w.forgetAutoInc(evs) // the other tables it changed (triggers, foreign key actions)
	upTo := a.reserved(false, 0, 0)
	w.knowAutoInc(st.AutoInc.Table, max(a.base, a.top, upTo))
	if upTo > a.top { // SQLite recorded the highest id written, not the reservation
		if err := keepAutoInc(w.c, st.AutoInc.Table, upTo); err != nil {
			return fmt.Errorf("engine: keep AUTO_INCREMENT of %s: %w", st.AutoInc.Table, err)
		}
	}
	return nil
}

// failAutoInc records what a failed INSERT reserved: InnoDB does not give it back.
func (w *writer) failAutoInc(st *Stmt, a *autoIncAlloc, code uint16) error {
	upTo := a.reserved(true, w.c.state.lastInsertRowid(), code)
	w.knowAutoInc(st.AutoInc.Table, max(a.base, upTo))
	if upTo > 0 {
		if err := keepAutoInc(w.c, st.AutoInc.Table, upTo); err != nil {
			return fmt.Errorf("engine: keep AUTO_INCREMENT of %s: %w", st.AutoInc.Table, err)
		}
	}
	return nil
}

// knowAutoInc sets the writer's counter of a table. It stays when a transaction
// rolls back, as InnoDB's does (sqlite_sequence goes back).
func (w *writer) knowAutoInc(table string, n int64) {
	if w.autoIncCounter == nil {
		w.autoIncCounter = map[string]int64{}
	}
	w.autoIncCounter[strings.ToLower(table)] = n
}

// forgetAutoInc drops the counters of the tables a statement changed otherwise
// (an UPDATE may write a higher id; the next INSERT reads the file).
func (w *writer) forgetAutoInc(evs []binlog.Event) {
	if len(w.autoIncCounter) == 0 {
		return
	}
	for _, ev := range evs {
		if re, ok := ev.(*binlog.RowsEvent); ok {
			delete(w.autoIncCounter, strings.ToLower(re.Table))
		}
	}
}

// containsFold reports whether s contains the lower-case ASCII word w in any case.
func containsFold(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(w)], w) {
			return true
		}
	}
	return false
}

// autoinc is binlite_autoinc(v).
func (st *stmtState) autoinc(v any) (any, error) {
	gen, _ := autoIncKind(v)
	return st.autoIncValue(v, gen)
}

// autoIncValue is v written into the AUTO_INCREMENT column, or the next id
// where gen: NULL, or 0 unless NO_AUTO_VALUE_ON_ZERO (binlite_autoinc_null(v)).
func (st *stmtState) autoIncValue(v any, gen bool) (any, error) {
	if _, big := autoIncKind(v); big {
		return nil, fnError(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'AUTO_INCREMENT values above 9223372036854775807'")
	}
	a := st.alloc
	if a == nil {
		if gen {
			return nil, nil // SQLite's own AUTOINCREMENT picks the value
		}
		return v, nil
	}
	a.settle(st.lastInsertRowid())
	if !gen {
		if n, ok := v.(int64); ok {
			a.explicit(n)
		}
		return v, nil
	}
	id := a.give()
	if id <= 0 {
		return nil, fnError(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'AUTO_INCREMENT values above 9223372036854775807'")
	}
	return id, nil
}

// autoIncKind tells whether v asks for a generated value (NULL or 0), and whether
// it is an integer beyond SQLite's rowid (a BIGINT UNSIGNED above 2^63-1).
func autoIncKind(v any) (gen, big bool) {
	if _, wide := u64.Wide(v); wide {
		return false, true // the stored form of 2^63 and more (package u64)
	}
	switch x := v.(type) {
	case nil:
		return true, false
	case int64:
		return x == 0, false
	case float64:
		return x == 0, x >= math.MaxInt64+1.0 || x < math.MinInt64
	case string, []byte:
		if isNull(x) {
			return true, false
		}
		s := strings.TrimSpace(toText(x))
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			if f == 0 {
				return true, false
			}
			if _, err := strconv.ParseInt(strings.SplitN(s, ".", 2)[0], 10, 64); err != nil && (f >= math.MaxInt64 || f < math.MinInt64) {
				return false, true
			}
		}
	}
	return false, false
}

// settle learns whether the row given the pending value was written: if not, the
// next row gets the value again (handler::restore_auto_increment).
func (a *autoIncAlloc) settle(lastRowid int64) {
	if a.pending != 0 && lastRowid != a.pending && a.restore {
		a.next = a.pending
	}
	a.pending = 0
}

// explicit notes a value written as given: later generated values go past it.
func (a *autoIncAlloc) explicit(n int64) {
	a.maxSeen = max(a.maxSeen, n)
	if a.next != 0 && n >= a.next {
		a.next = n + 1
	}
}

// give returns the next value, reserving more when the reservation is used up.
func (a *autoIncAlloc) give() int64 {
	if a.next == 0 {
		a.next = max(a.base, a.maxSeen) + 1
	}
	if a.next > a.end {
		n := int64(1) << min(a.intervals, 16)
		if a.intervals == 0 && a.rows > 0 {
			n = int64(a.rows)
		}
		a.intervals++
		a.end = a.next - 1 + n
		if a.end < a.next { // overflow
			a.end = math.MaxInt64
		}
	}
	id := a.next
	if id == math.MaxInt64 {
		a.next = -1
	} else {
		a.next++
	}
	a.pending = id
	a.given++
	if a.lo == 0 {
		a.lo = id
	}
	a.hi = max(a.hi, id)
	return id
}

// written finds, among the rows the statement wrote into the table (evs; col is
// the AUTO_INCREMENT column), the first generated value a row was inserted with
// and the highest value any row has now.
func (a *autoIncAlloc) written(evs []binlog.Event, table string, col int) {
	for _, ev := range evs {
		re, ok := ev.(*binlog.RowsEvent)
		if !ok || col < 0 || !strings.EqualFold(re.Table, table) {
			continue
		}
		for _, r := range re.Rows {
			if r.After == nil || col >= len(r.After) || r.After[col].Kind != binlog.KindInt {
				continue
			}
			id := r.After[col].Int
			if r.Op == binlog.OpInsert && a.first == 0 && id >= a.lo && id <= a.hi && a.given > 0 {
				a.first = id
			}
			a.top = max(a.top, id)
		}
	}
}

// reserved is the counter the statement leaves behind (0: nothing to record).
// A failed statement keeps its reservation only if InnoDB would have made it: a
// row reached the table (a statement failing on its first row's values, before
// InnoDB asks for a value, reserves nothing), or the failure is one only writing
// the row finds (a duplicate key, a foreign key).
func (a *autoIncAlloc) reserved(failed bool, lastRowid int64, code uint16) int64 {
	if a.given == 0 {
		return 0
	}
	if failed && a.given == 1 && lastRowid != a.pending {
		switch code {
		case mysqlerr.ErDupEntry, mysqlerr.ErNoReferencedRow, mysqlerr.ErRowIsReferenced:
		default:
			return 0
		}
	}
	return a.end
}

// keepAutoInc records a statement's reservation in sqlite_sequence (never lowering
// it), after the statement, inside the open transaction.
func keepAutoInc(c *sqliteConn, table string, upTo int64) error {
	res, err := c.exec(`UPDATE sqlite_sequence SET seq = ?1 WHERE name = ?2 COLLATE NOCASE AND seq < ?1`, upTo, table)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return nil
	}
	_, err = c.exec(`INSERT INTO sqlite_sequence (name, seq) SELECT ?2, ?1 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?2 COLLATE NOCASE)`, upTo, table)
	return err
}
