package session

import (
	"github.com/binlite/binlite/compiler"
	"github.com/binlite/binlite/engine"
	"github.com/binlite/binlite/mysqlerr"
	mp "github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/u64"
)

// readAheadBytes bounds the rows a query reads before it sends any. A result
// that fits is read whole and its columns are typed from all its values; a
// larger one streams from the cursor to the client (rowStream) with its columns
// typed from these first rows, so that a session never holds more of a result
// than this and its connection's write buffer, however slowly its client reads.
const readAheadBytes = 256 << 10

// readAhead reads cur's first rows: the whole result when it ends within
// readAheadBytes, else a result whose More streams the rest.
func (s *Session) readAhead(cur *engine.Cursor) (*mp.Result, error) {
	rows := &engine.Rows{Columns: cur.Columns}
	size := 0
	for size < readAheadBytes {
		row, err := cur.Next(nil)
		if err != nil {
			return nil, err
		}
		if row == nil {
			rows.SetsLastID, rows.LastID = cur.SetsLastID, cur.LastID
			rows.Warnings, rows.LostWarnings = cur.Warnings, cur.LostWarnings
			s.afterRead(rows)
			return textResult(rows, s.db), nil
		}
		rows.Values = append(rows.Values, row)
		size += rowSize(row)
	}
	cur.Hold()
	res := textResult(rows, s.db)
	res.More = &rowStream{s: s, cur: cur, cols: res.Columns, wide: wideColumns(rows.Columns)}
	return res, nil
}

// rowSize estimates the memory a row read from SQLite takes.
func rowSize(row []any) int {
	n := 24
	for _, v := range row {
		n += 16
		switch x := v.(type) {
		case string:
			n += len(x)
		case []byte:
			n += len(x)
		}
	}
	return n
}

// rowStream is the rest of a result set past its first rows (readAhead), read
// from the cursor as the protocol layer writes it. Each row gets what the first
// rows got: BIGINT UNSIGNED values from 2^63 decoded (textResult), the declared
// form of the columns the compiler typed (typeResult).
type rowStream struct {
	s    *Session
	cur  *engine.Cursor
	cols []mp.Column
	wide []int
	// typed are the columns that took the compiler's type, types their types
	// (set by typeResult).
	typed []int
	types []compiler.ColType
	row   []any
	ended bool // the cursor read its last row
	err   error
}

var _ mp.RowSource = (*rowStream)(nil)

func (st *rowStream) Next() ([]any, error) {
	if st.ended || st.err != nil {
		return nil, st.err
	}
	row, err := st.cur.Next(st.row)
	if err != nil {
		return nil, st.fail(err)
	}
	if row == nil {
		st.ended = true
		return nil, nil
	}
	st.row = row
	for _, i := range st.wide {
		if n, ok := u64.Wide(row[i]); ok {
			row[i] = n
		}
	}
	for _, i := range st.typed {
		v := row[i]
		if v == nil {
			continue
		}
		if !conformsValue(st.types[i], v) {
			// The column's type went out with the first rows; MySQL's type for
			// this value is not known here.
			return nil, st.fail(mysqlerr.New(mysqlerr.ErNotSupportedYet,
				"This version of binlite doesn't yet support 'a value of column '%s' that does not fit the type its first %d KB of rows gave it'",
				st.cols[i].Name, readAheadBytes>>10))
		}
		row[i] = declaredValue(st.types[i], v)
	}
	return row, nil
}

// fail ends the stream with err, which becomes the statement's diagnostics area.
func (st *rowStream) fail(err error) error {
	st.err = err
	st.cur.Close()
	st.s.warnings, st.s.lostWarnings = []mysqlerr.Warning{errorEntry(err)}, 0
	st.s.env.Stats.Errors.Add(1)
	return err
}

// Close keeps what the query tells the session once its rows are all read (its
// LAST_INSERT_ID(expr), its warnings) and returns the statement's warning count;
// a stream left early (the client is gone) just ends its cursor.
func (st *rowStream) Close() uint16 {
	if !st.ended {
		st.cur.Close()
		return 0
	}
	s := st.s
	s.afterRead(&engine.Rows{SetsLastID: st.cur.SetsLastID, LastID: st.cur.LastID,
		Warnings: st.cur.Warnings, LostWarnings: st.cur.LostWarnings})
	s.warnings = append(append([]mysqlerr.Warning(nil), s.queryNotes...), s.notes...)
	return uint16(min(s.warningCount(), 65535))
}
