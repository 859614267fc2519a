package collation_test

import (
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"testing"

	_ "github.com/go-sql-driver/mysql"

	"github.com/binlite/binlite/collation"
	"github.com/binlite/binlite/difftest"
)

// TestMeasuredWeights measures MySQL's weight tables again, on MariaDB 10.11
// (WEIGHT_STRING of every character), and compares them with the tables compiled
// in: general_table.go, latin1_table.go and unicode400.txt were made this way.
func TestMeasuredWeights(t *testing.T) {
	if testing.Short() {
		t.Skip("starts mariadbd")
	}
	m, err := difftest.StartMariaDB(t.TempDir()) // .ci/run installs mariadb-server
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop()
	db, err := sql.Open("mysql", "root@unix("+m.Addr()+")/mysql?charset=utf8mb4")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	measure := func(coll, charset string, from, to int, char string) {
		t.Helper()
		q := fmt.Sprintf("SELECT seq, HEX(WEIGHT_STRING(CONVERT(%s USING %s) COLLATE %s)) FROM seq_%d_to_%d WHERE seq NOT BETWEEN 55296 AND 57343",
			char, charset, coll, from, to)
		rows, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		bad := 0
		for rows.Next() {
			var cp int
			var hex string
			if err := rows.Scan(&cp, &hex); err != nil {
				t.Fatal(err)
			}
			r := rune(cp)
			if charset == "latin1" || charset == "ascii" {
				r = latin1Rune(byte(cp))
			}
			width := 4
			if charset == "latin1" || charset == "ascii" {
				width = 2
			}
			var want []string
			for i := 0; i+width <= len(hex); i += width {
				want = append(want, hex[i:i+width])
			}
			var got []string
			for _, w := range collation.Weights(coll, r) {
				got = append(got, fmt.Sprintf("%0*X", width, w))
			}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				if bad++; bad <= 10 {
					t.Errorf("%s: U+%04X weighs %v, MySQL %v", coll, r, got, want)
				}
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if bad > 10 {
			t.Errorf("%s: %d characters weigh differently", coll, bad)
		}
	}
	measure("utf8mb4_general_ci", "utf8mb4", 0, 0xFFFF, "CHAR(seq USING utf32)")
	measure("utf8mb4_unicode_ci", "utf8mb4", 0, 0xFFFF, "CHAR(seq USING utf32)")
	measure("utf8mb4_general_ci", "utf8mb4", 0x10000, 0x10100, "CHAR(seq USING utf32)")
	measure("utf8mb4_unicode_ci", "utf8mb4", 0x1F600, 0x1F700, "CHAR(seq USING utf32)")
	for _, c := range []string{"latin1_swedish_ci", "latin1_general_ci", "latin1_general_cs", "latin1_bin"} {
		measure(c, "latin1", 0, 255, "CHAR(seq)")
	}
	measure("ascii_general_ci", "ascii", 0, 127, "CHAR(seq)")
}

// latin1Rune is the character MySQL's latin1 (Windows-1252) byte b stands for.
func latin1Rune(b byte) rune {
	if b < 0x80 || b >= 0xA0 {
		return rune(b)
	}
	const cp1252 = "20AC 0081 201A 0192 201E 2026 2020 2021 02C6 2030 0160 2039 0152 008D 017D 008F " +
		"0090 2018 2019 201C 201D 2022 2013 2014 02DC 2122 0161 203A 0153 009D 017E 0178"
	v, _ := strconv.ParseUint(strings.Fields(cp1252)[b-0x80], 16, 32)
	return rune(v)
}
