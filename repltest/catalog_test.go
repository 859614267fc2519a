package repltest

import (
	"strings"
	"testing"
)

// TestCatalogReplicates: a replica replaying a source's DDL holds the same MySQL
// definitions (SHOW CREATE TABLE text, AUTO_INCREMENT counter) as the source.
func TestCatalogReplicates(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 1)
	rep := startNode(t, "replica", 2)
	createReplUser(t, src.db)
	exec(t, src.db,
		"CREATE DATABASE cat",
		"CREATE TABLE cat.p (id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, code CHAR(3) NOT NULL, amount DECIMAL(12,2) NOT NULL DEFAULT 0, state ENUM('new','done') NOT NULL DEFAULT 'new', at DATETIME(3) DEFAULT CURRENT_TIMESTAMP(3), changed TIMESTAMP NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP, UNIQUE KEY uc (code)) AUTO_INCREMENT=500 COMMENT='parents'",
		"CREATE TABLE cat.c (id BIGINT NOT NULL PRIMARY KEY, pid INT UNSIGNED, FOREIGN KEY (pid) REFERENCES p (id) ON DELETE CASCADE, CHECK (id > 0))",
		"INSERT INTO cat.p (code) VALUES ('abc'), ('def')",
		"RENAME TABLE cat.c TO cat.children",
		// keys added and dropped later are part of the definition on both sides
		"CREATE INDEX k_amount ON cat.p (amount DESC)",
		"CREATE UNIQUE INDEX u_at ON cat.p (at, code(2))",
		"DROP INDEX uc ON cat.p",
	)
	replicate(t, rep.db, src.port())
	waitCaughtUp(t, src.db, rep.db)
	for _, table := range []string{"cat.p", "cat.children"} {
		want := rows(t, src.db, "SHOW CREATE TABLE "+table)[0][1]
		if table == "cat.p" && (!strings.Contains(want, "UNIQUE KEY `u_at` (`at`,`code`(2)),\n  KEY `k_amount` (`amount` DESC)") || strings.Contains(want, "`uc`")) {
			t.Errorf("the source's definition after CREATE/DROP INDEX:\n%s", want)
		}
		if got := rows(t, rep.db, "SHOW CREATE TABLE "+table)[0][1]; got != want {
			t.Errorf("%s on the replica:\n%s\nsource:\n%s", table, got, want)
		}
	}
	exec(t, src.db, "INSERT INTO cat.p (code) VALUES ('ghi')", "UPDATE cat.p SET state = 'done' WHERE code = 'abc'")
	waitCaughtUp(t, src.db, rep.db)
	if got := str(t, rep.db, "SELECT MAX(id) FROM cat.p"); got != "502" {
		t.Errorf("replica's last id = %s, want 502", got)
	}
	// ON UPDATE CURRENT_TIMESTAMP ran on the source; the replica has its value.
	if got := str(t, rep.db, "SELECT COUNT(*) FROM cat.p WHERE changed IS NOT NULL"); got != "1" {
		t.Errorf("rows with an ON UPDATE time on the replica: %s, want 1", got)
	}
	assertInSync(t, src.db, rep.db)
}
