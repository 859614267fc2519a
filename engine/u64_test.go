package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/u64"
)

// binlite_adjust_u64 keeps what a BIGINT UNSIGNED column holds of a value, in
// the stored form of package u64, with MySQL's warnings.
func TestAdjustUint64(t *testing.T) {
	st := &stmtState{}
	for _, c := range []struct {
		in   any
		want any
		code uint16
	}{
		{int64(5), int64(5), 0},
		{u64.Blob(18446744073709551615), u64.Blob(18446744073709551615), 0},
		{"18446744073709551615", u64.Blob(18446744073709551615), 0},
		{"18446744073709551616", u64.Blob(18446744073709551615), 1264},
		{int64(-3), int64(0), 1264},
		{1.5e19, u64.Blob(15000000000000000000), 0},
		{1e30, u64.Blob(18446744073709551615), 1264},
		{"9223372036854775808x", u64.Blob(9223372036854775808), 1265},
		{"abc", int64(0), 1366},
		{nil, int64(0), 1048},
	} {
		st.takeWarnings()
		got := st.adjustUint64(c.in, int64(0), "u", 1)
		w, _ := st.takeWarnings()
		var code uint16
		if len(w) > 0 {
			code = w[0].Code
		}
		if !sameValue(got, c.want) || code != c.code {
			t.Errorf("adjust %#v: %#v (warning %d), want %#v (%d)", c.in, got, code, c.want, c.code)
		}
	}
}

// binlite_u64_param_arith: BIGINT UNSIGNED arithmetic with a parameter of any
// type, whose result the compiler cannot type: from 2^63 it is the digits.
func TestUint64ParamArith(t *testing.T) {
	max := u64.Blob(18446744073709551615)
	for _, c := range []struct {
		op   string
		a, b any
		want any
	}{
		{"+", int64(9223372036854775807), int64(1), "9223372036854775808"},
		{"-", max, "5", "18446744073709551610"},
		{"-", max, u64.Blob(18446744073709551615), int64(0)},
		{"*", int64(3), int64(4), int64(12)},
		{"-", int64(10), "1.5", "8.5"},
		{"+", max, 0.5, "18446744073709551615.5"},
		{"+", nil, int64(1), nil},
	} {
		got, err := u64ParamArith(c.op, c.a, c.b, "e")
		if err != nil || !sameValue(got, c.want) {
			t.Errorf("%v %s %v: %#v, %v; want %#v", c.a, c.op, c.b, got, err, c.want)
		}
	}
	for _, c := range [][3]any{{"+", max, int64(1)}, {"-", int64(0), int64(1)}, {"*", max, int64(2)}} {
		_, err := u64ParamArith(c[0].(string), c[1], c[2], "(u + ?)")
		if err == nil || !strings.Contains(err.Error(), "binlite-error:1690:BIGINT UNSIGNED value is out of range in '(u + ?)'") {
			t.Errorf("%v %s %v: %v, want 1690", c[1], c[0], c[2], err)
		}
	}
}

func sameValue(a, b any) bool {
	ab, aok := a.([]byte)
	bb, bok := b.([]byte)
	if aok || bok {
		return aok && bok && string(ab) == string(bb)
	}
	return a == b
}

// A Guard runs in its statement's SQLite transaction: a write fails with its
// error, and changes nothing, when the guard finds the stored form of 2^63 or
// more in a column the statement computes with; a read sees the same data as its
// guard. A table found to hold none is not scanned again until a write puts one
// there (wideState).
func TestGuard(t *testing.T) {
	te := openTest(t, t.TempDir())
	defer te.close(t)
	setup(t, te.Engine, "g")
	ddl := "CREATE TABLE w (id INTEGER PRIMARY KEY, u BIGINT, v BIGINT)"
	if _, err := te.Exec("g", Stmt{SQL: ddl, DDL: []string{ddl}}, testWait); err != nil {
		t.Fatal(err)
	}
	mustExec(t, te.Engine, "g", "INSERT INTO w VALUES (1, 5, 0)")
	refused := mysqlerr.New(mysqlerr.ErNotSupportedYet, "refused")
	g := &Guard{Tables: []GuardTable{{Table: "w", Wide: []string{"u", "v"}, Read: []string{"u"}}}, Err: refused}
	if _, err := te.Exec("g", Stmt{SQL: "UPDATE w SET u = u + 1", Guard: g}, testWait); err != nil {
		t.Fatalf("guard with nothing to find: %v", err)
	}
	sc, err := te.Schema("g")
	if err != nil {
		t.Fatal(err)
	}
	tb := sc.Table("w")
	if !tb.wide.none() {
		t.Errorf("a scan that found nothing is not remembered")
	}
	if rows, err := te.QueryGuarded("g", nil, "SELECT u FROM w", nil, g); err != nil || len(rows.Values) != 1 || rows.Values[0][0] != int64(6) {
		t.Fatalf("guarded read: %v, %v", rows, err)
	}
	// a value in a column the statement does not compute with
	mustExec(t, te.Engine, "g", "INSERT INTO w VALUES (2, 1, X'FFFFFFFFFFFFFFFF')")
	if tb.wide.none() {
		t.Errorf("the write of the stored form is not known")
	}
	if _, err := te.QueryGuarded("g", nil, "SELECT u FROM w", nil, g); err != nil {
		t.Errorf("guarded read with the value in another column: %v", err)
	}
	mustExec(t, te.Engine, "g", "UPDATE w SET u = X'8000000000000000' WHERE id = 2")
	if _, err := te.Exec("g", Stmt{SQL: "UPDATE w SET u = 0", Guard: g}, testWait); !errors.Is(err, refused) {
		t.Errorf("guarded write: %v, want the guard's error", err)
	}
	if v := scalar(t, te.Engine, "g", "SELECT u FROM w WHERE id = 1"); v != int64(6) {
		t.Errorf("the refused write changed the row: %v", v)
	}
	if _, err := te.QueryGuarded("g", nil, "SELECT u FROM w", nil, g); !errors.Is(err, refused) {
		t.Errorf("guarded read: %v, want the guard's error", err)
	}
	// the reader is left outside a transaction: it sees later writes
	mustExec(t, te.Engine, "g", "DELETE FROM w WHERE id = 2")
	for range 4 {
		if rows, err := te.QueryGuarded("g", nil, "SELECT count(*) FROM w", nil, g); err != nil || rows.Values[0][0] != int64(1) {
			t.Fatalf("after the delete: %v, %v", rows, err)
		}
	}
}
