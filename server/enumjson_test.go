package server_test

// ENUM and SET with MySQL's index semantics, JSON as MySQL stores and prints it,
// and binary strings compared as bytes: end to end with go-sql-driver/mysql,
// through the text protocol and server-side prepared statements (where values
// arrive bound: numbers as numbers, strings and bytes as they are).

import (
	"context"
	"strings"
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

// joined runs q and returns its rows as "a|b,c|d".
func joined(t *testing.T, s tn.Querier, q string, args ...any) string {
	t.Helper()
	var out []string
	for _, r := range tn.Rows(t, s, q, args...) {
		out = append(out, strings.Join(r, "|"))
	}
	return strings.Join(out, ",")
}

func warningCodes(t *testing.T, s tn.Querier) string {
	t.Helper()
	var out []string
	for _, r := range tn.Rows(t, s, "SHOW WARNINGS") {
		out = append(out, r[1])
	}
	return strings.Join(out, ",")
}

func TestEnumAndSetAsMySQL(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, n *tn.Node, p protocol) {
		tn.Exec(t, n.DB(""), "CREATE DATABASE ej")
		s := p.session(t, n, "ej")
		tn.Exec(t, s, "CREATE TABLE es (id INT PRIMARY KEY, e ENUM('small','medium','large'), s SET('a','b','c','d'), en ENUM('x','y') NOT NULL)")
		tn.Exec(t, s, "INSERT INTO es VALUES (1, 'medium', 'a,c', 'x'), (2, 1, 5, 2)")
		tn.Exec(t, s, "INSERT INTO es VALUES (3, ?, ?, ?)", "LARGE", "d,b,b,a", "y")
		tn.Exec(t, s, "INSERT INTO es VALUES (4, ?, ?, ?)", 3, 9, 1) // an index and a mask
		tn.Exec(t, s, "INSERT INTO es (id, e) VALUES (5, 'small')")  // en: its first member
		for _, tc := range []struct {
			q    string
			args []any
			want string
		}{
			{"SELECT id, e, s, en, e + 0, s + 0, en + 0 FROM es ORDER BY id", nil,
				"1|medium|a,c|x|2|5|1,2|small|a,c|y|1|5|2,3|large|a,b,d|y|3|11|2,4|large|a,d|x|3|9|1,5|small|NULL|x|1|NULL|1"},
			{"SELECT id FROM es ORDER BY e, id", nil, "2,5,1,3,4"},      // by index, not by text
			{"SELECT id FROM es ORDER BY s DESC, id", nil, "3,4,1,2,5"}, // by mask
			{"SELECT id FROM es WHERE e = 2", nil, "1"},
			{"SELECT id FROM es WHERE e = ? ORDER BY id", []any{3}, "3,4"},
			{"SELECT id FROM es WHERE e = ? ORDER BY id", []any{"LARGE"}, "3,4"},
			{"SELECT id FROM es WHERE e > 'large' ORDER BY id", nil, "1,2,5"}, // with a string: as text
			{"SELECT id FROM es WHERE e IN (1, 3) ORDER BY id", nil, "2,3,4,5"},
			{"SELECT id FROM es WHERE s & 1 ORDER BY id", nil, "1,2,3,4"},
			{"SELECT id FROM es WHERE FIND_IN_SET('B', s) ORDER BY id", nil, "3"},
			{"SELECT FIND_IN_SET('c', 'a,b,c'), FIND_IN_SET('x', ''), FIND_IN_SET(NULL, 'a')", nil, "3|0|NULL"},
		} {
			if got := joined(t, s, tc.q, tc.args...); got != tc.want {
				t.Errorf("%s %v: %q, want %q", tc.q, tc.args, got, tc.want)
			}
		}
		// Strict mode refuses what no member names (1265), however it arrives.
		tn.ExecError(t, s, 1265, "01000", "INSERT INTO es (id, e) VALUES (6, 'xl')")
		tn.ExecError(t, s, 1265, "01000", "INSERT INTO es (id, e) VALUES (6, ?)", "xl")
		tn.ExecError(t, s, 1265, "01000", "INSERT INTO es (id, e) VALUES (6, ?)", 0)
		tn.ExecError(t, s, 1265, "01000", "INSERT INTO es (id, e) VALUES (6, 4)")
		tn.ExecError(t, s, 1265, "01000", "INSERT INTO es (id, s) VALUES (6, ?)", "a,e")
		tn.ExecError(t, s, 1265, "01000", "INSERT INTO es (id, s) VALUES (6, 16)")
		tn.ExecError(t, s, 1265, "01000", "INSERT INTO es (id, e) VALUES (6, '')")
		// IGNORE stores the empty error value (index 0) and the members named.
		if got := tn.Affected(t, s, "INSERT IGNORE INTO es (id, e, s, en) VALUES (7, 'xl', 'a,e', 'z')"); got != 1 {
			t.Errorf("INSERT IGNORE: %d rows, want 1", got)
		}
		if got := warningCodes(t, s); got != "1265,1265,1265" {
			t.Errorf("INSERT IGNORE warnings: %s", got)
		}
		if got := joined(t, s, "SELECT e, e + 0, s, en, en + 0 FROM es WHERE id = 7"); got != "|0|a||0" {
			t.Errorf("row 7: %q", got)
		}
		if got := joined(t, s, "SELECT id FROM es WHERE e = 0"); got != "7" {
			t.Errorf("WHERE e = 0: %q", got)
		}
		tn.Exec(t, s, "UPDATE es SET e = ?, s = ? WHERE id = 1", 3, "B,a")
		if got := joined(t, s, "SELECT e, s FROM es WHERE id = 1"); got != "large|a,b" {
			t.Errorf("after UPDATE: %q", got)
		}
		// INSERT ... SELECT converts as VALUES do.
		tn.Exec(t, s, "INSERT INTO es (id, e, s) SELECT id + 100, 2, 'B,a' FROM es WHERE id = 1")
		if got := joined(t, s, "SELECT e, s, en FROM es WHERE id = 101"); got != "medium|a,b|x" {
			t.Errorf("INSERT ... SELECT: %q", got)
		}
		create := joined(t, s, "SHOW CREATE TABLE es")
		if !strings.Contains(create, "`en` enum('x','y') NOT NULL,") {
			t.Errorf("SHOW CREATE TABLE shows a default for en: %s", create)
		}
	})
}

func TestJSONAsMySQL(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, n *tn.Node, p protocol) {
		tn.Exec(t, n.DB(""), "CREATE DATABASE ej")
		s := p.session(t, n, "ej")
		tn.Exec(t, s, "CREATE TABLE js (id INT PRIMARY KEY, j JSON)")
		tn.Exec(t, s, `INSERT INTO js VALUES (1, '{"b": 1, "a": [1, 2, {"c": null}]}')`)
		tn.Exec(t, s, "INSERT INTO js VALUES (2, ?)", `  {"name":"Bob","n":2,"tags":["x","y"], "name": "Bob"} `)
		tn.Exec(t, s, "INSERT INTO js VALUES (3, JSON_OBJECT('k', ?, 'd', 1.50, 't', TRUE, 'f', 0.5e0))", "v")
		tn.Exec(t, s, "INSERT INTO js VALUES (4, ?)", `[1.0, 1e2, -0.5, 1e15, "\u00e9\n"]`)
		tn.ExecError(t, s, 3140, "22032", "INSERT INTO js VALUES (9, '{bad json}')")
		tn.ExecError(t, s, 3140, "22032", "INSERT INTO js VALUES (9, ?)", "{bad json}")
		tn.ExecError(t, s, 3140, "22032", "INSERT INTO js VALUES (9, '')")
		if got := joined(t, s, "SELECT j FROM js ORDER BY id"); got != `{"a": [1, 2, {"c": null}], "b": 1},`+
			`{"n": 2, "name": "Bob", "tags": ["x", "y"]},{"d": 1.50, "f": 0.5, "k": "v", "t": true},[1.0, 100.0, -0.5, 1e15, "é\n"]` {
			t.Errorf("stored documents: %s", got)
		}
		for _, tc := range []struct {
			q    string
			args []any
			want string
		}{
			{"SELECT JSON_EXTRACT(j, '$.tags[1]'), j->'$.name', j->>'$.name', JSON_TYPE(j->'$.tags'), JSON_LENGTH(j), JSON_KEYS(j) FROM js WHERE id = 2", nil,
				`"y"|"Bob"|Bob|ARRAY|3|["n", "name", "tags"]`},
			{"SELECT JSON_EXTRACT(j, '$.a[*]', '$.b'), JSON_CONTAINS_PATH(j, 'one', '$.b', '$.x'), JSON_CONTAINS(j, '2', '$.a') FROM js WHERE id = 1", nil,
				`[1, 2, {"c": null}, 1]|1|1`},
			{"SELECT id FROM js WHERE j->'$.name' = 'Bob'", nil, "2"},
			{"SELECT id FROM js WHERE j->>'$.name' = 'bob'", nil, ""}, // utf8mb4_bin
			{"SELECT id FROM js WHERE j->'$.n' = ?", []any{2}, "2"},
			{"SELECT id FROM js WHERE JSON_TYPE(j) = 'ARRAY'", nil, "4"},
			{"SELECT id FROM js WHERE j->'$.name' IN ('Ann', 'Bob')", nil, "2"},
			{"SELECT JSON_ARRAYAGG(j->'$.n'), JSON_OBJECTAGG(id, JSON_TYPE(j)) FROM js WHERE id < 4", nil,
				`[null, 2, null]|{"1": "OBJECT", "2": "OBJECT", "3": "OBJECT"}`},
			{"SELECT JSON_OBJECT('a', 1, 'b', JSON_ARRAY(1, 2)), JSON_ARRAY(1, 'a', NULL, TRUE), JSON_VALID('{a: 1}'), JSON_QUOTE('a\"b')", nil,
				`{"a": 1, "b": [1, 2]}|[1, "a", null, true]|0|"a\"b"`},
			{"SELECT JSON_UNQUOTE(JSON_EXTRACT(j, '$[4]')), JSON_DEPTH(j), JSON_EXTRACT(j, '$[last]') FROM js WHERE id = 4", nil, "é\n|2|\"é\\n\""},
		} {
			if got := joined(t, s, tc.q, tc.args...); got != tc.want {
				t.Errorf("%s %v: %q, want %q", tc.q, tc.args, got, tc.want)
			}
		}
		tn.QueryError(t, s, 3141, "22032", "SELECT JSON_EXTRACT('{x', '$')")
		tn.QueryError(t, s, 3143, "42000", "SELECT JSON_EXTRACT(j, 'nopath') FROM js")

		tn.Exec(t, s, "UPDATE js SET j = JSON_SET(j, '$.n', 3, '$.z', JSON_ARRAY(1, 2)) WHERE id = 2")
		tn.Exec(t, s, "UPDATE js SET j = JSON_REMOVE(j, '$.a[2]') WHERE id = 1")
		tn.Exec(t, s, "UPDATE js SET j = ? WHERE id = 4", `[3,  2,1]`)
		if got := joined(t, s, "SELECT j FROM js WHERE id IN (1, 2, 4) ORDER BY id"); got != `{"a": [1, 2], "b": 1},{"n": 3, "z": [1, 2], "name": "Bob", "tags": ["x", "y"]},[3, 2, 1]` {
			t.Errorf("after UPDATE: %s", got)
		}

		tn.Exec(t, s, `INSERT INTO js SELECT id + 10, '{"y": 1,  "x": 2}' FROM js WHERE id = 1`)
		tn.Exec(t, s, `INSERT INTO js SELECT id + 20, JSON_OBJECT('d', 2.50) FROM js WHERE id = 1`)
		if got := joined(t, s, "SELECT j FROM js WHERE id > 10 ORDER BY id"); got != `{"x": 2, "y": 1},{"d": 2.50}` {
			t.Errorf("INSERT ... SELECT: %s", got)
		}
		rows, err := s.QueryContext(context.Background(), "SELECT j, JSON_EXTRACT(j, '$'), j->>'$.n' FROM js WHERE id = 2")
		if err != nil {
			t.Fatal(err)
		}
		cts, err := rows.ColumnTypes()
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range []string{"JSON", "JSON", "LONGTEXT"} {
			if got := cts[i].DatabaseTypeName(); got != want {
				t.Errorf("column %d: %s, want %s", i+1, got, want)
			}
		}
		rows.Close()
	})
}

func TestBinaryStringsAsBytes(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, n *tn.Node, p protocol) {
		tn.Exec(t, n.DB(""), "CREATE DATABASE ej")
		s := p.session(t, n, "ej")
		tn.Exec(t, s, "CREATE TABLE bins (id INT PRIMARY KEY, b BINARY(4), vb VARBINARY(8), mb MEDIUMBLOB)")
		tn.Exec(t, s, "INSERT INTO bins VALUES (1, 'ab', 'ab', 'ab')")
		tn.Exec(t, s, "INSERT INTO bins VALUES (2, ?, ?, ?)", []byte{0, 0xff}, "ab", []byte("ünï"))
		for _, tc := range []struct {
			q    string
			args []any
			want string
		}{
			{"SELECT id, HEX(b), HEX(vb), HEX(mb) FROM bins ORDER BY id", nil, "1|61620000|6162|6162,2|00FF0000|6162|C3BC6EC3AF"},
			{"SELECT COUNT(*) FROM bins WHERE vb = 'ab'", nil, "2"},
			{"SELECT COUNT(*) FROM bins WHERE vb = ?", []any{"ab"}, "2"},
			{"SELECT COUNT(*) FROM bins WHERE vb = 'AB'", nil, "0"}, // bytes: case counts
			{"SELECT COUNT(*) FROM bins WHERE vb LIKE 'A%'", nil, "0"},
			{"SELECT COUNT(*) FROM bins WHERE vb LIKE 'a_' AND vb NOT LIKE '%c'", nil, "2"},
			{"SELECT COUNT(*) FROM bins WHERE b = 'ab'", nil, "0"}, // BINARY(4) keeps its NULs
			{"SELECT id FROM bins WHERE b = X'61620000'", nil, "1"},
			{"SELECT HEX(UPPER(vb)), HEX(LOWER(mb)), LENGTH(mb), CHAR_LENGTH(mb) FROM bins WHERE id = 2", nil, "6162|C3BC6EC3AF|5|5"},
			{"SELECT HEX(CAST('ab' AS BINARY(4))), 0x41 = 'A', X'41' = 'a', HEX(_binary 'x')", nil, "61620000|1|0|78"},
			{"SELECT HEX(NULL), HEX(255), HEX(-1), HEX(1.5), HEX('é')", nil, "NULL|FF|FFFFFFFFFFFFFFFF|2|C3A9"},
			{"SELECT X'41' = 65, 0x0100 > 255, X'41' = 'A'", nil, "1|1|1"},
			{"SELECT BIN(10), OCT(8), BIN(-1) = REPEAT('1', 64), BIN(NULL)", nil, "1010|10|1|NULL"},
		} {
			if got := joined(t, s, tc.q, tc.args...); got != tc.want {
				t.Errorf("%s %v: %q, want %q", tc.q, tc.args, got, tc.want)
			}
		}
		rows, err := s.QueryContext(context.Background(), "SELECT HEX(vb), HEX(mb), mb FROM bins")
		if err != nil {
			t.Fatal(err)
		}
		cts, err := rows.ColumnTypes()
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range []string{"VARCHAR", "LONGTEXT", "BLOB"} {
			if got := cts[i].DatabaseTypeName(); got != want {
				t.Errorf("column %d: %s, want %s", i+1, got, want)
			}
		}
		rows.Close()
	})
}
