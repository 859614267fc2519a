package server_test

import (
	"strings"
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

// information_schema and performance_schema: names in any letter case, USE,
// unqualified names, joins with a schema's own tables, SHOW of a virtual schema,
// and the variables tools read.
func TestVirtualSchemas(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE shop")
	s := tn.Conn(t, n.DB("shop"))
	tn.Exec(t, s, "CREATE TABLE items (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(20) NOT NULL, UNIQUE KEY uq_name (name))")
	tn.Exec(t, s, "INSERT INTO items (name) VALUES ('a'), ('b')")
	checks := []struct{ query, want string }{
		{"SELECT TABLE_NAME, AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'shop'", "[[items 3]]"},
		{"SELECT table_name FROM INFORMATION_SCHEMA.tables WHERE table_schema = DATABASE()", "[[items]]"},
		{"SELECT COUNT(*) FROM information_schema.columns c JOIN items i ON i.name = 'a' WHERE c.table_schema = 'shop'", "[[2]]"},
		{"SELECT column_name, column_key, extra FROM information_schema.columns WHERE table_schema = 'shop' ORDER BY ordinal_position", "[[id PRI auto_increment] [name UNI ]]"},
		{"SELECT constraint_type FROM information_schema.table_constraints WHERE table_schema = 'shop' ORDER BY 1", "[[PRIMARY KEY] [UNIQUE]]"},
		{"SELECT COUNT(*) > 0 FROM performance_schema.threads WHERE PROCESSLIST_ID = CONNECTION_ID()", "[[1]]"},
		{"SELECT COUNT(*) FROM performance_schema.replication_group_members", "[[0]]"},
		{"SELECT VARIABLE_VALUE FROM performance_schema.global_variables WHERE VARIABLE_NAME = 'log_bin'", "[[ON]]"},
		{"SELECT @@log_bin, @@sql_quote_show_create, @@report_port > 0, @@innodb_file_per_table", "[[1 1 1 1]]"},
		{"SHOW TABLES FROM information_schema LIKE 'KEY%'", "[[KEY_COLUMN_USAGE]]"},
		{"SHOW TABLES FROM performance_schema WHERE Tables_in_performance_schema LIKE 'replication_applier_status%'", "[[replication_applier_status] [replication_applier_status_by_coordinator] [replication_applier_status_by_worker]]"},
	}
	for _, c := range checks {
		if got := fmtRows(tn.Rows(t, s, c.query)); got != c.want {
			t.Errorf("%s = %s, want %s", c.query, got, c.want)
		}
	}
	tn.Exec(t, s, "SET @@SQL_QUOTE_SHOW_CREATE = 1")
	tn.Exec(t, s, "USE information_schema")
	if got := fmtRows(tn.Rows(t, s, "SELECT COUNT(*) FROM tables WHERE table_schema = 'shop'")); got != "[[1]]" {
		t.Errorf("unqualified tables in information_schema: %s", got)
	}
	cols := tn.Rows(t, s, "SHOW COLUMNS FROM TABLES LIKE 'TABLE_ROWS'")
	if len(cols) != 1 || cols[0][1] != "bigint unsigned" {
		t.Errorf("SHOW COLUMNS FROM TABLES: %v", cols)
	}
	if got := fmtRows(tn.Rows(t, s, "SELECT name FROM shop.items ORDER BY id")); got != "[[a] [b]]" {
		t.Errorf("a schema's table from information_schema: %s", got)
	}
	tn.QueryError(t, s, 1146, "42S02", "SELECT * FROM information_schema.nosuch")
}

func fmtRows(rows [][]string) string {
	var b strings.Builder
	b.WriteString("[")
	for i, r := range rows {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString("[" + strings.Join(r, " ") + "]")
	}
	return b.String() + "]"
}
