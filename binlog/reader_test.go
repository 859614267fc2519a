package binlog

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/binlite/binlite/gtid"
)

func TestReaderFollowsRotation(t *testing.T) {
	dir := t.TempDir()
	l := openTest(t, dir, testOptions())
	commitN(t, l, 2)
	l.Flush()
	commitN(t, l, 2)
	r := openReader(t, dir, 0)
	commits, rotates := 0, 0
	var files []string
	readToEOF(t, r, func(ev Event, h EventHeader) {
		switch ev.(type) {
		case *CommitEvent:
			commits++
		case *RotateEvent:
			rotates++
		case *FormatDescriptionEvent:
			files = append(files, h.File)
			if h.Pos != 4 {
				t.Fatalf("first event at %d", h.Pos)
			}
		}
	})
	if commits != 4 || rotates != 1 || len(files) != 2 {
		t.Fatalf("commits %d rotates %d files %v", commits, rotates, files)
	}
	// The reader picks up a growing file, then a restart's new file.
	commitN(t, l, 1)
	if ev, _, err := r.Next(); err != nil || ev.Type() != TypeGTID {
		t.Fatalf("after growth: %v %v", ev, err)
	}
	l.Close() // Stop event, next Open starts binlog.000003
	l = openTest(t, dir, testOptions())
	defer l.Close()
	var types []EventType
	readToEOF(t, r, func(ev Event, _ EventHeader) { types = append(types, ev.Type()) })
	if f, _ := r.Position(); f != "binlog.000003" || types[len(types)-1] != TypePreviousGTIDs {
		t.Fatalf("reader at %s after %v", f, types)
	}
}

func TestWaitDurable(t *testing.T) {
	l := openTest(t, t.TempDir(), testOptions())
	defer l.Close()
	file, pos := l.Position()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := l.WaitDurable(ctx, file, pos); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("wait with nothing new: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- l.WaitDurable(context.Background(), file, pos) }()
	commitN(t, l, 1)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	_, pos = l.Position()
	go func() { done <- l.WaitDurable(context.Background(), file, pos) }()
	l.Flush()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestScanTransactions(t *testing.T) {
	l := openTest(t, t.TempDir(), testOptions())
	defer l.Close()
	commitN(t, l, 2)
	l.Flush()
	ddl := &Transaction{Schemas: []string{"db"}, Events: []Event{&QueryEvent{Schema: "db", SQL: "CREATE TABLE u (x INT)"}}}
	l.Commit([]*Transaction{ddl})
	var got []string
	err := l.ScanTransactions("binlog.000002", func(file string, tx *Transaction) error {
		got = append(got, file+" "+tx.GTID.String())
		if q := tx.Events[0].(*QueryEvent); q.SQL != "CREATE TABLE u (x INT)" {
			t.Fatalf("sql %q", q.SQL)
		}
		return nil
	})
	if err != nil || len(got) != 1 || got[0] != "binlog.000002 "+testUUIDText+":3" {
		t.Fatalf("got %v err %v", got, err)
	}
	if err := l.ScanTransactions("nope", nil); err == nil {
		t.Fatal("unknown file accepted")
	}
}

func TestDump(t *testing.T) {
	dir := t.TempDir()
	l := openTest(t, dir, testOptions())
	tx := &Transaction{Schemas: []string{"db"}, Events: []Event{
		&QueryEvent{Schema: "db", SQL: "CREATE TABLE t (id INT PRIMARY KEY, v TEXT)"},
	}}
	up := &Transaction{Schemas: []string{"db"}, Events: []Event{&RowsEvent{Schema: "db", Table: "t", Columns: []string{"id", "v"}, PK: []int{0},
		Rows: []RowChange{
			{Op: OpInsert, After: []Value{IntValue(5), TextValue("it's")}},
			{Op: OpUpdate, Before: []Value{IntValue(5), TextValue("it's")}, After: []Value{IntValue(5), NullValue()}},
			{Op: OpDelete, Before: []Value{IntValue(5), BlobValue([]byte{0, 'a'})}},
		}}}}
	if err := l.Commit([]*Transaction{tx, up}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	var out bytes.Buffer
	path := filepath.Join(dir, "binlog.000001")
	if err := Dump(&out, path); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{
		"# at 4\n", "server id 1  end_log_pos ", " CRC32 0x", "Previous-GTIDs\n# [empty]",
		"GTID\t" + testUUIDText + ":1\t", "SET @@SESSION.GTID_NEXT= '" + testUUIDText + ":2'/*!*/;",
		"use `db`/*!*/;", "CREATE TABLE t (id INT PRIMARY KEY, v TEXT)\n/*!*/;",
		"### INSERT INTO `db`.`t`\n### SET\n###   @1=5 /* INT */\n###   @2='it\\'s' /* TEXT */\n",
		"### UPDATE `db`.`t`\n### WHERE\n###   @1=5 /* INT */\n###   @2='it\\'s' /* TEXT */\n### SET\n###   @1=5 /* INT */\n###   @2=NULL /* NULL */\n",
		"### DELETE FROM `db`.`t`\n### WHERE\n###   @1=5 /* INT */\n###   @2='\\x00a' /* BLOB */\n",
		"COMMIT/*!*/;", "\tStop\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("dump lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(s)
	}
}

// A reader shares names between events; events of other tables, schemas and column
// lists must still come back exactly as written, and copying one into another log
// writes the same payload.
func TestReaderSharedNames(t *testing.T) {
	dir := t.TempDir()
	l := openTest(t, dir, testOptions())
	defer l.Close()
	var want []*RowsEvent
	for i := range 40 {
		ev := &RowsEvent{
			Schema: fmt.Sprintf("db%d", i%3), Table: fmt.Sprintf("t%d", i%4),
			Columns: []string{"id", fmt.Sprintf("c%d", i%5)}, PK: []int{i % 2},
			Rows: []RowChange{{Op: OpUpdate, Before: []Value{IntValue(int64(i)), TextValue("b")}, After: []Value{IntValue(int64(i)), TextValue(fmt.Sprint("after ", i))}}},
		}
		want = append(want, ev)
		if err := l.Commit([]*Transaction{{Schemas: []string{ev.Schema}, Events: []Event{ev}}}); err != nil {
			t.Fatal(err)
		}
	}
	r := openReader(t, dir, 0)
	var got []*RowsEvent
	readToEOF(t, r, func(ev Event, _ EventHeader) {
		switch e := ev.(type) {
		case *RowsEvent:
			got = append(got, e)
		case *GTIDEvent:
			if len(e.Schemas) != 1 || e.Schemas[0] != fmt.Sprintf("db%d", len(got)%3) {
				t.Fatalf("GTID event %d schemas %v", len(got), e.Schemas)
			}
		}
	})
	if len(got) != len(want) {
		t.Fatalf("read %d rows events, wrote %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(normalize(got[i]), normalize(want[i])) {
			t.Fatalf("event %d: got %+v want %+v", i, got[i], want[i])
		}
		if a, b := AppendEvent(nil, got[i], 1, 1), AppendEvent(nil, want[i], 1, 1); !bytes.Equal(a, b) {
			t.Fatalf("event %d re-encodes differently", i)
		}
	}
}

// A rows event read from a file that is never rewritten (a relay log) goes into
// another log as the very bytes it was read from when the server id stays the
// same, source timestamp included; with another server id it is framed anew.
func TestRelayedRowsEventCopiedVerbatim(t *testing.T) {
	dir := t.TempDir()
	l := openTest(t, dir, testOptions())
	ev := &RowsEvent{Schema: "db", Table: "t", Columns: []string{"id", "c"}, PK: []int{0},
		Rows: []RowChange{{Op: OpInsert, After: []Value{IntValue(1), TextValue("x")}}}}
	if err := l.Commit([]*Transaction{{Schemas: []string{"db"}, Events: []Event{ev}}}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	file, err := os.ReadFile(filepath.Join(dir, "binlog.000001"))
	if err != nil {
		t.Fatal(err)
	}
	r := openReader(t, dir, 0)
	var read *RowsEvent
	var orig []byte
	var h EventHeader
	readToEOF(t, r, func(e Event, eh EventHeader) {
		if re, ok := e.(*RowsEvent); ok {
			read, orig, h = re, file[eh.Pos:eh.EndPos], eh
		}
	})
	if read == nil {
		t.Fatal("no rows event read")
	}
	tx := &Transaction{GTID: gtid.GTID{UUID: gtid.NewUUID(), Seq: 1}, Schemas: []string{"db"}, Events: []Event{read}, ServerID: h.ServerID}
	out, err := appendTx(nil, tx, h.Timestamp+1000, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, orig) {
		t.Fatal("same server id: the rows event was not copied verbatim")
	}
	tx.ServerID = h.ServerID + 1
	if out, err = appendTx(nil, tx, h.Timestamp+1000, 7); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, orig) {
		t.Fatal("other server id: the original frame was copied")
	}
	var found bool
	for b := out; len(b) > 0; {
		eh, e, err := DecodeEvent(b)
		if err != nil {
			t.Fatal(err)
		}
		if re, ok := e.(*RowsEvent); ok {
			found = true
			if eh.ServerID != tx.ServerID || eh.Timestamp != h.Timestamp+1000 || !reflect.DeepEqual(normalize(re), normalize(ev)) {
				t.Fatalf("re-framed event: header %+v, event %+v", eh, re)
			}
		}
		b = b[eh.Length:]
	}
	if !found {
		t.Fatal("no rows event in the re-framed transaction")
	}
}

// SkipTxnEvent steps over a transaction's body without decoding it, stops at
// anything else, still refuses a damaged event, and waits at a partial one.
func TestSkipTxnEvent(t *testing.T) {
	dir := t.TempDir()
	l := openTest(t, dir, testOptions())
	tx := sampleTx(1)
	tx.Events = append(tx.Events, &QueryEvent{Schema: "db", SQL: "CREATE TABLE u (id INT PRIMARY KEY)"})
	if err := l.Commit([]*Transaction{tx, sampleTx(2)}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	path := filepath.Join(dir, "binlog.000001")

	r := openReader(t, dir, 0)
	gtidAt := func() GTIDEvent {
		t.Helper()
		for {
			if _, ok, err := r.SkipTxnEvent(); err != nil || ok {
				t.Fatalf("skipped a non-body event (ok %v, err %v)", ok, err)
			}
			ev, _, err := r.Next()
			if err != nil {
				t.Fatal(err)
			}
			if g, ok := ev.(*GTIDEvent); ok {
				return *g
			}
		}
	}
	if g := gtidAt(); g.GTID.Seq != 1 {
		t.Fatalf("first GTID %v", g.GTID)
	}
	var skipped []EventType
	for {
		typ, ok, err := r.SkipTxnEvent()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		skipped = append(skipped, typ)
	}
	if want := []EventType{TypeRows, TypeQuery, TypeCommit}; !slices.Equal(skipped, want) {
		t.Fatalf("skipped %v, want %v", skipped, want)
	}
	if g := gtidAt(); g.GTID.Seq != 2 {
		t.Fatalf("second GTID %v", g.GTID)
	}
	_, rowsPos := r.Position()

	// A damaged body event is an error, not a silent skip.
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bad := slices.Clone(b)
	bad[rowsPos+HeaderLen+2] ^= 0xff
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	r2 := openReader(t, dir, rowsPos)
	if _, _, err := r2.SkipTxnEvent(); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("damaged event: err %v, want ErrCorrupt", err)
	}

	// A partial event at the end is io.EOF until the rest arrives.
	n := int64(binary.LittleEndian.Uint32(b[rowsPos:]))
	if err := os.WriteFile(path, b[:rowsPos+n-1], 0o644); err != nil {
		t.Fatal(err)
	}
	r3 := openReader(t, dir, rowsPos)
	if _, _, err := r3.SkipTxnEvent(); !errors.Is(err, io.EOF) {
		t.Fatalf("partial event: err %v, want io.EOF", err)
	}
	if _, pos := r3.Position(); pos != rowsPos {
		t.Fatalf("position moved to %d on a partial event", pos)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if typ, ok, err := r3.SkipTxnEvent(); err != nil || !ok || typ != TypeRows {
		t.Fatalf("after the rest arrived: %v %v %v", typ, ok, err)
	}
}

// A reader that defers rows hands out rows events whose changes Load decodes, equal
// to what a plain reader decodes; a malformed row list fails in Load, not silently.
func TestDeferRows(t *testing.T) {
	dir := t.TempDir()
	l := openTest(t, dir, testOptions())
	var want []*RowsEvent
	for i := range 20 {
		ev := &RowsEvent{Schema: "db", Table: "t", Columns: []string{"id", "c", "r"}, PK: []int{0}}
		for k := range i % 4 {
			ev.Rows = append(ev.Rows,
				RowChange{Op: OpUpdate, Before: []Value{IntValue(int64(k)), TextValue("old"), NullValue()}, After: []Value{IntValue(int64(k)), TextValue(fmt.Sprint("new ", i)), RealValue(0.5)}},
				RowChange{Op: OpDelete, Before: []Value{IntValue(int64(k + 100)), BlobValue([]byte{1, 2}), NullValue()}})
		}
		want = append(want, ev)
		if err := l.Commit([]*Transaction{{Schemas: []string{"db"}, Events: []Event{ev}}}); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	r := openReader(t, dir, 0)
	r.DeferRows()
	var buf RowBuffer
	i := 0
	readToEOF(t, r, func(e Event, _ EventHeader) {
		re, ok := e.(*RowsEvent)
		if !ok {
			return
		}
		if len(re.Rows) != 0 || re.RowCount() != len(want[i].Rows) {
			t.Fatalf("event %d: %d rows decoded up front, RowCount %d, want 0 and %d", i, len(re.Rows), re.RowCount(), len(want[i].Rows))
		}
		checkLoaded(t, i, re, &buf, want[i])
		i++
	})
	if i != len(want) {
		t.Fatalf("read %d rows events, wrote %d", i, len(want))
	}

	// A row list with an unknown operation, inside an intact event.
	good := (&RowsEvent{Schema: "db", Table: "t", Columns: []string{"id"}, PK: []int{0}}).appendPayload(nil)
	bad := &RowsEvent{raw: append(good[:len(good)-1], 1, 9, 0)} // one row, op 9
	dir2 := t.TempDir()
	l2 := openTest(t, dir2, testOptions())
	if err := l2.Commit([]*Transaction{{Schemas: []string{"db"}, Events: []Event{bad}}}); err != nil {
		t.Fatal(err)
	}
	l2.Close()
	r2 := openReader(t, dir2, 0)
	r2.DeferRows()
	var loaded bool
	readToEOF(t, r2, func(e Event, _ EventHeader) {
		if re, ok := e.(*RowsEvent); ok {
			loaded = true
			if _, err := re.Load(&buf); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("malformed row list: Load err %v, want ErrCorrupt", err)
			}
		}
	})
	if !loaded {
		t.Fatal("the malformed event was not read")
	}
}

// An event larger than a read window is stepped over without being read, and a
// partial one at the end of the file waits like any other.
func TestSkipLargeTxnEvent(t *testing.T) {
	dir := t.TempDir()
	l := openTest(t, dir, testOptions())
	big := &Transaction{Schemas: []string{"db"}, Events: []Event{&RowsEvent{Schema: "db", Table: "t", Columns: []string{"id", "pad"}, PK: []int{0},
		Rows: []RowChange{{Op: OpInsert, After: []Value{IntValue(1), TextValue(strings.Repeat("x", 600<<10))}}}}}}
	if err := l.Commit([]*Transaction{big, sampleTx(2)}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	path := filepath.Join(dir, "binlog.000001")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	open := func() *Reader {
		r := openReader(t, dir, 0)
		for {
			ev, _, err := r.Next()
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := ev.(*GTIDEvent); ok {
				return r
			}
		}
	}
	r := open()
	_, rowsPos := r.Position()
	if typ, ok, err := r.SkipTxnEvent(); err != nil || !ok || typ != TypeRows {
		t.Fatalf("large rows event: %v %v %v", typ, ok, err)
	}
	if typ, ok, err := r.SkipTxnEvent(); err != nil || !ok || typ != TypeCommit {
		t.Fatalf("commit: %v %v %v", typ, ok, err)
	}
	ev, _, err := r.Next()
	if g, ok := ev.(*GTIDEvent); err != nil || !ok || g.GTID.Seq != 2 {
		t.Fatalf("after the large transaction: %v %v", ev, err)
	}

	if err := os.WriteFile(path, b[:rowsPos+(400<<10)], 0o644); err != nil {
		t.Fatal(err)
	}
	r2 := open()
	if _, _, err := r2.SkipTxnEvent(); !errors.Is(err, io.EOF) {
		t.Fatalf("partial large event: err %v, want io.EOF", err)
	}
	if _, pos := r2.Position(); pos != rowsPos {
		t.Fatalf("position moved to %d on a partial event", pos)
	}
}
