package repltest

import "testing"

// TestForeignKeysReplicate: a parent/child workload with cascading deletes and
// updates, SET NULL, a self-referencing tree and rows written with
// foreign_key_checks=0 on the source. The replica stores the row images the source
// logged (cascaded rows included) without running the foreign key actions or checks
// again, as MySQL replicas apply row events, and ends identical.
func TestForeignKeysReplicate(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 1)
	rep := startNode(t, "replica", 2)
	createReplUser(t, src.db)
	replicate(t, rep.db, src.port())
	exec(t, src.db,
		"CREATE DATABASE fk",
		"CREATE TABLE fk.parent (id INT PRIMARY KEY, name VARCHAR(20))",
		"CREATE TABLE fk.child (id INT AUTO_INCREMENT PRIMARY KEY, pid INT, note VARCHAR(20), FOREIGN KEY (pid) REFERENCES parent (id) ON DELETE CASCADE ON UPDATE CASCADE)",
		"CREATE TABLE fk.toy (id INT PRIMARY KEY, cid INT, FOREIGN KEY (cid) REFERENCES child (id) ON DELETE SET NULL)",
		"CREATE TABLE fk.tree (id INT PRIMARY KEY, up INT, FOREIGN KEY (up) REFERENCES tree (id) ON DELETE CASCADE)",
		"INSERT INTO fk.parent VALUES (1, 'a'), (2, 'b'), (3, 'c')",
		"INSERT INTO fk.child (pid, note) VALUES (1, 'x'), (1, 'y'), (2, 'z'), (3, 'w')",
		"INSERT INTO fk.toy VALUES (10, 1), (11, 2), (12, 3)",
		"INSERT INTO fk.tree VALUES (1, NULL), (2, 1), (3, 2), (4, 1), (5, NULL)",
	)
	waitCaughtUp(t, src.db, rep.db)
	// Cascades on the source: the replica must not cascade again (the child rows'
	// own events follow the parent's) nor refuse the images.
	exec(t, src.db,
		"UPDATE fk.parent SET id = 10 WHERE id = 1",
		"DELETE FROM fk.parent WHERE id = 10",
		"DELETE FROM fk.tree WHERE id = 2",
		"SET SESSION foreign_key_checks = 0",
		"INSERT INTO fk.child (pid, note) VALUES (99, 'orphan')",
		"DELETE FROM fk.parent WHERE id = 2",
		"SET SESSION foreign_key_checks = 1",
		"BEGIN",
		"INSERT INTO fk.parent VALUES (4, 'd')",
		"INSERT INTO fk.child (pid, note) VALUES (4, 'v')",
		"UPDATE fk.parent SET id = 40 WHERE id = 4",
		"COMMIT",
	)
	waitCaughtUp(t, src.db, rep.db)
	for _, c := range []struct{ q, want string }{
		{"SELECT COUNT(*) FROM fk.child", "4"},                 // z (pid 2) survives: checks were off
		{"SELECT COUNT(*) FROM fk.child WHERE pid = 40", "1"},  // cascaded update
		{"SELECT COUNT(*) FROM fk.toy WHERE cid IS NULL", "2"}, // SET NULL of x's and y's toys
		{"SELECT COUNT(*) FROM fk.tree", "3"},                  // 2 and its subtree 3 went
		{"SELECT COUNT(*) FROM fk.tree WHERE id IN (1, 4, 5)", "3"},
	} {
		for _, db := range []struct {
			name string
			n    *node
		}{{"source", src}, {"replica", rep}} {
			if got := str(t, db.n.db, c.q); got != c.want {
				t.Errorf("%s: %s = %s, want %s", db.name, c.q, got, c.want)
			}
		}
	}
	assertInSync(t, src.db, rep.db)
}
