package server_test

// Text columns compare by their MySQL collation (package collation), end to end:
// keys, WHERE, IN, GROUP BY, DISTINCT, ORDER BY, MIN/MAX, through the text and
// the binary protocol, across a restart.

import (
	"strings"
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

func TestCollationsCompareLikeMySQL(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE coll")
	c := tn.Conn(t, n.DB("coll"))
	// The server's collation is utf8mb4_general_ci: case-insensitive, PAD SPACE.
	tn.Exec(t, c, "CREATE TABLE users (id INT AUTO_INCREMENT PRIMARY KEY, email VARCHAR(100) NOT NULL, name VARCHAR(50), "+
		"code VARCHAR(10) COLLATE utf8mb4_bin, UNIQUE KEY uq_email (email), UNIQUE KEY uq_code (code))")
	tn.Exec(t, c, "INSERT INTO users (email, name, code) VALUES ('a@example.com', 'ann', 'abc'), ('b@example.com', 'Bob', 'ABC')")

	// A key refuses what equals a key value under the collation: case, trailing spaces.
	tn.ExecError(t, c, 1062, "23000", "INSERT INTO users (email) VALUES ('A@EXAMPLE.COM')")
	tn.ExecError(t, c, 1062, "23000", "INSERT INTO users (email) VALUES ('a@example.com ')")
	tn.ExecError(t, c, 1062, "23000", "INSERT INTO users (email) VALUES (?)", "B@Example.Com") // binary protocol
	tn.ExecError(t, c, 1062, "23000", "UPDATE users SET email = 'A@example.COM' WHERE id = 2")
	// ... and utf8mb4_bin is case-sensitive, but PAD SPACE all the same.
	tn.Exec(t, c, "INSERT INTO users (email, name, code) VALUES ('c@example.com', 'ANN', 'Abc')")
	tn.ExecError(t, c, 1062, "23000", "INSERT INTO users (email, code) VALUES ('d@example.com', 'abc  ')")
	tn.Exec(t, c, "INSERT INTO users (email, name) VALUES ('d@example.com', 'ann ')")

	rows := func(q string, args ...any) string {
		t.Helper()
		var out []string
		for _, r := range tn.Rows(t, c, q, args...) {
			out = append(out, strings.Join(r, "|"))
		}
		return strings.Join(out, ",")
	}
	for _, tc := range []struct {
		q    string
		args []any
		want string
	}{
		{"SELECT id FROM users WHERE email = 'A@EXAMPLE.COM'", nil, "1"},
		{"SELECT id FROM users WHERE email = ?", []any{"B@EXAMPLE.COM  "}, "2"},
		// The refused inserts used up ids 3-5 and 7, as InnoDB's do.
		{"SELECT id FROM users WHERE email IN ('x', 'C@Example.com') ORDER BY id", nil, "6"},
		{"SELECT id FROM users WHERE name = 'ANN' ORDER BY id", nil, "1,6,8"},
		{"SELECT id FROM users WHERE code = 'abc'", nil, "1"},
		{"SELECT id FROM users WHERE code = 'ABC '", nil, "2"},
		{"SELECT COUNT(*) FROM users GROUP BY name ORDER BY COUNT(*)", nil, "1,3"},
		{"SELECT COUNT(DISTINCT name) FROM users", nil, "2"},
		{"SELECT COUNT(*) FROM (SELECT DISTINCT name FROM users) d", nil, "2"},
		{"SELECT id FROM users ORDER BY name DESC, id", nil, "2,1,6,8"},
		{"SELECT id FROM users ORDER BY code, id", nil, "8,2,6,1"}, // NULL, then code points: ABC < Abc < abc
		{"SELECT COUNT(*) FROM users WHERE name < 'b'", nil, "3"},
		{"SELECT MAX(name) FROM users", nil, "Bob"},
		{"SELECT MIN(code) FROM users", nil, "ABC"},
	} {
		if got := rows(tc.q, tc.args...); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.q, got, tc.want)
		}
	}

	// The other collations: UCA 4.0.0 has ß = ss; 0900 is NO PAD; latin1_swedish_ci.
	tn.Exec(t, c, "CREATE TABLE words (u VARCHAR(20) COLLATE utf8mb4_unicode_ci, n VARCHAR(20) COLLATE utf8mb4_0900_ai_ci, "+
		"l VARCHAR(20) CHARACTER SET latin1, UNIQUE (u), UNIQUE (n), UNIQUE (l))")
	tn.Exec(t, c, "INSERT INTO words VALUES ('straße', 'a', 'Müller')")
	tn.ExecError(t, c, 1062, "23000", "INSERT INTO words (u) VALUES ('STRASSE')")
	tn.ExecError(t, c, 1062, "23000", "INSERT INTO words (n) VALUES ('Á')")
	tn.Exec(t, c, "INSERT INTO words (n) VALUES ('a ')") // NO PAD: a different value
	tn.ExecError(t, c, 1062, "23000", "INSERT INTO words (l) VALUES ('MÜLLER')")
	if got := rows("SELECT COUNT(*) FROM words WHERE l = 'muller'"); got != "0" { // Swedish: ü is y, not u
		t.Errorf("latin1_swedish_ci: ü = u")
	}

	// An ENUM takes a value in any letter case and stores the member.
	tn.Exec(t, c, "CREATE TABLE e (v ENUM('small','LARGE'), s SET('a','b'))")
	tn.Exec(t, c, "INSERT INTO e VALUES ('SMALL', 'B,a'), (?, ?)", "large ", "A")
	if got := rows("SELECT v, s FROM e WHERE v = 'small'") + "," + rows("SELECT v, s FROM e WHERE s = 'a'"); got != "small|a,b,LARGE|a" {
		t.Errorf("ENUM/SET stored %q", got)
	}

	// A column added later takes the table's collation.
	tn.Exec(t, c, "CREATE TABLE b (id INT PRIMARY KEY) COLLATE utf8mb4_bin")
	tn.Exec(t, c, "ALTER TABLE b ADD COLUMN v VARCHAR(10)")
	tn.Exec(t, c, "INSERT INTO b VALUES (1, 'x'), (2, 'X')")
	if got := rows("SELECT id FROM b WHERE v = 'x'"); got != "1" {
		t.Errorf("added column of a utf8mb4_bin table: %q", got)
	}

	// Collations binlite does not have are refused, as are mismatches.
	tn.ExecError(t, c, 1273, "HY000", "CREATE TABLE bad (v VARCHAR(3) COLLATE utf8mb4_nosuch_ci)")
	tn.ExecError(t, c, 1253, "42000", "CREATE TABLE bad (v VARCHAR(3) CHARACTER SET latin1 COLLATE utf8mb4_bin)")
	tn.ExecError(t, c, 1235, "42000", "CREATE TABLE bad (v VARCHAR(3) COLLATE utf8mb4_de_pb_0900_ai_ci)")

	// A restarted node registers the collations on its new connections.
	n.Restart()
	c = tn.Conn(t, n.DB("coll"))
	tn.ExecError(t, c, 1062, "23000", "INSERT INTO users (email) VALUES ('A@EXAMPLE.COM')")
	if got := rows("SELECT id FROM users WHERE email = 'B@EXAMPLE.COM'"); got != "2" {
		t.Errorf("after restart: %q", got)
	}
}

// New tables take @@collation_server, so it takes only collations binlite has.
func TestCollationServerVariable(t *testing.T) {
	n := tn.Start(t)
	c := tn.Conn(t, n.DB(""))
	tn.ExecError(t, c, 1273, "HY000", "SET collation_server = 'utf8mb4_nosuch_ci'")
	tn.ExecError(t, c, 1235, "42000", "SET GLOBAL collation_server = 'utf8mb4_de_pb_0900_ai_ci'")
	tn.Exec(t, c, "SET GLOBAL collation_server = 'utf8mb4_bin'")
	tn.Exec(t, c, "CREATE DATABASE cs")
	tn.Exec(t, c, "CREATE TABLE cs.t (v VARCHAR(5) PRIMARY KEY)")
	tn.Exec(t, c, "INSERT INTO cs.t VALUES ('a'), ('A')") // utf8mb4_bin: two values
	if got := tn.String(t, c, "SELECT COUNT(*) FROM cs.t"); got != "2" {
		t.Errorf("rows in a utf8mb4_bin table: %s", got)
	}
}
