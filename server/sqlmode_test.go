package server_test

// sql_mode flags that change how statements are read (ANSI_QUOTES,
// PIPES_AS_CONCAT, NO_BACKSLASH_ESCAPES, HIGH_NOT_PRECEDENCE, REAL_AS_FLOAT) or
// what a write stores (NO_AUTO_VALUE_ON_ZERO), in the text protocol (the Go
// driver interpolating parameters, which escapes by the status flag
// NO_BACKSLASH_ESCAPES) and as prepared statements; SET TRANSACTION for the
// next transaction only; a user variable set to NULL keeps its type.

import (
	"context"
	"fmt"
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

func TestSQLModeReading(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, n *tn.Node, p protocol) {
		tn.Exec(t, n.DB(""), "CREATE DATABASE sm")
		c := p.session(t, n, "sm")
		rows := func(q string, args ...any) string {
			t.Helper()
			return fmt.Sprint(tn.Rows(t, c, q, args...))
		}

		tn.Exec(t, c, "SET sql_mode = 'ANSI'")
		if got := tn.String(t, c, "SELECT @@sql_mode"); got != "REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ONLY_FULL_GROUP_BY,ANSI" {
			t.Errorf("@@sql_mode = %q", got)
		}
		tn.Exec(t, c, `CREATE TABLE "q" ("id" INT PRIMARY KEY, "r" REAL, "s" VARCHAR(20))`)
		tn.Exec(t, c, `INSERT INTO "q" ("id", "r", "s") VALUES (1, 1.5, 'one'), (?, ?, ?)`, 2, 2.5, "two")
		if got := rows(`SELECT "id", "s" || '!' || ?, "r" FROM "q" ORDER BY "id"`, "?"); got != "[[1 one!? 1.5] [2 two!? 2.5]]" {
			t.Errorf(`"id", "s" || ...: %s`, got)
		}
		if got := tn.String(t, c, "SELECT DATA_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'sm' AND TABLE_NAME = 'q' AND COLUMN_NAME = 'r'"); got != "float" {
			t.Errorf("REAL under REAL_AS_FLOAT is %s, want float", got)
		}
		tn.ExecError(t, c, 1054, "42S22", `SELECT "nope" FROM q`)

		tn.Exec(t, c, "SET sql_mode = 'NO_BACKSLASH_ESCAPES'")
		if got := rows(`SELECT 'a\b', LENGTH('a\'), 'a\xb' LIKE 'a\_b', ?`, `it's a \ back`); got != `[[a\b 2 1 it's a \ back]]` {
			t.Errorf("NO_BACKSLASH_ESCAPES: %s", got)
		}
		tn.Exec(t, c, "INSERT INTO q (id, s) VALUES (3, ?), (4, 'c:\\dir')", `O'Brien \n`)
		tn.Exec(t, c, "SET sql_mode = DEFAULT")
		if got := rows("SELECT s, LENGTH(s) FROM q WHERE id IN (3, 4) ORDER BY id"); got != `[[O'Brien \n 10] [c:\dir 6]]` {
			t.Errorf("stored under NO_BACKSLASH_ESCAPES: %s", got)
		}

		tn.Exec(t, c, "SET sql_mode = 'HIGH_NOT_PRECEDENCE'")
		if got := rows("SELECT NOT 1 BETWEEN -5 AND 5, NOT 0 = 1"); got != "[[1 1]]" {
			t.Errorf("HIGH_NOT_PRECEDENCE: %s", got)
		}
		tn.Exec(t, c, "SET sql_mode = DEFAULT")
		if got := rows("SELECT NOT 1 BETWEEN -5 AND 5, NOT 0 = 1, 0 || 1"); got != "[[0 1 1]]" {
			t.Errorf("default mode: %s", got)
		}

		tn.Exec(t, c, "CREATE TABLE a (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(10))")
		tn.Exec(t, c, "SET sql_mode = 'NO_AUTO_VALUE_ON_ZERO'")
		tn.Exec(t, c, "INSERT INTO a VALUES (0, 'zero')")
		tn.Exec(t, c, "INSERT INTO a VALUES (?, ?)", nil, "null")
		tn.ExecError(t, c, 1062, "23000", "INSERT INTO a VALUES (?, ?)", 0, "dup")
		tn.Exec(t, c, "SET sql_mode = DEFAULT")
		tn.Exec(t, c, "INSERT INTO a VALUES (?, ?)", 0, "generated")
		if got := rows("SELECT id, v FROM a ORDER BY id"); got != "[[0 zero] [1 null] [2 generated]]" {
			t.Errorf("NO_AUTO_VALUE_ON_ZERO: %s", got)
		}
	})
}

func TestSetTransactionNextOnly(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, n *tn.Node, p protocol) {
		tn.Exec(t, n.DB(""), "CREATE DATABASE st")
		c := p.session(t, n, "st")
		tn.Exec(t, c, "CREATE TABLE t (id INT PRIMARY KEY)")
		tn.Exec(t, c, "SET TRANSACTION READ ONLY")
		tn.ExecError(t, c, 1792, "25006", "INSERT INTO t VALUES (1)")
		tn.Exec(t, c, "START TRANSACTION")
		tn.ExecError(t, c, 1792, "25006", "INSERT INTO t VALUES (2)")
		tn.ExecError(t, c, 1568, "25001", "SET TRANSACTION READ WRITE")
		tn.Exec(t, c, "COMMIT")
		tn.Exec(t, c, "INSERT INTO t VALUES (3)") // the next transaction only
		if got := tn.String(t, c, "SELECT @@transaction_read_only"); got != "0" {
			t.Errorf("@@transaction_read_only = %s", got)
		}
		tn.Exec(t, c, "SET SESSION TRANSACTION READ ONLY")
		tn.ExecError(t, c, 1792, "25006", "INSERT INTO t VALUES (4)")
		tn.ExecError(t, c, 1792, "25006", "INSERT INTO t VALUES (5)")
		tn.Exec(t, c, "SET SESSION TRANSACTION READ WRITE")
		if got := fmt.Sprint(tn.Rows(t, c, "SELECT id FROM t")); got != "[[3]]" {
			t.Errorf("rows: %s", got)
		}

		// SET @v = NULL keeps the variable's type (a BIGINT here).
		tn.Exec(t, c, "SET @v = 5")
		tn.Exec(t, c, "SET @v = NULL")
		rs, err := c.QueryContext(context.Background(), "SELECT @v, @v + 1")
		if err != nil {
			t.Fatal(err)
		}
		defer rs.Close()
		cts, err := rs.ColumnTypes()
		if err != nil || len(cts) != 2 {
			t.Fatalf("column types: %v, %v", cts, err)
		}
		for _, ct := range cts {
			if ct.DatabaseTypeName() != "BIGINT" {
				t.Errorf("%s is %s, want BIGINT", ct.Name(), ct.DatabaseTypeName())
			}
		}
	})
}

// A multi-statement query is split and read by the sql_mode it starts with: a
// statement after one that changes how text is read is refused, not misread.
func TestSQLModeChangeInMultiStatements(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE ms")
	c := tn.Conn(t, n.DB("ms", "multiStatements=true"))
	tn.Exec(t, c, "SET sql_mode = 'PIPES_AS_CONCAT'; SELECT 1")
	if got := tn.String(t, c, "SELECT 'a' || 'b'"); got != "ab" {
		t.Errorf("PIPES_AS_CONCAT after a multi-statement SET: %q", got)
	}
	tn.ExecError(t, c, 1235, "42000", `SET sql_mode = 'ANSI_QUOTES'; SELECT "x"`)
	if got := tn.String(t, c, "SELECT @@sql_mode"); got != "ANSI_QUOTES" {
		t.Errorf("@@sql_mode = %q", got)
	}
}
