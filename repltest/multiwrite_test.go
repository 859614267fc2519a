package repltest

import (
	"strings"
	"testing"
)

// TestSeveralStepWritesReplicate: statements the compiler runs as several
// SQLite steps reach the replica as the source wrote them. A multi-table UPDATE
// and DELETE (a snapshot of the join in a temporary table that is never logged),
// UPDATE ... ORDER BY row by row, and INSERT IGNORE rows apart, whose refused row
// (a foreign key) was written and undone inside the statement and must not be
// logged.
func TestSeveralStepWritesReplicate(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 1)
	rep := startNode(t, "replica", 2)
	createReplUser(t, src.db)
	replicate(t, rep.db, src.port())
	c := conn(t, src.db)
	exec(t, c, "CREATE DATABASE mw", "USE mw",
		"CREATE TABLE p (id INT PRIMARY KEY, n INT)",
		"CREATE TABLE c (id INT PRIMARY KEY, p_id INT, s VARCHAR(5), FOREIGN KEY (p_id) REFERENCES p (id) ON UPDATE CASCADE)",
		"INSERT INTO p VALUES (1, 0), (2, 0), (3, 0)",
		"INSERT INTO c VALUES (10, 1, 'a'), (11, 1, 'b'), (20, 2, 'c')",
		"UPDATE p JOIN c ON c.p_id = p.id SET c.p_id = 3, p.n = p.n + 1 WHERE p.id = 1",
		"UPDATE p SET id = id + 1 ORDER BY id DESC",
		"INSERT IGNORE INTO c VALUES (30, 4, 'ok'), (31, 99, 'no'), (10, 4, 'dup')",
		"DELETE p, c FROM p JOIN c ON c.p_id = p.id WHERE p.id = 3")
	assertInSync(t, src.db, rep.db)
	for _, q := range []string{"SELECT id, n FROM mw.p ORDER BY id", "SELECT id, p_id, s FROM mw.c ORDER BY id"} {
		want, got := rows(t, src.db, q), rows(t, rep.db, q)
		if strings.Join(flatten(got), "|") != strings.Join(flatten(want), "|") {
			t.Errorf("%s: replica %q, source %q", q, got, want)
		}
	}
	// MySQL's rows: the join moved children 10 and 11 to parent 3 and counted
	// parent 1 once; the parents' ids went up one by one from the highest (the
	// children followed, ON UPDATE CASCADE); child 31's parent does not exist and
	// 10 is a duplicate; the multi-table DELETE took parent 3 and its child 20.
	for q, want := range map[string]string{
		"SELECT id, n FROM mw.p ORDER BY id":       "2,1|4,0",
		"SELECT id, p_id, s FROM mw.c ORDER BY id": "10,4,a|11,4,b|30,4,ok",
	} {
		var rs []string
		for _, r := range rows(t, src.db, q) {
			rs = append(rs, strings.Join(r, ","))
		}
		if got := strings.Join(rs, "|"); got != want {
			t.Errorf("%s: %s, want %s", q, got, want)
		}
	}
}
