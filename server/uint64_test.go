package server_test

// BIGINT UNSIGNED over its whole range (0 .. 18446744073709551615) through
// go-sql-driver/mysql, in the text and the binary protocol: values from 2^63 up
// (kept as BLOBs, package u64) go in and come back exact as literals and as
// parameters, order, compare and are unique as numbers across 2^63, and compute
// as MySQL computes them.

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	tn "github.com/binlite/binlite/internal/testnode"
)

const (
	maxU64  = uint64(18446744073709551615)
	twoTo63 = uint64(9223372036854775808)
)

func TestBigintUnsignedFullRange(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, n *tn.Node, p protocol) {
		tn.Exec(t, n.DB(""), "CREATE DATABASE u")
		s := p.session(t, n, "u")
		tn.Exec(t, s, "CREATE TABLE big (id INT PRIMARY KEY, u BIGINT UNSIGNED, UNIQUE KEY (u))")
		// literals and parameters, on both sides of 2^63
		tn.Exec(t, s, "INSERT INTO big VALUES (1, 18446744073709551615), (2, 9223372036854775807)")
		tn.Exec(t, s, "INSERT INTO big VALUES (?, ?), (?, ?)", 3, twoTo63, 4, uint64(0))
		tn.Exec(t, s, "INSERT INTO big VALUES (?, ?)", 5, "18446744073709551614")

		var u uint64
		var text string
		scanRow(t, s, "SELECT u, u FROM big WHERE id = 1", nil, &u, &text)
		if u != maxU64 || text != "18446744073709551615" {
			t.Errorf("2^64-1 read back as %d and %q", u, text)
		}
		scanRow(t, s, "SELECT u FROM big WHERE u = ?", []any{twoTo63}, &u)
		if u != twoTo63 {
			t.Errorf("2^63 read back as %d", u)
		}
		for _, c := range []struct {
			q    string
			args []any
			want string
		}{
			{"SELECT u FROM big ORDER BY u", nil, "0,9223372036854775807,9223372036854775808,18446744073709551614,18446744073709551615"},
			{"SELECT id FROM big ORDER BY u DESC", nil, "1,5,3,2,4"},
			{"SELECT id FROM big WHERE u > 9223372036854775807 ORDER BY id", nil, "1,3,5"},
			{"SELECT id FROM big WHERE u >= ? ORDER BY id", []any{twoTo63}, "1,3,5"},
			{"SELECT id FROM big WHERE u < ? ORDER BY id", []any{"18446744073709551614"}, "2,3,4"},
			{"SELECT id FROM big WHERE u BETWEEN 9223372036854775807 AND ? ORDER BY id", []any{twoTo63}, "2,3"},
			{"SELECT id FROM big WHERE u < 18446744073709551615 AND u > 0 ORDER BY id", nil, "2,3,5"},
			{"SELECT id FROM big WHERE u IN (0, 18446744073709551615, ?) ORDER BY id", []any{maxU64 - 1}, "1,4,5"},
			{"SELECT id FROM big WHERE u = '18446744073709551615'", nil, "1"},
			{"SELECT id FROM big WHERE u > 1e19 ORDER BY id", nil, "1,5"},
			{"SELECT id FROM big WHERE u > 18446744073709551614.5", nil, "1"},
			{"SELECT CONCAT(MIN(u), ' ', MAX(u)) FROM big", nil, "0 18446744073709551615"},
			{"SELECT SUM(u) FROM big", nil, "55340232221128654844"},
			{"SELECT u - 1 FROM big WHERE id = 3", nil, "9223372036854775807"},
			{"SELECT u + 1 FROM big WHERE id = 2", nil, "9223372036854775808"},
			{"SELECT u DIV 2 FROM big WHERE id = 1", nil, "9223372036854775807"},
			{"SELECT u / 5 FROM big WHERE id = 1", nil, "3689348814741910323.0000"},
			{"SELECT CONCAT(u, '') FROM big WHERE id = 1", nil, "18446744073709551615"},
			{"SELECT HEX(u) FROM big WHERE id = 3", nil, "8000000000000000"},
			{"SELECT 18446744073709551615", nil, "18446744073709551615"},
			{"SELECT CAST(-1 AS UNSIGNED)", nil, "18446744073709551615"},
			{"SELECT ~0 >> 1", nil, "9223372036854775807"},
			{"SELECT x FROM (SELECT u + 0 AS x FROM big WHERE id = 5) d", nil, "18446744073709551614"},
			{"SELECT (SELECT MAX(u) FROM big) - 1", nil, "18446744073709551614"},
		} {
			if got := firstColumn(t, s, c.q, c.args...); got != c.want {
				t.Errorf("%s: %s, want %s", c.q, got, c.want)
			}
		}
		// unique as numbers
		for _, args := range [][]any{{6, maxU64}, {6, twoTo63}, {6, "9223372036854775808"}} {
			if err := tryExec(s, "INSERT INTO big VALUES (?, ?)", args...); mysqlCode(err) != 1062 {
				t.Errorf("duplicate %v: %v, want 1062", args[1], err)
			}
		}
		// beyond the range is MySQL's 1690 (1264 into a column); what binlite has
		// no rule for yet is 1235, never a value computed from the BLOB
		for q, code := range map[string]uint16{
			"SELECT u + 1 FROM big WHERE id = 1":               1690,
			"SELECT u - 1 FROM big WHERE id = 4":               1690,
			"SELECT u * 2 FROM big WHERE id = 3":               1690,
			"SELECT 18446744073709551615 + 1":                  1690,
			"SELECT JSON_ARRAY(u) FROM big WHERE id = 1":       1235,
			"INSERT INTO big VALUES (7, 18446744073709551616)": 1264,
			"INSERT INTO big VALUES (7, -1)":                   1264,
		} {
			if err := tryExec(s, q); mysqlCode(err) != code {
				t.Errorf("%s: %v, want %d", q, err, code)
			}
		}
		// UPDATEs crossing 2^63 both ways
		tn.Exec(t, s, "UPDATE big SET u = u - 2 WHERE id = 5")
		tn.Exec(t, s, "UPDATE big SET u = u + 3 WHERE id = 2")
		tn.Exec(t, s, "UPDATE big SET u = u - ? WHERE id = 3", 2)
		if err := tryExec(s, "UPDATE big SET u = u + 1 WHERE id = 1"); mysqlCode(err) != 1690 {
			t.Errorf("UPDATE beyond 2^64-1: %v, want 1690", err)
		}
		if got := firstColumn(t, s, "SELECT CONCAT(id, ':', u) FROM big ORDER BY id"); got != "1:18446744073709551615,2:9223372036854775810,3:9223372036854775806,4:0,5:18446744073709551612" {
			t.Errorf("after the UPDATEs: %s", got)
		}
	})
}

// firstColumn runs q and joins its first column's values with commas.
func firstColumn(t *testing.T, q tn.Querier, query string, args ...any) string {
	t.Helper()
	rows, err := tn.TryRows(q, query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	var out []string
	for _, r := range rows {
		out = append(out, r[0])
	}
	return strings.Join(out, ",")
}

// scanRow scans q's one row into dest.
func scanRow(t *testing.T, q tn.Querier, query string, args []any, dest ...any) {
	t.Helper()
	rows, err := q.QueryContext(context.Background(), query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	if !rows.Next() {
		t.Fatalf("%s: no row (%v)", query, rows.Err())
	}
	if err := rows.Scan(dest...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

func tryExec(q tn.Querier, query string, args ...any) error {
	_, err := tn.TryExec(q, query, args...)
	return err
}

func mysqlCode(err error) uint16 {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}

// A parameter in arithmetic with a BIGINT UNSIGNED, whose type comes with each
// execution: exact for integers (1690 beyond the range), decimal for a fraction,
// and what an UPDATE stores is rounded as MySQL rounds it.
func TestBigintUnsignedParameterArithmetic(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, n *tn.Node, p protocol) {
		tn.Exec(t, n.DB(""), "CREATE DATABASE u")
		s := p.session(t, n, "u")
		tn.Exec(t, s, "CREATE TABLE c (id INT PRIMARY KEY, u BIGINT UNSIGNED NOT NULL)")
		tn.Exec(t, s, "INSERT INTO c VALUES (1, 9223372036854775806), (2, 18446744073709551615)")
		tn.Exec(t, s, "UPDATE c SET u = u + ? WHERE id = 1", 3)
		tn.Exec(t, s, "UPDATE c SET u = u - ? WHERE id = 2", 10)
		if got := firstColumn(t, s, "SELECT u FROM c ORDER BY id"); got != "9223372036854775809,18446744073709551605" {
			t.Errorf("after u + ? and u - ?: %s", got)
		}
		tn.Exec(t, s, "UPDATE c SET u = u - ? WHERE id = 1", "1.5")
		if got := firstColumn(t, s, "SELECT u FROM c WHERE id = 1"); got != "9223372036854775808" { // 9223372036854775807.5 rounded
			t.Errorf("after u - 1.5: %s", got)
		}
		if got := firstColumn(t, s, "SELECT u + ? FROM c WHERE id = 2", 10); got != "18446744073709551615" {
			t.Errorf("u + ?: %s", got)
		}
		if err := tryExec(s, "UPDATE c SET u = u + ? WHERE id = 2", 11); mysqlCode(err) != 1690 {
			t.Errorf("u + ? beyond 2^64-1: %v, want 1690", err)
		}
	})
}

// What the compiler's rules do not cover never computes with a value from 2^63:
// a statement sqlcompat translates (here for FOUND_ROWS(), whose value the compiler is not given) runs
// as it did while no such value is in the columns it computes with, and is
// refused (1235) once one is; the columns it returns as they are come back
// exact. Expressions SQLite evaluates itself (a generated column) refuse such
// values, and so does AUTO_INCREMENT (a rowid). BIT(64) holds all 64 bits.
func TestBigintUnsignedOutsideTheCompiler(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, n *tn.Node, p protocol) {
		tn.Exec(t, n.DB(""), "CREATE DATABASE u")
		s := p.session(t, n, "u")
		tn.Exec(t, s, "CREATE TABLE f (id INT PRIMARY KEY, u BIGINT UNSIGNED)")
		tn.Exec(t, s, "INSERT INTO f VALUES (1, 9223372036854775806)")
		computed := "SELECT u + 1 FROM f WHERE FOUND_ROWS() = 0 AND id = 1"
		if got := firstColumn(t, s, computed); got != "9223372036854775807" {
			t.Errorf("%s: %s", computed, got)
		}
		tn.Exec(t, s, "INSERT INTO f VALUES (2, 18446744073709551615)")
		if err := tryExec(s, computed); mysqlCode(err) != 1235 {
			t.Errorf("%s with 2^64-1 in the table: %v, want 1235", computed, err)
		}
		if err := tryExec(s, "UPDATE f SET u = u + @none WHERE FOUND_ROWS() = 0"); mysqlCode(err) != 1235 {
			t.Errorf("UPDATE through sqlcompat with 2^64-1 in the table: %v, want 1235", err)
		}
		if got := firstColumn(t, s, "SELECT u FROM f WHERE FOUND_ROWS() = 0 ORDER BY u"); got != "9223372036854775806,18446744073709551615" {
			t.Errorf("returned as they are through sqlcompat: %s", got)
		}

		tn.Exec(t, s, "CREATE TABLE g (id INT PRIMARY KEY, u BIGINT UNSIGNED, v BIGINT UNSIGNED AS (u + 1))")
		tn.Exec(t, s, "INSERT INTO g (id, u) VALUES (1, 9223372036854775806)")
		if err := tryExec(s, "INSERT INTO g (id, u) VALUES (2, 9223372036854775808)"); mysqlCode(err) != 1235 {
			t.Errorf("a value from 2^63 a generated column reads: %v, want 1235", err)
		}

		tn.Exec(t, s, "CREATE TABLE a (id BIGINT UNSIGNED AUTO_INCREMENT PRIMARY KEY, v INT)")
		if err := tryExec(s, "INSERT INTO a VALUES (18446744073709551610, 1)"); mysqlCode(err) != 1235 {
			t.Errorf("AUTO_INCREMENT value from 2^63: %v, want 1235", err)
		}

		tn.Exec(t, s, "CREATE TABLE b (id INT PRIMARY KEY, b BIT(64))")
		tn.Exec(t, s, "INSERT INTO b VALUES (1, b'1111111111111111111111111111111111111111111111111111111111111111'), (2, 0x8000000000000001), (3, ?)", twoTo63)
		if got := firstColumn(t, s, "SELECT CONCAT(id, ':', b + 0, ':', HEX(b)) FROM b ORDER BY b"); got != "3:9223372036854775808:8000000000000000,2:9223372036854775809:8000000000000001,1:18446744073709551615:FFFFFFFFFFFFFFFF" {
			t.Errorf("BIT(64): %s", got)
		}
		var bits []byte
		scanRow(t, s, "SELECT b FROM b WHERE id = 2", nil, &bits)
		if string(bits) != "\x80\x00\x00\x00\x00\x00\x00\x01" {
			t.Errorf("BIT(64) as bytes: %x", bits)
		}

		// where values are adjusted, the nearest end with MySQL's warning
		tn.Exec(t, s, "INSERT IGNORE INTO f VALUES (3, 18446744073709551616), (4, -1)")
		if got := firstColumn(t, s, "SELECT u FROM f WHERE id > 2 ORDER BY id"); got != "18446744073709551615,0" {
			t.Errorf("INSERT IGNORE: %s", got)
		}
	})
}
