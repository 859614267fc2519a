package repltest

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"
)

// TestCollationsReplicate: a replica replaying a source's DDL declares the same
// collations on the same columns (the SQLite schema text is identical, ADD COLUMN
// included), so it compares, keys and sorts text as the source does, and the
// checksum finds the copies equal.
func TestCollationsReplicate(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 1)
	rep := startNode(t, "replica", 2)
	createReplUser(t, src.db)
	exec(t, src.db,
		"CREATE DATABASE coll",
		"CREATE TABLE coll.u (id INT PRIMARY KEY, email VARCHAR(100) NOT NULL, code VARCHAR(10) COLLATE utf8mb4_bin, UNIQUE KEY (email)) COLLATE utf8mb4_unicode_ci",
		"CREATE TABLE coll.k (name VARCHAR(20) PRIMARY KEY, n INT) CHARSET latin1",
		"CREATE TABLE coll.b (id INT PRIMARY KEY) COLLATE utf8mb4_bin",
		"ALTER TABLE coll.b ADD COLUMN v VARCHAR(10)",
		"INSERT INTO coll.u VALUES (1, 'straße@example.com', 'abc'), (2, 'b@example.com', 'ABC')",
		"INSERT INTO coll.k VALUES ('Alice', 1), ('bob', 2)",
		"UPDATE coll.k SET n = 10 WHERE name = 'ALICE'",
		"INSERT INTO coll.b VALUES (1, 'x'), (2, 'X')",
	)
	replicate(t, rep.db, src.port())
	waitCaughtUp(t, src.db, rep.db)

	srcSchema, repSchema := sqliteSchema(t, src.dir, "coll"), sqliteSchema(t, rep.dir, "coll")
	if srcSchema != repSchema {
		t.Errorf("SQLite schema of the replica:\n%s\nsource:\n%s", repSchema, srcSchema)
	}
	for _, want := range []string{`"email" VARCHAR(100) COLLATE utf8mb4_unicode_ci`, `"code" VARCHAR(10) COLLATE utf8mb4_bin`,
		`"name" VARCHAR(20) COLLATE latin1_swedish_ci`, `"v" VARCHAR(10) COLLATE utf8mb4_bin`} {
		if !strings.Contains(srcSchema, want) {
			t.Errorf("the SQLite schema has no %s:\n%s", want, srcSchema)
		}
	}

	for _, q := range []struct{ sql, want string }{
		{"SELECT id FROM coll.u WHERE email = 'STRASSE@EXAMPLE.COM'", "1"},
		{"SELECT id FROM coll.u ORDER BY code", "2,1"},
		{"SELECT n FROM coll.k WHERE name = 'alice '", "10"},
		{"SELECT id FROM coll.b WHERE v = 'x'", "1"},
	} {
		for _, n := range []*node{src, rep} {
			var got []string
			for _, r := range rows(t, n.db, q.sql) {
				got = append(got, r[0])
			}
			if strings.Join(got, ",") != q.want {
				t.Errorf("%s: %s = %v, want %s", n.name, q.sql, got, q.want)
			}
		}
	}

	// Writes that find their row by a key under the collation replicate the row
	// they changed.
	exec(t, src.db,
		"INSERT INTO coll.u VALUES (3, 'STRASSE@example.com', 'q') ON DUPLICATE KEY UPDATE code = 'dup'",
		"UPDATE coll.k SET name = 'ALICE' WHERE name = 'alice'",
		"DELETE FROM coll.k WHERE name = 'BOB'",
	)
	assertInSync(t, src.db, rep.db)
	if got := str(t, rep.db, "SELECT CONCAT(name, n) FROM coll.k"); got != "ALICE10" {
		t.Errorf("coll.k on the replica: %s", got)
	}
	if got := str(t, rep.db, "SELECT code FROM coll.u WHERE id = 1"); got != "dup" {
		t.Errorf("coll.u row 1 on the replica: code %s", got)
	}
}

// sqliteSchema is the SQLite schema text of a node's schema file, user tables
// and indexes only, read from the file itself.
func sqliteSchema(t *testing.T, dir, schema string) string {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(dir, schema+".sqlite")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	return strings.Join(mustQuery(t, db, "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'binlite%' ORDER BY name"), "\n")
}

func mustQuery(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	r, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer r.Close()
	var out []string
	for r.Next() {
		var s string
		if err := r.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
