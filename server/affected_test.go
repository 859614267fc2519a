package server_test

// Affected rows as MySQL counts them: rows changed, not rows matched; an upsert's
// update and a REPLACE of an existing row count twice; rows a foreign key action or
// a trigger changed do not count. A statement that changes nothing takes no GTID.

import (
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

func TestAffectedRows(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, n *tn.Node, p protocol) {
		tn.Exec(t, n.DB(""), "CREATE DATABASE ar")
		s := p.session(t, n, "ar")
		tn.Exec(t, s, "CREATE TABLE kv (k VARCHAR(10) PRIMARY KEY, v INT, at DATETIME NULL ON UPDATE CURRENT_TIMESTAMP)")
		tn.Exec(t, s, "CREATE TABLE parent (id INT PRIMARY KEY)")
		tn.Exec(t, s, "CREATE TABLE child (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES parent (id) ON DELETE CASCADE)")
		tn.Exec(t, s, "INSERT INTO kv (k, v) VALUES ('a', 1), ('b', 2)")
		tn.Exec(t, s, "INSERT INTO parent VALUES (1), (2)")
		tn.Exec(t, s, "INSERT INTO child VALUES (10, 1), (11, 1), (12, 2)")
		before := tn.String(t, s, "SELECT @@gtid_executed")
		for _, c := range []struct {
			sql  string
			want int64
		}{
			{"UPDATE kv SET v = v", 0},
			{"UPDATE kv SET v = 1", 1},
		} {
			if got := tn.Affected(t, s, c.sql); got != c.want {
				t.Errorf("%s: %d affected rows, want %d", c.sql, got, c.want)
			}
			if c.want == 0 {
				if after := tn.String(t, s, "SELECT @@gtid_executed"); after != before {
					t.Errorf("%s changed nothing but took a GTID: %s -> %s", c.sql, before, after)
				}
			}
		}
		for _, c := range []struct {
			sql  string
			want int64
		}{
			{"REPLACE INTO kv (k, v) VALUES ('a', 5)", 2},
			{"REPLACE INTO kv (k, v) VALUES ('c', 5)", 1},
			{"INSERT INTO kv (k, v) VALUES ('a', 6) ON DUPLICATE KEY UPDATE v = 6", 2},
			{"INSERT INTO kv (k, v) VALUES ('a', 6) ON DUPLICATE KEY UPDATE v = 6", 0},
			{"INSERT INTO kv (k, v) VALUES ('d', 6) ON DUPLICATE KEY UPDATE v = 6", 1},
			{"DELETE FROM parent WHERE id = 1", 1},
			{"UPDATE kv SET v = 7 WHERE k = 'b'", 1},
		} {
			if got := tn.Affected(t, s, c.sql); got != c.want {
				t.Errorf("%s: %d affected rows, want %d", c.sql, got, c.want)
			}
		}
		if got := tn.String(t, s, "SELECT COUNT(*) FROM child"); got != "1" {
			t.Errorf("children left after the cascade: %s, want 1", got)
		}
		if got := tn.String(t, s, "SELECT at IS NOT NULL FROM kv WHERE k = 'b'"); got != "1" {
			t.Errorf("ON UPDATE column not set by the update: %s", got)
		}
	})
}
