package compiler

import "testing"

func TestShape(t *testing.T) {
	for in, want := range map[string]string{
		"SELECT c FROM sbtest1 WHERE id=5":                  "SELECT c FROM sbtest1 WHERE id=#",
		"SELECT c FROM sbtest1 WHERE id=123456":             "SELECT c FROM sbtest1 WHERE id=#",
		"SELECT 1.50, 2.5, 1e3, 'it''s', \"x\\\"y\", 0x41":  "SELECT #.00, #.0, #e, ', ', x",
		"SELECT `t1`.`2col` FROM t1 WHERE a IN (1, 2, 3)":   "SELECT `t1`.`2col` FROM t1 WHERE a IN (#, #, #)",
		"SELECT 1abc FROM t":                                "SELECT 1abc FROM t",
		"SELECT 'unterminated":                              "SELECT 'unterminated",
		"SELECT t2.x FROM t2":                               "SELECT t2.x FROM t2",
		"SELECT 9223372036854775807, 9223372036854775808":   "SELECT #, #u",
		"SELECT 18446744073709551615, 18446744073709551616": "SELECT #u, #d20",
		"SELECT 00000000000000000000001":                    "SELECT #",
	} {
		if got := shape(in); got != want {
			t.Errorf("shape(%q) = %q, want %q", in, got, want)
		}
	}
}
