package engine

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// Two statements committed in one group each get the warnings they raised
// themselves, nothing of the other's; a failed statement's warnings go nowhere.
func TestWarningsBelongToTheirStatementInAGroup(t *testing.T) {
	e := openTest(t, t.TempDir())
	defer e.close(t)
	setup(t, e.Engine, "db")
	s, err := e.schema("db")
	if err != nil {
		t.Fatal(err)
	}
	// Hold the writer so that both statements queue up and are taken into one group.
	started, release := make(chan struct{}), make(chan struct{})
	go s.w.submit(&job{kind: jobCall, call: func(*sqliteConn) error {
		close(started)
		<-release
		return nil
	}}, 0)
	<-started
	stmts := []string{
		"INSERT INTO t VALUES (1, binlite_div(5, 0, 1, '(5 / 0)'))",
		"INSERT INTO t VALUES (2, binlite_adjust_int(1000, -128, 127, NULL, 'v', 1)), (3, binlite_adjust_int('7x', -128, 127, NULL, 'v', 2))",
	}
	results := make([]Result, len(stmts))
	var wg sync.WaitGroup
	for i, q := range stmts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := e.Exec("db", Stmt{SQL: q}, testWait)
			if err != nil {
				t.Errorf("%s: %v", q, err)
			}
			results[i] = r
		}()
	}
	for deadline := time.Now().Add(testWait); len(s.w.jobs) < len(stmts); {
		if time.Now().After(deadline) {
			t.Fatal("the statements never queued")
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	var group int
	s.w.submit(&job{kind: jobCall, call: func(*sqliteConn) error { group = s.w.lastGroup; return nil }}, 0)
	if group != 2 {
		t.Errorf("the statements committed in groups of %d, want one group of 2", group)
	}
	want := []string{
		"[{Warning 1365 Division by 0}]",
		"[{Warning 1264 Out of range value for column 'v' at row 1} {Warning 1265 Data truncated for column 'v' at row 2}]",
	}
	for i, r := range results {
		if got := fmt.Sprint(r.Warnings); got != want[i] || r.LostWarnings != 0 {
			t.Errorf("%s: warnings %s (+%d), want %s", stmts[i], got, r.LostWarnings, want[i])
		}
	}
	// A failing statement's warnings are not the next one's.
	if _, err := e.Exec("db", Stmt{SQL: "INSERT INTO t VALUES (4, binlite_div_dec(5, 0, 4, 1)), (1, 0)"}, testWait); err == nil {
		t.Fatal("a duplicate key was accepted")
	}
	if r := mustExec(t, e.Engine, "db", "INSERT INTO t VALUES (5, 1)"); len(r.Warnings) != 0 {
		t.Errorf("warnings of a failed statement reached the next: %v", r.Warnings)
	}
	rows, err := e.Query("db", nil, "SELECT binlite_mod(1, 0, 1), binlite_adjust_text('abcd', 2, 0, NULL, 'c', 0) FROM t WHERE id <= 2", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(rows.Values, rows.Warnings); got != "[[<nil> ab] [<nil> ab]] [{Warning 1365 Division by 0} {Warning 1265 Data truncated for column 'c' at row 1} {Warning 1365 Division by 0} {Warning 1265 Data truncated for column 'c' at row 2}]" {
		t.Errorf("a read's warnings: %s", got)
	}
}

// A statement keeps the first maxWarnings warnings and counts the rest.
func TestWarningsAreBounded(t *testing.T) {
	e := openTest(t, t.TempDir())
	defer e.close(t)
	setup(t, e.Engine, "db")
	rows, err := e.Query("db", nil, fmt.Sprintf("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %d) SELECT count(binlite_div_dec(i, 0, 4, 1)) FROM n", maxWarnings+10), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows.Warnings) != maxWarnings || rows.LostWarnings != 10 {
		t.Errorf("%d warnings kept, %d counted beyond; want %d and 10", len(rows.Warnings), rows.LostWarnings, maxWarnings)
	}
}
