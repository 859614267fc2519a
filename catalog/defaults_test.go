package catalog

import (
	"strings"
	"testing"
)

// TestValueExpressionRules: what MySQL refuses in default expressions and
// generated columns.
func TestValueExpressionRules(t *testing.T) {
	for sql, code := range map[string]uint16{
		"CREATE TABLE d (a INT DEFAULT (nosuch + 1))":                                      1054,
		"CREATE TABLE d (id INT AUTO_INCREMENT PRIMARY KEY, a INT DEFAULT (id))":           3768,
		"CREATE TABLE d (a INT DEFAULT (b), b INT DEFAULT (1))":                            3767,
		"CREATE TABLE d (a INT DEFAULT (a + 1))":                                           3767,
		"CREATE TABLE d (a INT DEFAULT (b), b INT AS (1))":                                 3767,
		"CREATE TABLE d (a INT, b INT AS (a + 1), c INT DEFAULT (b))":                      1235,
		"CREATE TABLE d (a VARCHAR(10) DEFAULT (USER()))":                                  3770,
		"CREATE TABLE d (a INT DEFAULT (UNIX_TIMESTAMP()))":                                3770,
		"CREATE TABLE d (a INT DEFAULT (@x + 1))":                                          3772,
		"CREATE TABLE d (a INT DEFAULT ((SELECT 1)))":                                      3769,
		"CREATE TABLE d (id INT AUTO_INCREMENT PRIMARY KEY DEFAULT 5)":                     1067,
		"CREATE TABLE d (a INT, b INT AS (nosuch))":                                        1054,
		"CREATE TABLE d (a INT, b INT AS (c), c INT AS (a))":                               3107,
		"CREATE TABLE d (id INT AUTO_INCREMENT PRIMARY KEY, b INT AS (id * 2))":            3109,
		"CREATE TABLE d (a INT, b DOUBLE AS (a + RAND()))":                                 3763,
		"CREATE TABLE d (a INT, b DATE AS (CURDATE()))":                                    3763,
		"CREATE TABLE d (a INT, b INT AS (@@max_connections))":                             3765,
		"CREATE TABLE d (a INT, b INT AS ((SELECT 1)))":                                    3102,
		"CREATE TABLE d (a INT, b INT DEFAULT (a * 2), c INT AS (b + 1))":                  0,
		"CREATE TABLE d (a INT DEFAULT (b + 1), b INT DEFAULT 2, u TEXT DEFAULT (UUID()))": 0,
	} {
		_, err := Build(parseCreate(t, sql), "")
		if got := codeOf(err); got != code || code == 0 && err != nil {
			t.Errorf("%s: %v, want error %d", sql, err, code)
		}
	}
}

// TestInsertDefaults: the columns an INSERT writes although it leaves them out.
func TestInsertDefaults(t *testing.T) {
	tbl, err := Build(parseCreate(t, "CREATE TABLE d (id INT AUTO_INCREMENT PRIMARY KEY, qty INT DEFAULT 1, doubled INT DEFAULT (qty * 2), "+
		"tripled INT DEFAULT (doubled + qty), note TEXT DEFAULT ('x'), n INT NOT NULL, g INT AS (qty + 1))"), "")
	if err != nil {
		t.Fatal(err)
	}
	// What the translator fills in for expression defaults.
	for _, c := range []string{"doubled", "tripled"} {
		col, _ := tbl.Column(c)
		col.Default.SQLite = map[string]string{"doubled": "(qty * 2)", "tripled": "(doubled + qty)"}[c]
		col.DefaultSupplied = true
	}
	show := func(rd []RowDefault) string {
		var out []string
		for _, r := range rd {
			out = append(out, r.Column+"="+r.SQL+"["+strings.Join(r.Refs, ",")+"]")
		}
		return strings.Join(out, " ")
	}
	for given, want := range map[string]string{
		"n":                     "qty=1[] doubled=(qty * 2)[qty] tripled=(doubled + qty)[doubled,qty]",
		"n,qty":                 "doubled=(qty * 2)[qty] tripled=(doubled + qty)[doubled,qty]",
		"n,doubled":             "qty=1[] tripled=(doubled + qty)[doubled,qty]",
		"n,qty,doubled,tripled": "",
	} {
		got, err := tbl.InsertDefaults(strings.Split(given, ","), true)
		if err != nil || show(got) != want {
			t.Errorf("given %s: %s (%v), want %s", given, show(got), err, want)
		}
	}
	if _, err := tbl.InsertDefaults([]string{"qty"}, true); codeOf(err) != 1364 {
		t.Errorf("n left out: %v, want 1364", err)
	}
	if _, err := tbl.InsertDefaults([]string{"qty"}, false); err != nil {
		t.Errorf("n left out without strict mode: %v", err)
	}
}

// TestAlterDefault: ALTER COLUMN ... SET/DROP DEFAULT on a stored definition.
func TestAlterDefault(t *testing.T) {
	tbl, err := Build(parseCreate(t, "CREATE TABLE d (a VARCHAR(3) NOT NULL DEFAULT 'x', b INT DEFAULT 1, c DECIMAL(5,2))"), "")
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := tbl.Encode()
	for _, step := range []struct{ col, spec string }{
		{"a", EncodeSpec(&DefaultSpec{Text: "yz"})},
		{"b", ""},
		{"c", EncodeSpec(&DefaultSpec{Text: "1.005"})},
	} {
		if enc, err = AlterDefaultJSON(enc, step.col, step.spec); err != nil {
			t.Fatalf("%s: %v", step.col, err)
		}
	}
	back, _ := Decode(enc)
	want := "CREATE TABLE `d` (\n  `a` varchar(3) NOT NULL DEFAULT 'yz',\n  `b` int,\n  `c` decimal(5,2) DEFAULT '1.01'\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci"
	if got := back.ShowCreate(1); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if !back.HasSuppliedDefaults() {
		t.Error("altered defaults are not marked as written by the INSERT")
	}
	if _, err := AlterDefaultJSON(enc, "a", EncodeSpec(&DefaultSpec{Text: "long"})); codeOf(err) != 1067 {
		t.Errorf("too long a default: %v, want 1067", err)
	}
	if _, err := AlterDefaultJSON(enc, "a", EncodeSpec(&DefaultSpec{Null: true})); codeOf(err) != 1067 {
		t.Errorf("NULL default of a NOT NULL column: %v, want 1067", err)
	}
}
