package difftest

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/binlite/binlite/internal/testnode"
)

// step is one move of an interleaving: session s (0 or 1) runs sql and waits for
// its answer; with start it sends sql and, instead of waiting for the answer,
// waits until a third session sees the statement waiting (SHOW PROCESSLIST);
// join collects the answer of session s's started statement.
type step struct {
	s     int
	sql   string
	start bool
	join  bool
}

func run(s int, sql string) step   { return step{s: s, sql: sql} }
func start(s int, sql string) step { return step{s: s, sql: sql, start: true} }
func join(s int) step              { return step{s: s, join: true} }

// interleavings are scripts of two sessions over one table t(id, v), each
// starting from rows (1,10) (2,20) (3,30): the answers of every step, error
// codes included, must be MariaDB's (InnoDB, REPEATABLE READ).
var interleavings = []struct {
	name  string
	steps []step
}{
	{"different rows proceed", []step{
		run(0, "BEGIN"), run(0, "UPDATE t SET v = 11 WHERE id = 1"),
		run(1, "BEGIN"), run(1, "UPDATE t SET v = 21 WHERE id = 2"), run(1, "COMMIT"),
		run(1, "SELECT id, v FROM t ORDER BY id"),
		run(0, "SELECT v FROM t WHERE id = 1"), run(0, "COMMIT"),
		run(1, "SELECT id, v FROM t ORDER BY id"),
	}},
	{"same row waits for the commit", []step{
		run(0, "BEGIN"), run(0, "UPDATE t SET v = v + 1 WHERE id = 1"),
		run(1, "BEGIN"), start(1, "UPDATE t SET v = v * 10 WHERE id = 1"),
		run(0, "COMMIT"), join(1),
		run(1, "SELECT v FROM t WHERE id = 1"), run(1, "COMMIT"),
		run(0, "SELECT id, v FROM t ORDER BY id"),
	}},
	{"lock wait timeout", []step{
		run(1, "SET innodb_lock_wait_timeout = 1"),
		run(0, "BEGIN"), run(0, "DELETE FROM t WHERE id = 1"),
		run(1, "BEGIN"), run(1, "UPDATE t SET v = 0 WHERE id = 1"),
		run(1, "UPDATE t SET v = 22 WHERE id = 2"), run(1, "COMMIT"),
		run(0, "ROLLBACK"), run(0, "SELECT id, v FROM t ORDER BY id"),
	}},
	{"deadlock", []step{
		run(0, "BEGIN"), run(0, "UPDATE t SET v = 11 WHERE id = 1"),
		run(1, "BEGIN"), run(1, "UPDATE t SET v = 22 WHERE id = 2"),
		start(0, "UPDATE t SET v = 12 WHERE id = 2"),
		run(1, "UPDATE t SET v = 21 WHERE id = 1"), join(0),
		run(0, "COMMIT"), run(1, "COMMIT"),
		run(1, "SELECT id, v FROM t ORDER BY id"),
	}},
	{"rollback restores", []step{
		run(0, "BEGIN"), run(0, "INSERT INTO t VALUES (5, 50)"), run(0, "UPDATE t SET v = 0 WHERE id = 2"),
		run(0, "DELETE FROM t WHERE id = 3"),
		run(1, "BEGIN"), run(1, "UPDATE t SET v = 11 WHERE id = 1"), run(1, "COMMIT"),
		run(0, "ROLLBACK"), run(0, "SELECT id, v FROM t ORDER BY id"),
	}},
	{"savepoint", []step{
		run(0, "BEGIN"), run(0, "UPDATE t SET v = 11 WHERE id = 1"), run(0, "SAVEPOINT a"),
		run(0, "UPDATE t SET v = 21 WHERE id = 2"), run(0, "ROLLBACK TO SAVEPOINT a"),
		run(0, "SELECT id, v FROM t ORDER BY id"), run(0, "COMMIT"),
		run(1, "SELECT id, v FROM t ORDER BY id"),
	}},
	{"readers never see uncommitted rows", []step{
		run(0, "BEGIN"), run(0, "UPDATE t SET v = 99 WHERE id = 1"), run(0, "INSERT INTO t VALUES (4, 40)"),
		run(1, "SELECT id, v FROM t ORDER BY id"),
		run(1, "BEGIN"), run(1, "SELECT id, v FROM t ORDER BY id"), run(1, "COMMIT"),
		run(0, "ROLLBACK"), run(1, "SELECT id, v FROM t ORDER BY id"),
	}},
	{"duplicate key waits for the other transaction", []step{
		run(0, "BEGIN"), run(0, "INSERT INTO t VALUES (7, 70)"),
		run(1, "BEGIN"), start(1, "INSERT INTO t VALUES (7, 71)"),
		run(0, "ROLLBACK"), join(1), run(1, "COMMIT"),
		run(0, "SELECT id, v FROM t ORDER BY id"),
	}},
	{"duplicate key after the other commits", []step{
		run(0, "BEGIN"), run(0, "INSERT INTO t VALUES (7, 70)"),
		run(1, "BEGIN"), start(1, "INSERT INTO t VALUES (7, 71)"),
		run(0, "COMMIT"), join(1), run(1, "ROLLBACK"),
		run(0, "SELECT id, v FROM t ORDER BY id"),
	}},
	{"locking read", []step{
		run(0, "BEGIN"), run(0, "SELECT v FROM t WHERE id = 1 FOR UPDATE"),
		run(1, "BEGIN"), start(1, "UPDATE t SET v = 5 WHERE id = 1"),
		run(0, "UPDATE t SET v = v + 1 WHERE id = 1"), run(0, "COMMIT"), join(1),
		run(1, "SELECT v FROM t WHERE id = 1"), run(1, "COMMIT"),
	}},
	{"autocommit write waits for a transaction's row", []step{
		run(0, "BEGIN"), run(0, "UPDATE t SET v = 11 WHERE id = 1"),
		start(1, "UPDATE t SET v = v + 100 WHERE v >= 10"),
		run(0, "COMMIT"), join(1),
		run(1, "SELECT id, v FROM t ORDER BY id"),
	}},
}

// TestInterleavings drives each interleaving on binlite and MariaDB and compares
// every answer.
func TestInterleavings(t *testing.T) {
	maria, err := StartMariaDB(t.TempDir())
	if errors.Is(err, ErrNoMariaDB) && testing.Short() {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := maria.Stop(); err != nil {
			t.Errorf("stopping mariadbd: %v", err)
		}
	})
	node := testnode.Start(t)
	for i, il := range interleavings {
		t.Run(il.name, func(t *testing.T) {
			db := fmt.Sprintf("interleave%d", i)
			want, err := playScript(maria.Addr(), db, il.steps)
			if err != nil {
				t.Fatalf("MariaDB: %v", err)
			}
			got, err := playScript(node.Addr(), db, il.steps)
			if err != nil {
				t.Fatalf("binlite: %v", err)
			}
			for k := range want {
				if got[k] != want[k] {
					t.Errorf("step %d (session %d: %s): binlite %s, MariaDB %s", k+1, il.steps[k].s, stepSQL(il.steps, k), got[k], want[k])
				}
			}
		})
	}
}

func stepSQL(steps []step, k int) string {
	if !steps[k].join {
		return steps[k].sql
	}
	for j := k - 1; j >= 0; j-- {
		if steps[j].start && steps[j].s == steps[k].s {
			return "the answer to " + steps[j].sql
		}
	}
	return "?"
}

// playScript runs steps on the server at addr in a fresh database and returns
// each step's answer as text (a start's is "waiting").
func playScript(addr, db string, steps []step) ([]string, error) {
	admin, err := Dial("admin", addr)
	if err != nil {
		return nil, err
	}
	defer admin.Close()
	for _, q := range []string{"DROP DATABASE IF EXISTS " + db, "CREATE DATABASE " + db, "USE " + db,
		"CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)"} {
		if a, err := admin.Run(q); err != nil || a.Err != 0 {
			return nil, fmt.Errorf("%s: %v %+v", q, err, a)
		}
	}
	var sess [2]*Conn
	for i := range sess {
		if sess[i], err = Dial(fmt.Sprint("session", i), addr); err != nil {
			return nil, err
		}
		defer sess[i].Close()
		if a, err := sess[i].Run("USE " + db); err != nil || a.Err != 0 {
			return nil, fmt.Errorf("USE: %v %+v", err, a)
		}
	}
	type pending struct {
		a   *Answer
		err error
	}
	var started [2]chan pending
	out := make([]string, len(steps))
	for k, st := range steps {
		switch {
		case st.join:
			p := <-started[st.s]
			if p.err != nil {
				return nil, p.err
			}
			out[k] = brief(p.a)
		case st.start:
			ch := make(chan pending, 1)
			started[st.s] = ch
			c := sess[st.s]
			go func() {
				a, err := c.Run(st.sql)
				ch <- pending{a, err}
			}()
			if err := waitUntilWaiting(admin, st.sql, ch); err != nil {
				return nil, fmt.Errorf("step %d: %w", k+1, err)
			}
			out[k] = "waiting"
		default:
			a, err := sess[st.s].Run(st.sql)
			if err != nil {
				return nil, fmt.Errorf("step %d %s: %w", k+1, st.sql, err)
			}
			out[k] = brief(a)
		}
	}
	return out, nil
}

// waitUntilWaiting polls the servers' lock-wait count until sql waits on a lock; it fails if
// the statement answered instead (it did not wait). The deadline bounds a broken
// run only.
func waitUntilWaiting[T any](admin *Conn, sql string, answered chan T) error {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if len(answered) > 0 {
			return fmt.Errorf("%s did not wait", sql)
		}
		// Parked on a lock, not merely running: both servers count it in
		// Innodb_row_lock_current_waits (a running statement may not have reached
		// its lock yet, and the order of two waits decides a deadlock's victim).
		a, err := admin.Run("SHOW GLOBAL STATUS LIKE 'Innodb_row_lock_current_waits'")
		if err != nil {
			return err
		}
		if len(a.Rows) == 1 && len(a.Rows[0]) == 2 && a.Rows[0][1].S != "0" {
			return nil
		}
		time.Sleep(5 * time.Millisecond)
	}
	return fmt.Errorf("%s not seen waiting within 60s", sql)
}

// brief is an answer as the interleavings compare it: the error code, or the
// rows, or the affected rows.
func brief(a *Answer) string {
	switch {
	case a.Err != 0:
		return fmt.Sprintf("error %d", a.Err)
	case a.Columns != nil:
		var rows []string
		for _, r := range a.Rows {
			var vals []string
			for _, v := range r {
				vals = append(vals, v.S)
			}
			rows = append(rows, strings.Join(vals, ","))
		}
		return "rows [" + strings.Join(rows, " ") + "]"
	}
	return fmt.Sprintf("ok, %d affected", a.Affected)
}
