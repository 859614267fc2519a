package replica

import (
	"testing"

	"github.com/binlite/binlite/binlog"
)

func TestFilterRules(t *testing.T) {
	cases := []struct {
		f         Filters
		db, table string
		want      bool
	}{
		{Filters{}, "a", "t", true},
		{Filters{DoDB: {"a"}}, "a", "t", true},
		{Filters{DoDB: {"a"}}, "b", "t", false},
		{Filters{DoDB: {"a"}, IgnoreDB: {"a"}}, "a", "t", true}, // DO_DB decides alone
		{Filters{IgnoreDB: {"b"}}, "b", "t", false},
		{Filters{DoTable: {"a.t"}}, "a", "t", true},
		{Filters{DoTable: {"a.t"}}, "a", "u", false},
		{Filters{IgnoreTable: {"a.t"}}, "a", "u", true},
		{Filters{IgnoreTable: {"a.t"}}, "a", "t", false},
		{Filters{WildDoTable: {"a.t%"}}, "a", "tmp", true},
		{Filters{WildDoTable: {"a.t%"}}, "a", "x", false},
		{Filters{WildIgnoreTable: {"a.t\\_%"}}, "a", "t_1", false},
		{Filters{WildIgnoreTable: {"a.t\\_%"}}, "a", "tx1", true},
		{Filters{WildDoTable: {"%.%"}, IgnoreTable: {"a.t"}}, "a", "t", false}, // IGNORE_TABLE before WILD_DO
		{Filters{IgnoreDB: {"a"}, DoTable: {"a.t"}}, "a", "t", false},          // schema rules first
	}
	for _, c := range cases {
		if got := c.f.admitsTable(c.db, c.table); got != c.want {
			t.Errorf("%v admits %s.%s = %v, want %v", c.f, c.db, c.table, got, c.want)
		}
	}
}

func TestFilterApplyEmptiesTransaction(t *testing.T) {
	tx := &binlog.Transaction{Schemas: []string{"a", "b"}, Events: []binlog.Event{
		&binlog.RowsEvent{Schema: "a", Table: "t"}, &binlog.RowsEvent{Schema: "b", Table: "t"},
	}}
	Filters{IgnoreDB: {"a"}}.apply(tx)
	if len(tx.Events) != 1 || len(tx.Schemas) != 1 || tx.Schemas[0] != "b" {
		t.Fatalf("after IGNORE_DB a: schemas %v, %d events", tx.Schemas, len(tx.Events))
	}
	Filters{IgnoreDB: {"b"}}.apply(tx)
	if len(tx.Events) != 0 || len(tx.Schemas) != 0 {
		t.Fatalf("after IGNORE_DB b: schemas %v, %d events", tx.Schemas, len(tx.Events))
	}
}
