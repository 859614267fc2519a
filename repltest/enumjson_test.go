package repltest

import (
	"context"
	"database/sql"
	"strings"
	"testing"
)

// TestJSONAndEnumValuesReplicate: JSON documents (kept in MySQL's text, decimals
// and key order included) and ENUM/SET values (numbers written as an index or a
// mask, the empty error value an INSERT IGNORE stores) reach a replica exactly
// as the source stored them, written with literals, parameters and functions.
func TestJSONAndEnumValuesReplicate(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 1)
	rep := startNode(t, "replica", 2)
	createReplUser(t, src.db)
	replicate(t, rep.db, src.port())
	exec(t, src.db, "CREATE DATABASE ej",
		"CREATE TABLE ej.t (id INT PRIMARY KEY, j JSON, e ENUM('small','medium','large'), s SET('a','b','c'), en ENUM('x','y') NOT NULL, vb VARBINARY(8))",
		`INSERT INTO ej.t VALUES (1, '{"b": 1,  "a": [1, 2, {"c": null}]}', 2, 5, 'Y', 'ab')`,
		"INSERT INTO ej.t (id, j, e) VALUES (2, JSON_OBJECT('price', 9.90, 'ok', TRUE, 'tags', JSON_ARRAY('x', 'y')), 'LARGE')",
		"INSERT IGNORE INTO ej.t (id, e, s, en) VALUES (3, 'xl', 'a,z', 'z')",
	)
	if _, err := src.db.Exec("INSERT INTO ej.t (id, j, e, s, vb) VALUES (?, ?, ?, ?, ?)", 4, `[1.0, "\u00e9",  {"k":2,"k":3}]`, 1, "c,A", []byte{0, 0xff}); err != nil {
		t.Fatal(err)
	}
	exec(t, src.db,
		"UPDATE ej.t SET j = JSON_SET(j, '$.b', 2, '$.d', 'new'), e = e + 1 WHERE id = 1",
		"UPDATE ej.t SET s = 7 WHERE id = 3",
	)
	assertInSync(t, src.db, rep.db)
	// In the schema, so that the compiler's ENUM semantics answer (e + 0).
	use := func(db *sql.DB) *sql.Conn {
		c, err := db.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		exec(t, c, "USE ej")
		return c
	}
	q := "SELECT id, j, e, e + 0, s, s + 0, en, HEX(vb) FROM t ORDER BY id"
	want, got := rows(t, use(src.db), q), rows(t, use(rep.db), q)
	if strings.Join(flatten(got), "|") != strings.Join(flatten(want), "|") {
		t.Errorf("replica's rows differ:\n source %q\nreplica %q", want, got)
	}
	mysql := [][]string{
		{"1", `{"a": [1, 2, {"c": null}], "b": 2, "d": "new"}`, "large", "3", "a,c", "5", "y", "6162"},
		{"2", `{"ok": true, "tags": ["x", "y"], "price": 9.90}`, "large", "3", "NULL", "NULL", "x", "NULL"},
		{"3", "NULL", "", "0", "a,b,c", "7", "", "NULL"},
		{"4", `[1.0, "é", {"k": 3}]`, "small", "1", "a,c", "5", "x", "00FF"},
	}
	if strings.Join(flatten(want), "|") != strings.Join(flatten(mysql), "|") {
		t.Errorf("source's rows are not MySQL's:\n got %q\nwant %q", want, mysql)
	}
}
