package compiler

import (
	"errors"
	"testing"

	"github.com/binlite/binlite/mysqlerr"
)

// TestEmitChecks pins the checks wrapped around arithmetic, and where they are
// left out (operands whose ranges cannot overflow: no function call per row).
func TestEmitChecks(t *testing.T) {
	cat := testCatalog{"d.n": mustTable(t, "CREATE TABLE n (id INT PRIMARY KEY, k INT NOT NULL, bi BIGINT, tiu TINYINT UNSIGNED, f DOUBLE, d DECIMAL(5,2))")}
	cases := []struct{ mysql, sqlite string }{
		// sysbench's UPDATE: INT + 1 cannot overflow BIGINT, nothing is wrapped
		{"UPDATE n SET k = k + 1 WHERE id = ?", "UPDATE `n` SET `k` = (`k` + 1) WHERE (`id` = ?1)"},
		{"SELECT k * k, -k, tiu + 1, k DIV 2 FROM n", "SELECT (`k` * `k`) AS `k * k`, (- `k`) AS `-k`, (`tiu` + 1) AS `tiu + 1`, (`k` / 2) AS `k DIV 2` FROM `n`"},
		// BIGINT may overflow: the result is checked, the message names the expression
		{"SELECT bi + 1, -bi, 9223372036854775807 + 1 FROM n",
			"SELECT binlite_int((`bi` + 1), '(`d`.`n`.`bi` + 1)') AS `bi + 1`, binlite_int((- `bi`), '-(`d`.`n`.`bi`)') AS `-bi`, binlite_int((9223372036854775807 + 1), '(9223372036854775807 + 1)') AS `9223372036854775807 + 1` FROM `n`"},
		// an unsigned operand makes the result BIGINT UNSIGNED, which may not go below zero
		{"UPDATE n SET tiu = tiu - 1", "UPDATE `n` SET `tiu` = binlite_uint((`tiu` - 1), '(`d`.`n`.`tiu` - 1)')"},
		// DOUBLE arithmetic may reach infinity
		{"SELECT f * 2, 1e308 * 10 FROM n", "SELECT binlite_double((`f` * 2), '(`d`.`n`.`f` * 2)') AS `f * 2`, binlite_double((1e+308 * 10), '(1e308 * 10)') AS `1e308 * 10` FROM `n`"},
		// a divisor that may be zero makes the division the engine's, which warns in a
		// SELECT (mode 1) and fails a write (mode 2); a NULL operand is NULL without a word
		{"SELECT k / id, k MOD id, k DIV 0, f / 2, f / id, 1 / 0 FROM n",
			"SELECT binlite_div_dec(`k`, `id`, 9, 1) AS `k / id`, binlite_mod(`k`, `id`, 1) AS `k MOD id`, binlite_intdiv(`k`, 0, 1, '(`d`.`n`.`k` DIV 0)') AS `k DIV 0`, " +
				"binlite_double((`f` * 1.0 / 2), '(`d`.`n`.`f` / 2)') AS `f / 2`, binlite_div(`f`, `id`, 1, '(`d`.`n`.`f` / `d`.`n`.`id`)') AS `f / id`, binlite_div_dec(1, 0, 9, 1) AS `1 / 0` FROM `n`"},
		{"UPDATE n SET d = k / id", "UPDATE `n` SET `d` = binlite_dec_keep(binlite_div_dec(`k`, `id`, 9, 2), 5, 2, 'd', 0)"},
		{"DELETE FROM n WHERE k / id > 1", "DELETE FROM `n` WHERE (binlite_dec_cmp(binlite_div_dec(`k`, `id`, 9, 2), 1) > 0)"},
		{"UPDATE IGNORE n SET k = k DIV id", "UPDATE OR IGNORE `n` SET `k` = binlite_adjust_int(binlite_intdiv(`k`, `id`, 1, '(`d`.`n`.`k` DIV `d`.`n`.`id`)'), -2147483648, 2147483647, 0, 'k', 0) WHERE binlite_counted()"},
		// a parameter's type comes with each execution: the values are checked as they come
		{"SELECT bi * ?, ? + 1, k + (?) FROM n", "SELECT binlite_int_args((`bi` * ?1), `bi`, ?1, '(`d`.`n`.`bi` * ?)') AS `bi * ?`, binlite_int_args((?2 + 1), ?2, 1, '(? + 1)') AS `? + 1`, binlite_int_args((`k` + ?3), `k`, ?3, '(`d`.`n`.`k` + ?)') AS `k + (?)` FROM `n`"},
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
}

// TestEmitModes: sql_mode without strict mode adjusts what a write stores (with
// warnings) where the default refuses it; without ERROR_FOR_DIVISION_BY_ZERO a
// division by zero is NULL, unchecked. The cache keeps the modes apart.
func TestEmitModes(t *testing.T) {
	cat := testCatalog{"d.t": mustTable(t, "CREATE TABLE t (id INT PRIMARY KEY, k INT NOT NULL, ti TINYINT, v VARCHAR(3), d DECIMAL(5,2) NOT NULL, f FLOAT NOT NULL, m INT NOT NULL)")}
	loose := Mode{NotStrict: true}
	cases := []struct {
		mysql, sqlite string
		mode          Mode
		notes         int
	}{
		{"INSERT INTO t (id, k, ti, v, d, f) VALUES (1, 2, 1000, 'abcdef', 3, 4)", "INSERT INTO `t` (`id`, `k`, `ti`, `v`, `d`, `f`, `m`) VALUES (1, 2, 127, 'abc', '3.00', 4.0, 0)", loose, 3},
		// with computed values, the literals too are adjusted by the engine: MySQL's order of warnings
		{"INSERT INTO t (id, k, d, f, m) VALUES (1, NULL, 1, 1, 1), (2, k + 1, v, ?, DEFAULT)",
			"INSERT INTO `t` (`id`, `k`, `d`, `f`, `m`) VALUES (1, binlite_adjust_int(NULL, -2147483648, 2147483647, 0, 'k', 1), '1.00', 1.0, 1), (2, binlite_adjust_int((`k` + 1), -2147483648, 2147483647, 0, 'k', 2), binlite_adjust_dec(`v`, 5, 2, 0, '0.00', 'd', 2), binlite_adjust_null(?1, 0, 'f', 2), 0)", loose, 1},
		// a single-row INSERT fails on NULL (1048) in any mode: NULL stays NULL
		{"INSERT INTO t (id, k, d, f, m) VALUES (1, 1, v, 1, 1)", "INSERT INTO `t` (`id`, `k`, `d`, `f`, `m`) VALUES (1, 1, binlite_adjust_dec(`v`, 5, 2, 0, NULL, 'd', 1), 1.0, 1)", loose, 0},
		// an UPDATE warns for each row it changes: its literals too are adjusted row by row
		{"UPDATE t SET ti = ti * 10, v = concat(v, 'x'), k = NULL, d = 1000", "UPDATE `t` SET `ti` = binlite_adjust_int((`ti` * 10), -128, 127, NULL, 'ti', 0), `v` = binlite_adjust_text(concat(`v`, 'x'), 3, 0, NULL, 'v', 0), `k` = binlite_adjust_int(NULL, -2147483648, 2147483647, 0, 'k', 0), `d` = binlite_adjust_dec(1000, 5, 2, 0, '0.00', 'd', 0)", loose, 0},
		{"UPDATE t SET ti = 5, v = 'ab'", "UPDATE `t` SET `ti` = 5, `v` = 'ab'", loose, 0},
		{"SELECT 1 / 0", "SELECT binlite_dec_div(1, 0, 9) AS `1 / 0`", Mode{NoDivisionByZeroError: true}, 0},
		// a value the column always holds is not wrapped
		{"UPDATE t SET k = id, ti = NULL", "UPDATE `t` SET `k` = `id`, `ti` = NULL", loose, 0},
	}
	c := NewCache(8)
	for _, tc := range cases {
		em, err := c.EmitWith(tc.mysql, "d", "utf8mb4_general_ci", tc.mode, 0, cat)
		if err != nil || em == nil {
			t.Errorf("%s: not compiled (%v)", tc.mysql, err)
			continue
		}
		if em.SQL != tc.sqlite || len(em.Warnings) != tc.notes {
			t.Errorf("%s\n got: %s (%d warnings: %v)\nwant: %s (%d)", tc.mysql, em.SQL, len(em.Warnings), em.Warnings, tc.sqlite, tc.notes)
		}
	}
	// The same text in the default mode is MySQL's strict answer.
	_, err := c.Emit("INSERT INTO t (id, k, ti, v, d, f) VALUES (1, 2, 1000, 'abcdef', 3, 4)", "d", "utf8mb4_general_ci", cat)
	if me := (*mysqlerr.Error)(nil); !errors.As(err, &me) || me.Code != 1264 {
		t.Errorf("strict: %v, want 1264", err)
	}
}
