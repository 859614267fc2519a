package sqlcompat

import "testing"

// Text read under ANSI_QUOTES, NO_BACKSLASH_ESCAPES and REAL_AS_FLOAT is spelled
// as the default reading has it; comments stay, executable comments do not.
func TestRespell(t *testing.T) {
	ansi := ReadMode{AnsiQuotes: true}
	nbe := ReadMode{NoBackslashEscapes: true}
	both := ReadMode{AnsiQuotes: true, NoBackslashEscapes: true}
	for _, c := range []struct {
		in   string
		m    ReadMode
		want string
	}{
		{`SELECT "a", 'b'`, ReadMode{}, `SELECT "a", 'b'`},
		{`SELECT "a", 'b''c'`, ansi, "SELECT `a`, 'b''c'"},
		{`SELECT "a""b", "x` + "`" + `y"`, ansi, "SELECT `a\"b`, `x``y`"},
		{`SELECT 'it\'s "x"'`, ansi, `SELECT 'it\'s "x"'`},
		{`SELECT 'a\b', "c\d"`, nbe, `SELECT 'a\\b', "c\\d"`},
		{`SELECT 'a\', "b"`, both, "SELECT 'a\\\\', `b`"},
		{`SELECT 1 -- "x" 'y\'` + "\n" + `, "z"`, ansi, "SELECT 1 -- \"x\" 'y\\'\n, `z`"},
		{`SELECT /* "x" */ /*!80000 "y" */ "z"`, ansi, "SELECT /* \"x\" */ /*!80000 `y` */ `z`"},
		{"SELECT `a\"b`, \"c\"", ansi, "SELECT `a\"b`, `c`"},
		{`SELECT "unterminated`, ansi, `SELECT "unterminated`},
		{`CREATE TABLE t (r REAL, real_x INT, s REAL, t2 DOUBLE) -- real`, ReadMode{RealAsFloat: true}, `CREATE TABLE t (r FLOAT, real_x INT, s FLOAT, t2 DOUBLE) -- real`},
		{`SELECT CAST(1 AS real), t.real, @real, 'real'`, ReadMode{RealAsFloat: true}, `SELECT CAST(1 AS FLOAT), t.real, @real, 'real'`},
	} {
		if got := Respell(c.in, c.m); got != c.want {
			t.Errorf("Respell(%q, %+v) = %q, want %q", c.in, c.m, got, c.want)
		}
	}
}

// What sqlcompat reads by the default mode is named under the modes that change it.
func TestModeSensitive(t *testing.T) {
	for _, c := range []struct {
		in              string
		pipes, not, nbe bool
		sensitive       bool
	}{
		{"SELECT a || b FROM t", false, false, false, false},
		{"SELECT a || b FROM t", true, false, false, true},
		{"SELECT '||' FROM t", true, false, false, false},
		{"CREATE TABLE t (a INT NOT NULL, CHECK (a > 0) NOT ENFORCED)", false, true, false, false},
		{"CREATE TABLE IF NOT EXISTS t (a INT)", false, true, false, false},
		{"SELECT a FROM t WHERE a NOT LIKE 'x'", false, true, false, false},
		{"SELECT a FROM t WHERE NOT a = 1", false, true, false, true},
		{"SHOW TABLES LIKE 'a%'", false, false, true, false},
		{`SHOW TABLES LIKE 'a\\_%'`, false, false, true, true},
		{"SELECT a FROM t WHERE a LIKE b", false, false, true, true},
	} {
		got := ModeSensitive(c.in, c.pipes, c.not, c.nbe) != ""
		if got != c.sensitive {
			t.Errorf("ModeSensitive(%q, %v, %v, %v) = %v", c.in, c.pipes, c.not, c.nbe, got)
		}
	}
}
