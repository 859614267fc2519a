package binlog

import (
	"testing"

	"github.com/binlite/binlite/gtid"
)

// Events returned by a Reader must stay valid after later reads: the replica's
// applier holds a transaction's row events while it reads the next ones.
func TestReaderEventsDoNotAliasLaterReads(t *testing.T) {
	dir := t.TempDir()
	u := gtid.NewUUID()
	l, err := Open(dir, Options{ServerUUID: u, ServerID: 1, SyncBinlog: 1})
	if err != nil {
		t.Fatal(err)
	}
	row := func(s string) *Transaction {
		return &Transaction{Schemas: []string{"d"}, Events: []Event{&RowsEvent{Schema: "d", Table: "t", Columns: []string{"v"},
			Rows: []RowChange{{Op: OpInsert, After: []Value{TextValue(s)}}}}}}
	}
	if err := l.Commit([]*Transaction{row("first-value-aaaaaaaa"), row("second-value-bbbbbbb")}); err != nil {
		t.Fatal(err)
	}
	file, _ := l.Position()
	l.Close()
	r, err := OpenReader(dir, file, FirstEventPos)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var rows []*RowsEvent
	readToEOF(t, r, func(ev Event, _ EventHeader) {
		if re, ok := ev.(*RowsEvent); ok {
			rows = append(rows, re)
		}
	})
	if len(rows) != 2 {
		t.Fatalf("read %d rows events", len(rows))
	}
	if got := string(rows[0].Rows[0].After[0].Bytes); got != "first-value-aaaaaaaa" {
		t.Fatalf("first event's value changed under a later read: %q", got)
	}
}
