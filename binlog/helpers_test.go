package binlog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"testing"

	"github.com/binlite/binlite/gtid"
)

var testUUID = gtid.UUID{0x3e, 0x11, 0xfa, 0x47, 0x71, 0xca, 0x11, 0xe1, 0x9e, 0x33, 0xc8, 0x0a, 0xa9, 0x42, 0x95, 0x62}

func testOptions() Options {
	return Options{ServerUUID: testUUID, ServerID: 1, SyncBinlog: 1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

func openTest(t testing.TB, dir string, opts Options) *Log {
	t.Helper()
	l, err := Open(dir, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return l
}

// crash abandons the log as a killed process would: no Stop event.
func (l *Log) crash() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	l.ioMu.Lock()
	l.f.Close()
	l.ioMu.Unlock()
}

func sampleTx(i int) *Transaction {
	return &Transaction{
		Schemas: []string{"db"},
		Events: []Event{&RowsEvent{
			Schema: "db", Table: "t", Columns: []string{"id", "name", "score", "data"}, PK: []int{0},
			Rows: []RowChange{{Op: OpInsert, After: []Value{IntValue(int64(i)), TextValue(fmt.Sprintf("row %d", i)), RealValue(1.5), NullValue()}}},
		}},
	}
}

func commitN(t testing.TB, l *Log, n int) {
	t.Helper()
	for i := range n {
		if err := l.Commit([]*Transaction{sampleTx(i)}); err != nil {
			t.Fatalf("Commit %d: %v", i, err)
		}
	}
}

func mustSet(t testing.TB, s string) gtid.Set {
	t.Helper()
	set, err := gtid.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

const testUUIDText = "3e11fa47-71ca-11e1-9e33-c80aa9429562"

// openReader opens a reader on file binlog.000001 of dir at pos, closed when the
// test ends.
func openReader(t testing.TB, dir string, pos int64) *Reader {
	t.Helper()
	r, err := OpenReader(dir, "binlog.000001", pos)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// readToEOF calls fn for every event r has until its current end.
func readToEOF(t testing.TB, r *Reader, fn func(Event, EventHeader)) {
	t.Helper()
	for {
		ev, h, err := r.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		fn(ev, h)
	}
}

// checkLoaded loads the rows of event i (read by a Reader) into buf and compares the
// event, and its encoding, with what was written.
func checkLoaded(t testing.TB, i int, re *RowsEvent, buf *RowBuffer, want *RowsEvent) {
	t.Helper()
	rows, err := re.Load(buf)
	if err != nil {
		t.Fatal(err)
	}
	got := *re
	got.Rows = rows
	if !reflect.DeepEqual(normalize(&got), normalize(want)) {
		t.Fatalf("event %d loaded %+v, want %+v", i, rows, want.Rows)
	}
	if a, b := AppendEvent(nil, re, 1, 1), AppendEvent(nil, want, 1, 1); !bytes.Equal(a, b) {
		t.Fatalf("event %d re-encodes differently", i)
	}
}
