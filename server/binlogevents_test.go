package server_test

import (
	"strings"
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

// SHOW BINLOG EVENTS lists the events of a file with MySQL's columns and event names,
// honours IN/FROM/LIMIT, and answers 1236 for a file that does not exist.
func TestShowBinlogEvents(t *testing.T) {
	n := tn.Start(t)
	db := n.DB("")
	tn.Exec(t, db, "CREATE DATABASE d")
	tn.Exec(t, db, "CREATE TABLE d.t (id INT PRIMARY KEY, v TEXT)")
	tn.Exec(t, db, "INSERT INTO d.t VALUES (1, 'a'), (2, 'b')")
	tn.Exec(t, db, "DELETE FROM d.t WHERE id = 2")

	cols, rows := tn.Result(t, db, "SHOW BINLOG EVENTS")
	if strings.Join(cols, ",") != "Log_name,Pos,Event_type,Server_id,End_log_pos,Info" {
		t.Fatalf("columns %v", cols)
	}
	var types []string
	for _, r := range rows {
		types = append(types, r[2])
	}
	got := strings.Join(types, " ")
	want := "Format_desc Previous_gtids Gtid Query Xid Gtid Query Xid Gtid Write_rows Xid Gtid Delete_rows Xid"
	if got != want {
		t.Fatalf("event types\n got %s\nwant %s", got, want)
	}
	if rows[0][1] != "4" || rows[9][5] != "table: `d`.`t`, 2 row(s)" {
		t.Fatalf("rows %v", rows)
	}
	// FROM the first GTID event, skip one, show two.
	_, page := tn.Result(t, db, "SHOW BINLOG EVENTS IN '"+rows[0][0]+"' FROM "+rows[2][1]+" LIMIT 1, 2")
	if len(page) != 2 || page[0][2] != "Query" || page[1][2] != "Xid" {
		t.Fatalf("page %v", page)
	}
	if _, err := tn.TryExec(db, "SHOW BINLOG EVENTS IN 'binlog.999999'"); err == nil || !strings.Contains(err.Error(), "1236") {
		t.Fatalf("missing file: %v", err)
	}
}
