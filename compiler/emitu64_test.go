package compiler

import (
	"strings"
	"testing"
)

// TestEmitUint64 pins the SQLite text for BIGINT UNSIGNED values from 2^63 up,
// kept in the stored form of package u64 (an 8-byte big-endian BLOB): what reads
// the stored form as it is, what decodes it, and what refuses it (binlite_u64).
func TestEmitUint64(t *testing.T) {
	cat := testCatalog{
		"d.w": mustTable(t, "CREATE TABLE w (id INT PRIMARY KEY, u BIGINT UNSIGNED, b BIT(64), i INT, d DECIMAL(25,0), f DOUBLE, s VARCHAR(30))"),
	}
	cases := []struct{ mysql, sqlite string }{
		// literals are the stored form; the select list gives it to the client, who decodes it
		{"INSERT INTO w (id, u, b) VALUES (1, 18446744073709551615, b'1000000000000000000000000000000000000000000000000000000000000001')",
			"INSERT INTO `w` (`id`, `u`, `b`) VALUES (1, X'ffffffffffffffff', X'8000000000000001')"},
		{"SELECT u, 18446744073709551615 FROM w", "SELECT `u`, X'ffffffffffffffff' AS `18446744073709551615` FROM `w`"},
		// comparisons with integers, parameters and string literals on stored forms (an index serves them)
		{"SELECT id FROM w WHERE u = 9223372036854775808 OR u > ? OR u IN (1, '18446744073709551615') OR u BETWEEN i AND 5",
			"SELECT `id` FROM `w` WHERE ((((`u` = X'8000000000000000') OR (`u` > binlite_u64_key(?1))) OR (`u` IN (1, binlite_u64_key('18446744073709551615')))) OR (`u` BETWEEN `i` AND 5))"},
		// with a DECIMAL exactly, with a DOUBLE or a string as doubles
		{"SELECT id FROM w WHERE u > d AND u < f AND u <> s",
			"SELECT `id` FROM `w` WHERE (((binlite_dec_cmp(binlite_u64_dec(`u`), `d`) > 0) AND (binlite_u64_real(`u`) < `f`)) AND (binlite_u64_real(`u`) <> CAST(`s` AS REAL)))"},
		// ordering, grouping, MIN/MAX/COUNT on stored forms; SUM and AVG exact
		{"SELECT MIN(u), MAX(u), COUNT(u), SUM(u) FROM w GROUP BY u ORDER BY u",
			"SELECT min(`u`) AS `MIN(u)`, max(`u`) AS `MAX(u)`, count(`u`) AS `COUNT(u)`, binlite_dec_sum(binlite_u64_dec(`u`)) AS `SUM(u)` FROM `w` GROUP BY `u` ORDER BY `u`"},
		// arithmetic exact, 1690 outside the range; BIT(64) is the same number
		{"SELECT u + 1, u - i, b * 2, u DIV 3, u % 7 FROM w",
			"SELECT binlite_u64_add(`u`, 1, '(`d`.`w`.`u` + 1)') AS `u + 1`, binlite_u64_sub(`u`, `i`, '(`d`.`w`.`u` - `d`.`w`.`i`)') AS `u - i`, " +
				"binlite_u64_mul(`b`, 2, '(`d`.`w`.`b` * 2)') AS `b * 2`, binlite_u64_intdiv(`u`, 3, 1, '(`d`.`w`.`u` DIV 3)') AS `u DIV 3`, " +
				"binlite_u64_mod(`u`, 7, 1, '(`d`.`w`.`u` % 7)') AS `u % 7` FROM `w`"},
		// with a parameter the engine's (its type comes with each execution), stored as a number
		{"UPDATE w SET u = u + ?", "UPDATE `w` SET `u` = binlite_u64_store(binlite_u64_param_arith('+', `u`, ?1, '(`d`.`w`.`u` + ?)'), 'u')"},
		// decoded for decimals, doubles and text
		{"SELECT u / 2, u + 0.5, u * 1e0, CONCAT(u), CAST(u AS CHAR) FROM w",
			"SELECT binlite_dec_div(binlite_u64_dec(`u`), 2, 9) AS `u / 2`, binlite_dec_add(binlite_u64_dec(`u`), '0.5') AS `u + 0.5`, binlite_double((binlite_u64_real(`u`) * 1.0), '(`d`.`w`.`u` * 1e0)') AS `u * 1e0`, " +
				"concat(binlite_u64_dec(`u`)) AS `CONCAT(u)`, CAST(binlite_u64_dec(`u`) AS TEXT) AS `CAST(u AS CHAR)` FROM `w`"},
		// bit operators over 64 unsigned bits
		{"SELECT u & i, u >> 1, ~0 FROM w",
			"SELECT binlite_u64_bits((binlite_u64_signed(`u`) & `i`)) AS `u & i`, binlite_u64_shr(`u`, 1) AS `u >> 1`, binlite_u64_bits((~ 0)) AS `~0` FROM `w`"},
		// where there is no rule for it, a value from 2^63 is refused (1235)
		{"SELECT JSON_ARRAY(u) FROM w", "SELECT binlite_json_array('s', binlite_u64(`u`, '`d`.`w`.`u`')) AS `JSON_ARRAY(u)` FROM `w`"},
		// a CTE's readers do not type its columns
		{"WITH c AS (SELECT u FROM w) SELECT u FROM c", "WITH `c` AS (SELECT binlite_u64(`u`, '`d`.`w`.`u`') AS `u` FROM `w`) SELECT `u` FROM `c`"},
		// writes: computed values in the stored form, text gets the digits
		{"UPDATE w SET u = f", "UPDATE `w` SET `u` = binlite_u64_store(`f`, 'u')"},
		{"UPDATE w SET s = u", "UPDATE `w` SET `s` = binlite_u64_dec(`u`)"},
		{"INSERT IGNORE INTO w (id, u) VALUES (1, ?)", "INSERT OR IGNORE INTO `w` (`id`, `u`) VALUES (1, binlite_adjust_u64(?1, NULL, 'u', 1))"},
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
	}
	// the compiler's types: what the client is told and what reads the stored form
	for q, want := range map[string]string{
		"SELECT 18446744073709551615": "LONGLONG+unsigned",
		"SELECT 9223372036854775807":  "LONGLONG",
		"SELECT u % i, i % u FROM w":  "LONGLONG+unsigned LONGLONG",
	} {
		plan := NewCache(8).Query(q, "d", cat)
		var got []string
		for _, c := range plan.Columns {
			s := "LONGLONG"
			if c.Flags&0x20 != 0 {
				s += "+unsigned"
			}
			got = append(got, s)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: %v, want %s", q, got, want)
		}
	}
}
