package compiler

import (
	"reflect"
	"testing"
)

func TestInsertParams(t *testing.T) {
	cases := []struct {
		in, want string
		args     []any
		ok       bool
	}{
		{"INSERT INTO sbtest1 (id, k, c, pad) VALUES (0, 5034, '83868641912-28773972837', 'x')",
			"INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)", []any{int64(0), int64(5034), "83868641912-28773972837", "x"}, true},
		{"insert into t values (1,'a'),(-2, 'b''c')", "insert into t values (?,?),(?, ?)", []any{int64(1), "a", int64(-2), "b'c"}, true},
		{`REPLACE INTO t (a) VALUES ('x\ny\%')`, "REPLACE INTO t (a) VALUES (?)", []any{"x\ny\\%"}, true},
		// Everything that is not a whole integer or string literal stays as it is.
		{"INSERT INTO t VALUES (1.5, NULL, NOW(), 1+2, 'a' COLLATE utf8mb4_bin, 7)", "INSERT INTO t VALUES (1.5, NULL, NOW(), 1+2, 'a' COLLATE utf8mb4_bin, ?)", []any{int64(7)}, true},
		{"INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE a = 5", "INSERT INTO t VALUES (?) ON DUPLICATE KEY UPDATE a = 5", []any{int64(1)}, true},
		{"INSERT INTO `my table` (`values`) VALUE (3)", "INSERT INTO `my table` (`values`) VALUE (?)", []any{int64(3)}, true},
		// Not rewritten at all.
		{"INSERT INTO t SELECT 1", "", nil, false},
		{"INSERT INTO t SET a = 1", "", nil, false},
		{"INSERT INTO t VALUES ('a' 'b')", "", nil, false},
		{"INSERT INTO t VALUES (1) /* c */", "", nil, false},
		{"INSERT INTO t VALUES (?)", "", nil, false},
		{"INSERT INTO t VALUES (1.5)", "", nil, false},
		{"INSERT INTO t VALUES (12345678901234567890)", "", nil, false},
		{"INSERT INTO t VALUES (0x1F)", "", nil, false},
		{"INSERT INTO t VALUES (_utf8mb4'a')", "", nil, false},
		{"INSERT INTO t VALUES ('unterminated)", "", nil, false},
		{"UPDATE t SET a = 1", "", nil, false},
	}
	for _, c := range cases {
		got, args, ok := InsertParams(c.in, true)
		if ok != c.ok || got != c.want || !reflect.DeepEqual(args, c.args) {
			t.Errorf("InsertParams(%q) = %q, %#v, %v; want %q, %#v, %v", c.in, got, args, ok, c.want, c.args, c.ok)
		}
	}
	// Without backslash escapes a backslash is a character.
	if _, args, ok := InsertParams(`INSERT INTO t VALUES ('a\n')`, false); !ok || args[0] != `a\n` {
		t.Errorf("NO_BACKSLASH_ESCAPES: %#v, %v", args, ok)
	}
}
