package difftest

import (
	"strings"
	"testing"

	"github.com/go-mysql-org/go-mysql/mysql"
)

func TestParseFile(t *testing.T) {
	text := `-- a comment
CREATE TABLE t (a INT);

-- mysql: error 3819 -- manual 15.1.20.6
INSERT INTO t
  VALUES (1);
-- compare: shape -- NOW() changes
-- mysql: column 1 DATETIME+binary -- manual 14.7
SELECT NOW();
# hash comment
SELECT 1;
`
	f, err := ParseFile("x.sql", text)
	if err != nil {
		t.Fatal(err)
	}
	if f.Category != "x" || len(f.Statements) != 4 {
		t.Fatalf("got category %q, %d statements", f.Category, len(f.Statements))
	}
	st := f.Statements[1]
	if st.ID() != "x.sql:5" || st.SQL != "INSERT INTO t\n  VALUES (1)" || st.Written == nil || *st.Written.Err != 3819 {
		t.Errorf("statement 2: %s %q %+v", st.ID(), st.SQL, st.Written)
	}
	if st := f.Statements[2]; st.Compare != compareShape || st.Written == nil || st.Written.ColumnAt[1].Type != mysql.MYSQL_TYPE_DATETIME {
		t.Errorf("statement 3: %+v", st)
	}
	if st := f.Statements[3]; st.Compare != compareAll || st.Written != nil {
		t.Errorf("statement 4: %+v", st)
	}
}

func TestParseFileErrors(t *testing.T) {
	for name, text := range map[string]string{
		"blank after directive":   "-- mysql: error 1062 -- ref\n\nSELECT 1;\n",
		"comment after directive": "-- mysql: error 1062 -- ref\n-- note\nSELECT 1;\n",
		"no reference":            "-- mysql: error 1062\nSELECT 1;\n",
		"bad clause":              "-- mysql: erorr 1062 -- ref\nSELECT 1;\n",
		"misspelled directive":    "-- mysql error 1062 -- ref\nSELECT 1;\n",
		"unterminated statement":  "SELECT 1\n",
		"directive at end":        "SELECT 1;\n-- mysql: error 1 -- ref\n",
		"directive inside":        "SELECT\n-- mysql: error 1 -- ref\n1;\n",
		"compare mode":            "-- compare: values -- why\nSELECT 1;\n",
		"error with rows":         "-- mysql: error 1062; row 1 -- ref\nSELECT 1;\n",
		"unknown type":            "-- mysql: columns INTEGER -- ref\nSELECT 1;\n",
		"missing value":           "-- mysql: row 1| -- ref\nSELECT 1;\n",
	} {
		if _, err := ParseFile("x.sql", text); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestWrittenRoundTrip(t *testing.T) {
	a := &Answer{
		Columns: []Column{{Type: mysql.MYSQL_TYPE_LONGLONG, Unsigned: true, Binary: true},
			{Type: mysql.MYSQL_TYPE_VAR_STRING}, {Type: mysql.MYSQL_TYPE_NEWDECIMAL, Decimals: 2}},
		Rows: [][]Value{
			{Text("1"), Text("a b|c;d'e\\f\ng\x00\xff"), Text("1.50")},
			{Null, Text("NULL"), Text("")},
			{Text("--"), Text("日本"), Text("-1")},
		},
		Warnings: []uint16{1265, 1366},
	}
	text := a.String()
	w, err := ParseWritten(": " + text + " -- ref")
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	got, err := w.Apply(&Answer{Err: 1064})
	if err != nil {
		t.Fatal(err)
	}
	if d := Difference(a, got, compareAll); d != "" {
		t.Errorf("%s: round trip differs: %s\n%s", text, d, got)
	}
}

func TestWrittenApply(t *testing.T) {
	maria := &Answer{Columns: []Column{{Type: mysql.MYSQL_TYPE_LONG, Binary: true}, {Type: mysql.MYSQL_TYPE_VAR_STRING}},
		Rows: [][]Value{{Text("1"), Text("x")}}, Warnings: []uint16{4038}}
	w, err := ParseWritten(": column 1 LONGLONG+binary; warnings none -- ref")
	if err != nil {
		t.Fatal(err)
	}
	want, err := w.Apply(maria)
	if err != nil {
		t.Fatal(err)
	}
	if want.Columns[0].Type != mysql.MYSQL_TYPE_LONGLONG || want.Columns[1].Type != mysql.MYSQL_TYPE_VAR_STRING ||
		len(want.Rows) != 1 || len(want.Warnings) != 0 || maria.Columns[0].Type != mysql.MYSQL_TYPE_LONG {
		t.Errorf("applied: %s (MariaDB's now %s)", want, maria)
	}
	w, _ = ParseWritten(": row 1|2|3 -- ref")
	if _, err := w.Apply(maria); err == nil || !strings.Contains(err.Error(), "3 values for 2 columns") {
		t.Errorf("a row wider than the columns: %v", err)
	}
	w, _ = ParseWritten(": warnings 1287 -- ref")
	if _, err := w.Apply(&Answer{Err: 1064}); err == nil {
		t.Error("MariaDB's error overridden by warnings alone: no error")
	}
}

func TestClassify(t *testing.T) {
	st := &Statement{File: "x.sql", Line: 1, SQL: "SELECT 1", Compare: compareAll}
	ok := &Answer{Affected: 1}
	res := &Answer{Columns: []Column{{Type: mysql.MYSQL_TYPE_LONGLONG, Binary: true}}, Rows: [][]Value{{Text("1")}}}
	for _, c := range []struct {
		want, got *Answer
		class     string
		kind      int
	}{
		{ok, &Answer{Affected: 1}, Same, 0},
		{ok, &Answer{Affected: 2}, Wrong, wrongCounts},
		{ok, &Answer{Affected: 1, Warnings: []uint16{1265}}, Wrong, wrongWarnings},
		{&Answer{Err: 1062}, ok, Wrong, wrongAccepted},
		{&Answer{Err: 1062}, &Answer{Err: 1062}, Same, 0},
		{&Answer{Err: 1062}, &Answer{Err: 1235}, Unsupported, 0},
		{ok, &Answer{Err: 1105}, Error, 0},
		{ok, &Answer{Harness: "lost"}, Error, 0},
		{res, &Answer{Columns: []Column{{Type: mysql.MYSQL_TYPE_LONGLONG}}, Rows: [][]Value{{Text("1")}}}, Same, 0},
		{res, &Answer{Columns: []Column{{Type: mysql.MYSQL_TYPE_LONG}}, Rows: [][]Value{{Text("1")}}}, Wrong, wrongColumns},
		{res, &Answer{Columns: res.Columns, Rows: [][]Value{{Null}}}, Wrong, wrongRows},
		{res, &Answer{Columns: res.Columns, Rows: [][]Value{{Text("NULL")}}}, Wrong, wrongRows},
	} {
		o := Classify(st, c.want, c.got)
		if o.Class != c.class || (o.Class == Wrong && o.Kind != c.kind) {
			t.Errorf("want %s, got %s: %s (kind %d): %s", c.want, c.got, o.Class, o.Kind, o.Why)
		}
	}
	// Strings compare their BINARY flag, numbers their decimals.
	s1 := Column{Type: mysql.MYSQL_TYPE_BLOB, Decimals: 39}
	if !s1.same(Column{Type: mysql.MYSQL_TYPE_BLOB}) || s1.same(Column{Type: mysql.MYSQL_TYPE_BLOB, Binary: true}) {
		t.Error("string column comparison")
	}
	d1 := Column{Type: mysql.MYSQL_TYPE_NEWDECIMAL, Decimals: 2, Binary: true}
	if !d1.same(Column{Type: mysql.MYSQL_TYPE_NEWDECIMAL, Decimals: 2}) || d1.same(Column{Type: mysql.MYSQL_TYPE_NEWDECIMAL}) {
		t.Error("numeric column comparison")
	}
}

func TestBaselineRatchet(t *testing.T) {
	f, err := ParseFile("x.sql", "SELECT 1;\nSELECT 2;\nSELECT 1;\n")
	if err != nil {
		t.Fatal(err)
	}
	ok := &Answer{Affected: 0}
	r := &Result{File: f}
	for i, st := range f.Statements {
		got := ok
		if i == 2 {
			got = &Answer{Err: 1105}
		}
		r.Outcomes = append(r.Outcomes, Classify(st, ok, got))
	}
	h1, h2 := f.Statements[0].Hash(), f.Statements[1].Hash()
	base := []BaselineEntry{{ID: "x.sql:1", File: "x.sql", Hash: h1, Nth: 1}, {ID: "x.sql:7", File: "x.sql", Hash: h2, Nth: 1},
		{ID: "y.sql:1", File: "y.sql", Hash: h1, Nth: 2}}
	if msgs := CheckRatchet(base, r); len(msgs) != 0 {
		t.Errorf("unexpected ratchet failures: %v", msgs)
	}
	// The second "SELECT 1" (line 3) regressed; a statement no longer there fails too.
	base = append(base, BaselineEntry{ID: "x.sql:3", File: "x.sql", Hash: h1, Nth: 2}, BaselineEntry{ID: "x.sql:9", File: "x.sql", Hash: "00000000", Nth: 1})
	msgs := CheckRatchet(base, r)
	if len(msgs) != 2 || !strings.Contains(msgs[0], "x.sql:3") || !strings.Contains(msgs[1], "no longer in the corpus") {
		t.Errorf("ratchet: %q", msgs)
	}
	// The baseline file round-trips the occurrence numbers.
	path := t.TempDir() + "/baseline.txt"
	if err := WriteBaseline(path, []*Result{r}); err != nil {
		t.Fatal(err)
	}
	read, err := ReadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(read) != 2 || read[0].Nth != 1 || read[1].Hash != h2 || read[1].ID != "x.sql:2" {
		t.Errorf("read back %+v", read)
	}
}
