package binlog

import "testing"

// A deferred rows event moved to another schema (a replica's REPLICATE_REWRITE_DB)
// is encoded anew with its rows as they were.
func TestRowsEventInSchema(t *testing.T) {
	dir := t.TempDir()
	l := openTest(t, dir, testOptions())
	want := &RowsEvent{Schema: "src", Table: "t", Columns: []string{"id", "c"}, PK: []int{0}, Rows: []RowChange{
		{Op: OpInsert, After: []Value{IntValue(1), TextValue("a")}},
		{Op: OpUpdate, Before: []Value{IntValue(2), NullValue()}, After: []Value{IntValue(2), BlobValue([]byte{7})}},
	}}
	if err := l.Commit([]*Transaction{{Schemas: []string{"src"}, Events: []Event{want}}}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	r := openReader(t, dir, 0)
	r.DeferRows()
	var moved []*RowsEvent
	readToEOF(t, r, func(e Event, _ EventHeader) {
		if re, ok := e.(*RowsEvent); ok {
			moved = append(moved, re.InSchema("dst"))
		}
	})
	if len(moved) != 1 {
		t.Fatalf("read %d rows events, want 1", len(moved))
	}
	// Encode the moved event in another log and read it back decoded.
	dir2 := t.TempDir()
	l2 := openTest(t, dir2, testOptions())
	if err := l2.Commit([]*Transaction{{Schemas: []string{"dst"}, Events: []Event{moved[0]}}}); err != nil {
		t.Fatal(err)
	}
	l2.Close()
	r2 := openReader(t, dir2, 0)
	var buf RowBuffer
	n := 0
	readToEOF(t, r2, func(e Event, _ EventHeader) {
		re, ok := e.(*RowsEvent)
		if !ok {
			return
		}
		n++
		if re.Schema != "dst" || re.Table != "t" {
			t.Fatalf("moved event is %s.%s, want dst.t", re.Schema, re.Table)
		}
		w := *want
		w.Schema = "dst"
		checkLoaded(t, 0, re, &buf, &w)
	})
	if n != 1 {
		t.Fatalf("read %d rows events back, want 1", n)
	}
}
