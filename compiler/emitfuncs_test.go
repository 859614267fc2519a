package compiler

import (
	"errors"
	"fmt"
	"testing"

	"github.com/binlite/binlite/mysqlerr"
)

// TestEmitFunctions pins the SQLite text of MySQL's built-in functions: each
// is the engine's function of MySQL's rules, with the collation it compares by
// and the kind of value it reads (see funcs.go); literal conversions warn.
func TestEmitFunctions(t *testing.T) {
	cat := testCatalog{"d.t": mustTable(t, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10) COLLATE utf8mb4_general_ci, b VARCHAR(10) COLLATE utf8mb4_bin, d DECIMAL(5,2), x DOUBLE, dt DATE)")}
	cases := []struct {
		mysql, sqlite string
		warnings      string
	}{
		// a column's collation decides case sensitivity; _bin wins over another column's
		{"SELECT LOCATE('a', b), INSTR(v, 'x'), STRCMP(v, b), FIELD(v, 'a', 'b') FROM t",
			"SELECT binlite_locate('a', `b`, 'utf8mb4_bin') AS `LOCATE('a', b)`, binlite_locate('x', `v`, 'utf8mb4_general_ci') AS `INSTR(v, 'x')`, binlite_strcmp(`v`, `b`, 'utf8mb4_bin') AS `STRCMP(v, b)`, binlite_field('s', 'utf8mb4_general_ci', `v`, 'a', 'b') AS `FIELD(v, 'a', 'b')` FROM `t`", "[]"},
		{"SELECT TRIM(LEADING 'x' FROM v), v REGEXP '^a', b NOT RLIKE 'z', REGEXP_REPLACE(v, 'a', 'b', 2) FROM t",
			"SELECT binlite_trim(`v`, 'x', 1) AS `TRIM(LEADING 'x' FROM v)`, (binlite_regexp_like(`v`, '^a', 'i', '')) AS `v REGEXP '^a'`, (NOT binlite_regexp_like(`b`, 'z', 'c', '')) AS `b NOT RLIKE 'z'`, binlite_regexp_replace(`v`, 'a', 'b', 2, 0, 'i', '') AS `REGEXP_REPLACE(v, 'a', 'b', 2)` FROM `t`", "[]"},
		// GREATEST compares as its result type; IF and NULLIF are CASE, comparing as MySQL does
		{"SELECT GREATEST(d, 1), LEAST(v, b), GREATEST(x, 2), IF(v, 1, 2), NULLIF(v, 'A') FROM t",
			"SELECT max((CAST(`d` AS TEXT) COLLATE binlite_decimal), (CAST(1 AS TEXT) COLLATE binlite_decimal)) AS `GREATEST(d, 1)`, min(`v` COLLATE utf8mb4_bin, `b` COLLATE utf8mb4_bin) AS `LEAST(v, b)`, max(CAST(`x` AS REAL), CAST(2 AS REAL)) AS `GREATEST(x, 2)`, CASE WHEN `v` THEN 1 ELSE 2 END AS `IF(v, 1, 2)`, CASE WHEN (`v` = 'A') THEN NULL ELSE `v` END AS `NULLIF(v, 'A')` FROM `t`", "[]"},
		// exact values format and divide exactly; BINARY x is deprecated
		{"SELECT FORMAT(d, 1), FORMAT(x, 2, 'de_DE'), CAST(v AS CHAR(3)), BINARY v, CAST(x AS UNSIGNED), MOD(d, 2), x % 2 FROM t",
			"SELECT binlite_format(`d`, 1, 'en_US', 'd') AS `FORMAT(d, 1)`, binlite_format(`x`, 2, 'de_DE', 'r') AS `FORMAT(x, 2, 'de_DE')`, binlite_cast_char(`v`, 3) AS `CAST(v AS CHAR(3))`, CAST(`v` AS BLOB) AS `BINARY v`, binlite_cast_unsigned(`x`, 'r') AS `CAST(x AS UNSIGNED)`, binlite_dec_mod(`d`, 2, 1) AS `MOD(d, 2)`, binlite_fmod(`x`, 2, 1) AS `x % 2` FROM `t`",
			"[{Warning 1287 'BINARY expr' is deprecated and will be removed in a future release. Please use CAST instead}]"},
		{"SELECT GROUP_CONCAT(DISTINCT v ORDER BY v SEPARATOR ';'), BIT_OR(id), VAR_SAMP(d) FROM t",
			"SELECT binlite_group_concat(1, ';', `v` ORDER BY `v`) AS `GROUP_CONCAT(DISTINCT v ORDER BY v SEPARATOR ';')`, binlite_bit_or(`id`) AS `BIT_OR(id)`, binlite_var_samp(`d`) AS `VAR_SAMP(d)` FROM `t`", "[]"},
		// a string literal read as a number says what it lost
		{"SELECT 'x1' + 1, CAST('1e2' AS SIGNED)",
			"SELECT binlite_double((CAST('x1' AS REAL) + 1), '(_utf8mb4''x1'' + 1)') AS `'x1' + 1`, 1 AS `CAST('1e2' AS SIGNED)`",
			"[{Warning 1292 Truncated incorrect DOUBLE value: 'x1'} {Warning 1292 Truncated incorrect INTEGER value: '1e2'}]"},
		// CEILING of a DECIMAL that fits is a BIGINT; ROUND of an integer stays one; the C library's math
		{"SELECT CEIL(d), FLOOR(x), ROUND(id, -1), ABS(d), SIGN(x), LN(x), POW(x, 2), PI(), CONV(v, 16, 10) FROM t",
			"SELECT CAST(binlite_dec_ceil(`d`) AS INTEGER) AS `CEIL(d)`, binlite_floor(`x`) AS `FLOOR(x)`, CAST(binlite_dec_round(`id`, (- 1)) AS INTEGER) AS `ROUND(id, -1)`, binlite_dec_abs(`d`) AS `ABS(d)`, binlite_sign(`x`) AS `SIGN(x)`, binlite_ln(`x`) AS `LN(x)`, binlite_double(binlite_pow(`x`, 2), 'pow(`x`, 2)') AS `POW(x, 2)`, 3.141592653589793 AS `PI()`, binlite_conv(`v`, 16, 10) AS `CONV(v, 16, 10)` FROM `t`", "[]"},
		// answered from the text: GET_FORMAT, CHARSET, COLLATION
		{"SELECT CONVERT_TZ(dt, 'UTC', 'Europe/Oslo'), TIMESTAMPADD(DAY, 1, dt), GET_FORMAT(DATE, 'ISO'), CHARSET(b), COLLATION(v) FROM t",
			"SELECT binlite_convert_tz(`dt`, 'date', 'UTC', 'Europe/Oslo', 0) AS `CONVERT_TZ(dt, 'UTC', 'Europe/Oslo')`, binlite_date_add(`dt`, 'date', 'date', 0, 1, 'DAY', 0) AS `TIMESTAMPADD(DAY, 1, dt)`, '%Y-%m-%d' AS `GET_FORMAT(DATE, 'ISO')`, 'utf8mb4' AS `CHARSET(b)`, 'utf8mb4_general_ci' AS `COLLATION(v)` FROM `t`", "[]"},
		// WITH ROLLUP: one grouping per level, rolled-up items NULL, super-aggregates after their groups
		{"SELECT v, COUNT(*), GROUPING(v) FROM t GROUP BY v WITH ROLLUP",
			"SELECT `v`, `COUNT(*)`, `GROUPING(v)` FROM (SELECT `v` AS `v`, count(*) AS `COUNT(*)`, 0 AS `GROUPING(v)`, `v` AS binlite_g0, 0 AS binlite_level FROM `t` GROUP BY `v` UNION ALL SELECT NULL AS `v`, count(*) AS `COUNT(*)`, 1 AS `GROUPING(v)`, NULL AS binlite_g0, 1 AS binlite_level FROM `t`) ORDER BY binlite_level >= 1, binlite_g0 COLLATE utf8mb4_general_ci", "[]"},
	}
	for _, c := range cases {
		em, err := NewCache(8).Emit(c.mysql, "d", "utf8mb4_general_ci", cat)
		if err != nil || em == nil {
			t.Errorf("%s: not compiled (%v)", c.mysql, err)
			continue
		}
		if em.SQL != c.sqlite {
			t.Errorf("%s\n got: %s\nwant: %s", c.mysql, em.SQL, c.sqlite)
		}
		if got := fmt.Sprint(em.Warnings); got != c.warnings {
			t.Errorf("%s: warnings %s, want %s", c.mysql, got, c.warnings)
		}
	}
	// A name that is no built-in is a missing stored function; a built-in
	// binlite lacks is refused by name; a wrong argument count is MySQL's.
	errs := map[string]uint16{
		"SELECT NOSUCH(1)":               mysqlerr.ErSPDoesNotExist,
		"SELECT LOAD_FILE('x')":          mysqlerr.ErNotSupportedYet,
		"SELECT WEIGHT_STRING(v) FROM t": mysqlerr.ErNotSupportedYet,
		"SELECT LOCATE('a')":             mysqlerr.ErWrongParamcountToNative,
		"SELECT GREATEST(1)":             mysqlerr.ErWrongParamcountToNative,
	}
	for sql, code := range errs {
		_, err := NewCache(8).Emit(sql, "d", "utf8mb4_general_ci", cat)
		var me *mysqlerr.Error
		if !errors.As(err, &me) || me.Code != code {
			t.Errorf("%s: %v, want error %d", sql, err, code)
		}
	}
}

// TestFunctionTypes pins MySQL's result types of functions: integers are
// BIGINT, FLOOR of a DECIMAL that fits a BIGINT, strings in their arguments'
// collation (BINARY for a _bin one).
func TestFunctionTypes(t *testing.T) {
	cat := testCatalog{"d.t": mustTable(t, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10), b VARCHAR(10) COLLATE utf8mb4_bin, d DECIMAL(30,2), n INT, x DOUBLE)")}
	cases := map[string]string{
		"SELECT LENGTH(v), LOCATE('a', v), SIGN(x), ABS(n), CRC32(v) FROM t":         "8 8 8 8 8+unsigned",
		"SELECT FLOOR(d), FLOOR(x), CEIL(n), ROUND(n, -1), ABS(NULL) FROM t":         "246/0 5/31 8 8 5/0",
		"SELECT UPPER(b), CONCAT(v, b), LOWER(v), QUOTE(NULL), REPEAT(v, n) FROM t":  "253+binary 253+binary 253 253+binary 251",
		"SELECT PI(), VARIANCE(n), STD(x), GREATEST(n, 1), GREATEST(n, 1.5) FROM t":  "5/6 5/4 5/31 8 246/1",
		"SELECT REGEXP_LIKE(v, 'a'), REGEXP_REPLACE(v, 'a', 'b'), SHA2(v, 7) FROM t": "8 251 253+binary",
	}
	for sql, want := range cases {
		p := NewCache(8).Query(sql, "d", cat)
		got := ""
		for i, c := range p.Columns {
			if i > 0 {
				got += " "
			}
			got += fmt.Sprint(c.Type)
			if c.Flags&0x20 != 0 {
				got += "+unsigned"
			}
			if c.isString() && c.Flags&0x80 != 0 {
				got += "+binary"
			}
			if numeric(c) && c.Type != 8 {
				got += "/" + fmt.Sprint(c.Decimals)
			}
		}
		if got != want {
			t.Errorf("%s: %s, want %s", sql, got, want)
		}
	}
}
