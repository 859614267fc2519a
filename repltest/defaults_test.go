package repltest

import (
	"strings"
	"testing"
)

// TestDefaultsAndGeneratedColumnsReplicate: values a source computed (expression
// defaults, UUID(), RAND(), generated columns, defaults ALTER COLUMN changed)
// reach the replica identical, whether the replica stores them from the row
// images (defaults) or computes them again (generated columns, which rows events
// leave out).
func TestDefaultsAndGeneratedColumnsReplicate(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 1)
	rep := startNode(t, "replica", 2)
	createReplUser(t, src.db)
	replicate(t, rep.db, src.port())
	exec(t, src.db,
		"CREATE DATABASE dg",
		"CREATE TABLE dg.d (id INT AUTO_INCREMENT PRIMARY KEY, qty INT DEFAULT 1, doubled INT DEFAULT (qty * 2), uid VARCHAR(36) DEFAULT (UUID()), r DOUBLE DEFAULT (RAND()), note TEXT DEFAULT ('none'), status VARCHAR(10) NOT NULL DEFAULT 'new')",
		"CREATE TABLE dg.g (id INT PRIMARY KEY, price DECIMAL(10,2), qty INT, total DECIMAL(12,2) AS (price * qty / 3) STORED, label VARCHAR(30) AS (CONCAT('item-', id, '-', qty)) VIRTUAL, KEY (total))",
		// No primary key: rows are found by their whole before image, generated columns left out.
		"CREATE TABLE dg.n (a INT, b INT AS (a + 1) VIRTUAL, c VARCHAR(10), s INT AS (a * 10) STORED)",
		"INSERT INTO dg.d () VALUES (), ()",
		"INSERT INTO dg.d (qty) VALUES (5), (DEFAULT)",
		"INSERT INTO dg.d SET qty = 7, note = DEFAULT",
		"INSERT INTO dg.g (id, price, qty) VALUES (1, 2.50, 4), (2, 10, NULL), (3, 1, 1)",
		"INSERT INTO dg.g VALUES (4, 2, 2, DEFAULT, DEFAULT)",
		"INSERT INTO dg.n (a, c) VALUES (1, 'x'), (1, 'z'), (2, 'y')",
	)
	waitCaughtUp(t, src.db, rep.db)
	exec(t, src.db,
		"UPDATE dg.d SET qty = DEFAULT WHERE id = 3",
		"UPDATE dg.g SET qty = qty + 1",
		"UPDATE dg.n SET a = 5 WHERE c = 'y'",
		"DELETE FROM dg.n WHERE c = 'z'",
		"ALTER TABLE dg.d ALTER COLUMN status SET DEFAULT 'fresh'",
		"ALTER TABLE dg.d ALTER COLUMN qty SET DEFAULT (CHAR_LENGTH(status) + 100)",
		"INSERT INTO dg.d (note) VALUES ('after')",
		"ALTER TABLE dg.d ALTER COLUMN qty DROP DEFAULT",
		"INSERT INTO dg.d (note) VALUES ('dropped')",
	)
	waitCaughtUp(t, src.db, rep.db)
	for _, q := range []string{
		"SELECT id, qty, doubled, uid, r, note, status FROM dg.d ORDER BY id",
		"SELECT id, price, qty, total, label FROM dg.g ORDER BY id",
		"SELECT a, b, c, s FROM dg.n ORDER BY a, c",
		"SHOW CREATE TABLE dg.d",
	} {
		want, got := rows(t, src.db, q), rows(t, rep.db, q)
		if !equalRows(got, want) {
			t.Errorf("%s\nreplica: %v\nsource:  %v", q, got, want)
		}
	}
	for note, want := range map[string]string{"after": "105|210|fresh", "dropped": "NULL|NULL|fresh"} {
		if got := rows(t, rep.db, "SELECT COALESCE(qty, 'NULL'), COALESCE(doubled, 'NULL'), status FROM dg.d WHERE note = ?", note); len(got) != 1 || strings.Join(got[0], "|") != want {
			t.Errorf("row %q on the replica: %v, want %s", note, got, want)
		}
	}
	if got := str(t, rep.db, "SELECT COUNT(DISTINCT uid) FROM dg.d"); got != "7" {
		t.Errorf("distinct UUID() defaults on the replica: %s, want 7", got)
	}
	if got := str(t, rep.db, "SELECT total FROM dg.g WHERE id = 1"); got != "4.17" {
		t.Errorf("stored generated DECIMAL on the replica: %s, want 4.17 (2.50 * 5 / 3 rounded to 2 digits)", got)
	}
	assertInSync(t, src.db, rep.db)
}

func equalRows(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.Join(a[i], "\x00") != strings.Join(b[i], "\x00") {
			return false
		}
	}
	return true
}
