package server_test

// Warnings and errors raised while a statement runs (division by zero, integer
// and DOUBLE overflow), and sql_mode without strict mode, where writes store what
// a column can hold of a value with a warning instead of failing.

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tn "github.com/binlite/binlite/internal/testnode"
)

// warningsOf is SHOW WARNINGS on q, one "Level Code Message" per warning.
func warningsOf(t *testing.T, q tn.Querier) string {
	t.Helper()
	var out []string
	for _, r := range tn.Rows(t, q, "SHOW WARNINGS") {
		out = append(out, strings.Join(r, " "))
	}
	return strings.Join(out, "; ")
}

func TestExecutionWarningsAndErrors(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, n *tn.Node, p protocol) {
		tn.Exec(t, n.DB(""), "CREATE DATABASE ew")
		c := p.session(t, n, "ew")
		tn.Exec(t, c, "CREATE TABLE ints (id INT PRIMARY KEY, ti TINYINT, tiu TINYINT UNSIGNED, bi BIGINT, k INT NOT NULL DEFAULT 0, v VARCHAR(3), d DECIMAL(5,2))")
		tn.Exec(t, c, "INSERT INTO ints (id, ti, tiu, bi) VALUES (1, 127, 0, 9223372036854775807), (2, -128, 5, -9223372036854775808)")
		expect := func(what, want string) {
			t.Helper()
			if got := warningsOf(t, c); got != want {
				t.Errorf("%s: SHOW WARNINGS = %q, want %q", what, got, want)
			}
		}
		div0 := "Warning 1365 Division by 0"

		// A SELECT's division by zero is NULL with a warning, row by row.
		if got := fmt.Sprint(tn.Rows(t, c, "SELECT 1/0, 5 MOD 0, 1e0/0, 7 DIV ?", 0)); got != "[[NULL NULL NULL NULL]]" {
			t.Errorf("divisions by zero: %s", got)
		}
		expect("SELECT 1/0, 5 MOD 0, 1e0/0, 7 DIV 0", strings.Repeat(div0+"; ", 3)+div0)
		if got := tn.String(t, c, "SELECT @@warning_count"); got != "4" {
			t.Errorf("@@warning_count = %s, want 4", got)
		}
		tn.Rows(t, c, "SELECT id / (id - id) FROM ints")
		expect("a division by zero in each of two rows", div0+"; "+div0)
		tn.Rows(t, c, "SELECT NULL / 0, 1 / NULL, NULL MOD 0, NULL DIV 0, d / 0 FROM ints")
		expect("NULL operands", "")

		// Integer and DOUBLE results beyond their types are errors, as MySQL's 1690.
		tn.QueryError(t, c, 1690, "22003", "SELECT 9223372036854775807 + 1")
		expect("the error", "Error 1690 BIGINT value is out of range in '(9223372036854775807 + 1)'")
		tn.QueryError(t, c, 1690, "22003", "SELECT bi + 1 FROM ints WHERE id = 1")
		tn.QueryError(t, c, 1690, "22003", "SELECT -bi FROM ints WHERE id = 2")
		tn.QueryError(t, c, 1690, "22003", "SELECT bi * ? FROM ints WHERE id = ?", 2, 1)
		tn.QueryError(t, c, 1690, "22003", "SELECT 1e308 * 10")
		tn.ExecError(t, c, 1690, "22003", "UPDATE ints SET tiu = tiu - 1 WHERE id = 1")
		expect("an UNSIGNED result below zero", "Error 1690 BIGINT UNSIGNED value is out of range in '(`ew`.`ints`.`tiu` - 1)'")
		if got := fmt.Sprint(tn.Rows(t, c, "SELECT bi - 1, tiu + 1, -ti, bi * ? FROM ints WHERE id = 1", 1)); got != "[[9223372036854775806 1 -127 9223372036854775807]]" {
			t.Errorf("results in range: %s", got)
		}

		// In a write under strict mode a division by zero fails the statement;
		// with IGNORE it is NULL with a warning.
		tn.ExecError(t, c, 1365, "22012", "INSERT INTO ints (id, d) VALUES (3, 1/0)")
		expect("the failed INSERT", "Error 1365 Division by 0")
		tn.ExecError(t, c, 1365, "22012", "UPDATE ints SET d = k / ? WHERE id = 1", 0)
		tn.ExecError(t, c, 1365, "22012", "DELETE FROM ints WHERE id = 1 MOD 0")
		tn.Exec(t, c, "INSERT IGNORE INTO ints (id, d) VALUES (3, 1/0)")
		expect("INSERT IGNORE", div0)

		// Without ERROR_FOR_DIVISION_BY_ZERO it is NULL, without a word.
		tn.Exec(t, c, "SET sql_mode = 'STRICT_TRANS_TABLES'")
		tn.Exec(t, c, "INSERT INTO ints (id, d) VALUES (4, 1/0)")
		expect("without ERROR_FOR_DIVISION_BY_ZERO", "")

		// Without strict mode, writes store what the column holds, with warnings.
		tn.Exec(t, c, "SET sql_mode = ''")
		if got := tn.String(t, c, "SELECT @@sql_mode"); got != "" {
			t.Errorf("@@sql_mode = %q", got)
		}
		tn.Exec(t, c, "INSERT INTO ints (id, ti, v, d) VALUES (5, 1000, 'abcdef', 12345)")
		expect("literals", "Warning 1264 Out of range value for column 'ti' at row 1; Warning 1265 Data truncated for column 'v' at row 1; Warning 1264 Out of range value for column 'd' at row 1")
		tn.Exec(t, c, "INSERT INTO ints (id, ti, v, k) VALUES (6, ?, ?, ?), (7, ?, ?, ?)", -1000, "xyzw", nil, "12x", "ab", 3)
		expect("values of two rows", "Warning 1264 Out of range value for column 'ti' at row 1; Warning 1265 Data truncated for column 'v' at row 1; Warning 1048 Column 'k' cannot be null; Warning 1265 Data truncated for column 'ti' at row 2")
		tn.Exec(t, c, "UPDATE ints SET ti = ti * 10, v = CONCAT('<<', id, '>') WHERE id IN (1, 2, 7)")
		expect("an UPDATE of three rows", "Warning 1264 Out of range value for column 'ti' at row 1; Warning 1265 Data truncated for column 'v' at row 1; "+
			"Warning 1264 Out of range value for column 'ti' at row 2; Warning 1265 Data truncated for column 'v' at row 2; Warning 1265 Data truncated for column 'v' at row 3")
		tn.Exec(t, c, "UPDATE ints SET k = NULL WHERE id = 5")
		expect("NULL into NOT NULL", "Warning 1048 Column 'k' cannot be null")
		tn.ExecError(t, c, 1048, "23000", "INSERT INTO ints (id, k) VALUES (8, NULL)") // a single row fails in any mode
		if got := fmt.Sprint(tn.Rows(t, c, "SELECT id, ti, k, v, d FROM ints WHERE id >= 5 ORDER BY id")); got != "[[5 127 0 abc 999.99] [6 -128 0 xyz NULL] [7 120 3 <<7 NULL]]" {
			t.Errorf("stored: %s", got)
		}
		tn.Exec(t, c, "CREATE TABLE nn (id INT PRIMARY KEY, m INT NOT NULL, s VARCHAR(5) NOT NULL)")
		tn.Exec(t, c, "INSERT INTO nn (id) VALUES (1)")
		expect("NOT NULL columns left out", "Warning 1364 Field 'm' doesn't have a default value; Warning 1364 Field 's' doesn't have a default value")
		if got := fmt.Sprint(tn.Rows(t, c, "SELECT id, m, CONCAT('[', s, ']') FROM nn")); got != "[[1 0 []]]" {
			t.Errorf("implicit defaults: %s", got)
		}

		// sql_mode itself: unknown modes are 1231, modes binlite does not follow 1235.
		tn.ExecError(t, c, 1231, "42000", "SET sql_mode = 'bogus'")
		tn.ExecError(t, c, 1235, "42000", "SET sql_mode = 'NO_UNSIGNED_SUBTRACTION'")
		tn.Exec(t, c, "SET sql_mode = 'traditional'")
		if got := tn.String(t, c, "SELECT @@sql_mode"); got != "STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,TRADITIONAL,NO_ENGINE_SUBSTITUTION" {
			t.Errorf("@@sql_mode = %q", got)
		}
		tn.ExecError(t, c, 1264, "22003", "INSERT INTO ints (id, ti) VALUES (9, 1000)")
		tn.ExecError(t, c, 1364, "HY000", "INSERT INTO nn (id) VALUES (2)")
	})
}

// Statements of two sessions committed in one group each report the warnings
// they raised, nothing of the other's.
func TestExecutionWarningsOfSessionsInOneGroup(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE g")
	db := n.DB("g")
	tn.Exec(t, db, "CREATE TABLE a (id INT PRIMARY KEY, d DECIMAL(5,2))")
	tn.Exec(t, db, "CREATE TABLE b (id INT PRIMARY KEY, ti TINYINT)")
	tn.Exec(t, db, "CREATE TABLE hold (id INT PRIMARY KEY)")
	tn.Exec(t, db, "INSERT INTO b VALUES (1, 100), (2, 50), (3, 1)")
	sa, sb, holder, watch := tn.Conn(t, db), tn.Conn(t, db), tn.Conn(t, db), tn.Conn(t, db)
	tn.Exec(t, sb, "SET sql_mode = ''")
	// An open transaction holds uncommitted changes in both tables: both
	// statements read every row of their table, so they wait for it, and are
	// committed together when it ends.
	tn.Exec(t, holder, "BEGIN")
	tn.Exec(t, holder, "INSERT INTO a VALUES (9, 0)")
	tn.Exec(t, holder, "DELETE FROM b WHERE id = 3")
	stmts := map[tn.Querier]string{
		sa: "INSERT IGNORE INTO a VALUES (1, 1/0), (2, 2/0)",
		sb: "UPDATE b SET ti = ti * 3",
	}
	var wg sync.WaitGroup
	for q, stmt := range stmts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := tn.TryExec(q, stmt); err != nil {
				t.Errorf("%s: %v", stmt, err)
			}
		}()
	}
	tn.WaitFor(t, 30*time.Second, "both statements waiting", func() (bool, string) {
		waiting := 0
		for _, r := range tn.Rows(t, watch, "SHOW PROCESSLIST") {
			for _, stmt := range stmts {
				if r[7] == stmt {
					waiting++
				}
			}
		}
		return waiting == 2, fmt.Sprintf("%d waiting", waiting)
	})
	tn.Exec(t, holder, "ROLLBACK")
	wg.Wait()
	if got := warningsOf(t, sa); got != "Warning 1365 Division by 0; Warning 1365 Division by 0" {
		t.Errorf("INSERT IGNORE's warnings: %s", got)
	}
	if got := warningsOf(t, sb); got != "Warning 1264 Out of range value for column 'ti' at row 1; Warning 1264 Out of range value for column 'ti' at row 2" {
		t.Errorf("UPDATE's warnings: %s", got)
	}
	if got := fmt.Sprint(tn.Rows(t, db, "SELECT id, d FROM a ORDER BY id"), tn.Rows(t, db, "SELECT id, ti FROM b ORDER BY id")); got != "[[1 NULL] [2 NULL]] [[1 127] [2 127] [3 3]]" {
		t.Errorf("stored: %s", got)
	}
}
