package engine

import (
	"testing"

	"github.com/binlite/binlite/binlog"
	mysqlcatalog "github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/gtid"
)

// TestReplayKeepsOnUpdateValue: a replayed row change (a replica's apply, recovery)
// is stored as the source logged it. The ON UPDATE CURRENT_TIMESTAMP trigger must not
// fire again: a source whose trigger wrote the same second as before logs the
// column unchanged, and a replica firing its own trigger would store its own time.
func TestReplayKeepsOnUpdateValue(t *testing.T) {
	te := openTest(t, t.TempDir())
	defer te.close(t)
	if err := te.CreateSchema("d", false); err != nil {
		t.Fatal(err)
	}
	def := &mysqlcatalog.Table{Name: "t", Columns: []mysqlcatalog.Column{
		{Name: "id", Type: mysqlcatalog.Type{Base: "int"}},
		{Name: "v", Type: mysqlcatalog.Type{Base: "int"}, Nullable: true},
		{Name: "ts", Type: mysqlcatalog.Type{Base: "datetime"}, Nullable: true, OnUpdate: "CURRENT_TIMESTAMP"},
	}}
	ddl := append([]string{"CREATE TABLE t (id INTEGER PRIMARY KEY, v INT, ts DATETIME)"}, def.OnUpdateTriggers()...)
	if _, err := te.Exec("d", Stmt{SQL: ddl[0], DDL: ddl}, testWait); err != nil {
		t.Fatal(err)
	}
	old := binlog.TextValue("2000-01-01 00:00:00")
	ev := &binlog.RowsEvent{Schema: "d", Table: "t", Columns: []string{"id", "v", "ts"}, PK: []int{0}}
	ins := &binlog.Transaction{GTID: gtid.GTID{UUID: testSource, Seq: 1}, Schemas: []string{"d"}, Events: []binlog.Event{&binlog.RowsEvent{
		Schema: ev.Schema, Table: ev.Table, Columns: ev.Columns, PK: ev.PK,
		Rows: []binlog.RowChange{{Op: binlog.OpInsert, After: []binlog.Value{binlog.IntValue(1), binlog.IntValue(1), old}}}}}}
	upd := &binlog.Transaction{GTID: gtid.GTID{UUID: testSource, Seq: 2}, Schemas: []string{"d"}, Events: []binlog.Event{&binlog.RowsEvent{
		Schema: ev.Schema, Table: ev.Table, Columns: ev.Columns, PK: ev.PK,
		Rows: []binlog.RowChange{{Op: binlog.OpUpdate,
			Before: []binlog.Value{binlog.IntValue(1), binlog.IntValue(1), old},
			After:  []binlog.Value{binlog.IntValue(1), binlog.IntValue(2), old}}}}}}
	for _, tx := range []*binlog.Transaction{ins, upd} {
		if _, err := te.Apply(tx); err != nil {
			t.Fatal(err)
		}
	}
	if got := scalar(t, te.Engine, "d", "SELECT ts || '' FROM t WHERE id = 1"); got != "2000-01-01 00:00:00" {
		t.Errorf("ts after the replayed update = %v, want the logged 2000-01-01 00:00:00", got)
	}
	// A client's UPDATE on the same node still gets the time.
	if _, err := te.Exec("d", Stmt{SQL: "UPDATE t SET v = 3 WHERE id = 1"}, testWait); err != nil {
		t.Fatal(err)
	}
	if got := scalar(t, te.Engine, "d", "SELECT ts > '2020-01-01' FROM t WHERE id = 1"); got != int64(1) {
		t.Errorf("a client's update did not set ts: %v", got)
	}
}
