package compiler

import (
	"errors"
	"testing"

	"github.com/binlite/binlite/mysqlerr"
)

// TestEmit pins the SQLite text the compiler gives MySQL statements; each line
// is a MySQL rule the text must keep (the differential suite checks the answers).
func TestEmit(t *testing.T) {
	cat := testCatalog{
		"d.t": mustTable(t, "CREATE TABLE t (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL DEFAULT 7, v VARCHAR(10), d DECIMAL(5,2), b VARBINARY(4))"),
		"d.u": mustTable(t, "CREATE TABLE u (id INT PRIMARY KEY, t_id INT, n INT, m INT NOT NULL)"),
	}
	cases := []struct{ mysql, sqlite string }{
		// an AUTO_INCREMENT 0 is the next id; DEFAULT everywhere leaves the column to SQLite
		{"INSERT INTO t (id, k, v) VALUES (0, DEFAULT, 'a')", "INSERT INTO `t` (`id`, `v`) VALUES (binlite_autoinc(NULL), 'a')"},
		{"INSERT t VALUES ()", "INSERT INTO `t` DEFAULT VALUES"},
		{"INSERT INTO t (k, v) VALUES (1, 'x'), (DEFAULT, 'y')", "INSERT INTO `t` (`k`, `v`, `id`) VALUES (1, 'x', binlite_autoinc(NULL)), (7, 'y', binlite_autoinc(NULL))"},
		// literals are stored as the column keeps them: DECIMAL rounded, text into VARBINARY is bytes
		{"INSERT INTO t (d, b) VALUES ('1.005', 'ab')", "INSERT INTO `t` (`d`, `b`, `id`) VALUES ('1.01', X'6162', binlite_autoinc(NULL))"},
		// a number into an integer column rounds half away from zero; a string is read as a number
		{"INSERT INTO t (k) VALUES (3.5), (-2.5), (' 42'), ('7e2')", "INSERT INTO `t` (`k`, `id`) VALUES (4, binlite_autoinc(NULL)), (-3, binlite_autoinc(NULL)), (42, binlite_autoinc(NULL)), (700, binlite_autoinc(NULL))"},
		{"INSERT IGNORE INTO t (k) VALUES (99999999999), ('12abc'), ('x')", "INSERT OR IGNORE INTO `t` (`k`, `id`) VALUES (2147483647, binlite_autoinc(NULL)), (12, binlite_autoinc(NULL)), (0, binlite_autoinc(NULL))"},
		// IGNORE: NULL into NOT NULL is the implicit default, long text is cut; trailing spaces are cut in any mode
		{"INSERT IGNORE INTO t (k, v) VALUES (NULL, 'abcdefghijkl')", "INSERT OR IGNORE INTO `t` (`k`, `v`, `id`) VALUES (0, 'abcdefghij', binlite_autoinc(NULL))"},
		{"INSERT INTO t (v) VALUES ('abcdefghij   ')", "INSERT INTO `t` (`v`, `id`) VALUES ('abcdefghij', binlite_autoinc(NULL))"},
		{"INSERT IGNORE INTO u (id) VALUES (1)", "INSERT OR IGNORE INTO `u` (`id`, `m`) VALUES (1, 0)"},
		{"INSERT INTO t SET v = 'a', k = 2", "INSERT INTO `t` (`v`, `k`, `id`) VALUES ('a', 2, binlite_autoinc(NULL))"},
		{"INSERT INTO t (k) VALUES (?) ON DUPLICATE KEY UPDATE k = VALUES(k) + k", "INSERT INTO `t` (`k`, `id`) VALUES (?1, binlite_autoinc(NULL)) ON CONFLICT DO UPDATE SET `k` = (excluded.`k` + `k`)"},
		// SET assigns left to right
		{"UPDATE t SET k = k + 1, k = k * 2, v = k WHERE id = ?", "UPDATE `t` SET `k` = (((`k` + 1)) * 2), `v` = ((((`k` + 1)) * 2)) WHERE (`id` = ?1)"},
		{"UPDATE t SET k = 0 LIMIT 2", "UPDATE `t` SET `k` = 0 WHERE rowid IN (SELECT rowid FROM `t` LIMIT 2)"},
		{"DELETE FROM t WHERE k > 1 LIMIT 1", "DELETE FROM `t` WHERE rowid IN (SELECT rowid FROM `t` WHERE (`k` > 1) LIMIT 1)"},
		{"DELETE x FROM t AS x JOIN u ON u.t_id = x.id WHERE u.n = 1", "DELETE FROM `t` AS `x` WHERE `x`.rowid IN (SELECT `x`.rowid FROM `t` AS `x` JOIN `u` ON (`u`.`t_id` = `x`.`id`) WHERE (`u`.`n` = 1))"},
		{"UPDATE t JOIN u ON u.t_id = t.id SET t.k = 1 WHERE u.n > 0", "UPDATE `t` AS `t` SET `k` = 1 WHERE `t`.rowid IN (SELECT `t`.rowid FROM `t` JOIN `u` ON (`u`.`t_id` = `t`.`id`) WHERE (`u`.`n` > 0))"},
		{"UPDATE t a, u SET a.k = a.k + u.n WHERE u.t_id = a.id AND u.id = 3", "UPDATE `t` AS `a` SET `k` = (`a`.`k` + `u`.`n`) FROM `u` WHERE (((`u`.`t_id` = `a`.`id`) AND (`u`.`id` = 3)))"},
		// DECIMAL arithmetic, comparison, SUM/AVG and CAST are exact (package decimal)
		{"SELECT 0.1 + 0.2, 0.1 + 0.2 = 0.3, d * 3, -d, SUM(d), AVG(d), CAST(1.999 AS DECIMAL(4,2)) FROM t WHERE d = 0.1",
			"SELECT binlite_dec_add('0.1', '0.2') AS `0.1 + 0.2`, (binlite_dec_cmp(binlite_dec_add('0.1', '0.2'), '0.3') = 0) AS `0.1 + 0.2 = 0.3`, binlite_dec_mul(`d`, 3) AS `d * 3`, binlite_dec_neg(`d`) AS `-d`, binlite_dec_sum(`d`) AS `SUM(d)`, binlite_dec_avg(`d`, 6) AS `AVG(d)`, binlite_cast_dec('1.999', 4, 2, 'cast(1.999 as decimal(4, 2))') AS `CAST(1.999 AS DECIMAL(4,2))` FROM `t` WHERE (`d` = 0.1)"},
		// two strings that are not columns compare by the connection's collation; COLLATE names SQLite's
		{"SELECT 'a' = 'A', v = 'A', 'a' < 'b' COLLATE utf8mb4_bin FROM t", "SELECT ('a' = 'A' COLLATE utf8mb4_general_ci) AS `'a' = 'A'`, (`v` = 'A') AS `v = 'A'`, ('a' < ('b' COLLATE utf8mb4_bin)) AS `'a' < 'b' COLLATE utf8mb4_bin` FROM `t`"},
		// a decimal into an integer column rounds; ROUND/TRUNCATE of exact values are exact, of doubles half to even
		{"UPDATE t SET k = d * 2", "UPDATE `t` SET `k` = binlite_int_store(binlite_dec_mul(`d`, 2))"},
		{"SELECT ROUND(d, 1), TRUNCATE(d, 1), ROUND(1.5e0, 0) FROM t", "SELECT binlite_dec_round(`d`, 1) AS `ROUND(d, 1)`, binlite_dec_truncate(`d`, 1) AS `TRUNCATE(d, 1)`, binlite_round_double(1.5, 0) AS `ROUND(1.5e0, 0)` FROM `t`"},
		{"INSERT INTO t (k, d) SELECT d * 2, k / 3 FROM t", "INSERT INTO `t` (`k`, `d`) WITH binlite_src(`binlite_c1`, `binlite_c2`) AS (SELECT binlite_dec_mul(`d`, 2) AS `d * 2`, binlite_dec_div(`k`, 3, 9) AS `k / 3` FROM `t`) SELECT binlite_int_store(`binlite_c1`), binlite_dec_keep(`binlite_c2`, 5, 2, 'd', 0) FROM binlite_src"},
		{"TABLE t ORDER BY k LIMIT 2", "SELECT * FROM `t` ORDER BY `k` LIMIT 2"},
		// / never divides as integers, DIV does; a string compares with a number as a number
		{"SELECT k / 2, k DIV 2, k MOD 3 FROM t", "SELECT binlite_dec_div(`k`, 2, 9) AS `k / 2`, (`k` / 2) AS `k DIV 2`, (`k` % 3) AS `k MOD 3` FROM `t`"},
		{"SELECT '10' = 10, v = 1 FROM t", "SELECT (CAST('10' AS REAL) = 10) AS `'10' = 10`, (binlite_to_double(`v`) = 1) AS `v = 1` FROM `t`"},
		{"SELECT a.v FROM t a LEFT JOIN u ON u.t_id = a.id WHERE a.v LIKE 'x\\_%' LIMIT 1, 2", "SELECT `a`.`v` FROM `t` AS `a` LEFT JOIN `u` ON (`u`.`t_id` = `a`.`id`) WHERE (`a`.`v` LIKE 'x\\_%' ESCAPE '\\') LIMIT 2 OFFSET 1"},
		{"SELECT GROUP_CONCAT(v ORDER BY v SEPARATOR '|') FROM t", "SELECT binlite_group_concat(0, '|', `v` ORDER BY `v`) AS `GROUP_CONCAT(v ORDER BY v SEPARATOR '|')` FROM `t`"},
		// CAST AS UNSIGNED of a decimal rounds it exactly; a string literal read as a number warns
		{"SELECT CAST(1.5 AS UNSIGNED), CAST('3.7' AS SIGNED), 5 - '1x'", "SELECT binlite_cast_unsigned('1.5', 'd') AS `CAST(1.5 AS UNSIGNED)`, 3 AS `CAST('3.7' AS SIGNED)`, binlite_double((5 - CAST('1x' AS REAL)), '(5 - _utf8mb4''1x'')') AS `5 - '1x'`"},
		{"SELECT 0x41, b'101', X'00', -9223372036854775808, DATE '2024-3-5'", "SELECT X'41' AS `0x41`, 5 AS `b'101'`, X'00' AS `X'00'`, (-9223372036854775807 - 1) AS `-9223372036854775808`, '2024-03-05' AS `DATE '2024-3-5'`"},
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

// TestEmitAnswers: what the compiler answers itself, and what it leaves to
// sqlcompat (nil, nil).
func TestEmitAnswers(t *testing.T) {
	cat := testCatalog{"d.t": mustTable(t, "CREATE TABLE t (id INT PRIMARY KEY, k INT NOT NULL, v VARCHAR(10))")}
	errs := map[string]uint16{
		"INSERT INTO t (id, nosuch) VALUES (1, 2)":  mysqlerr.ErBadField,
		"INSERT INTO t (id, k) VALUES (1)":          mysqlerr.ErWrongValueCountOnRow,
		"INSERT INTO t (id, k) VALUES (1, DEFAULT)": mysqlerr.ErNoDefaultForField,
		"SELECT DATE '2024-02-30'":                  mysqlerr.ErWrongValue,
		"INSERT INTO t (id, k) VALUES (1, '12abc')": mysqlerr.ErWarnDataTruncated,
		"INSERT INTO t (id, k) VALUES (1, 'abc')":   1366,
		"UPDATE t SET k = 1e10":                     1264,
	}
	for sql, code := range errs {
		_, err := NewCache(8).Emit(sql, "d", "utf8mb4_general_ci", cat)
		var me *mysqlerr.Error
		if !errors.As(err, &me) || me.Code != code {
			t.Errorf("%s: %v, want error %d", sql, err, code)
		}
	}
	for _, sql := range []string{"SELECT @x", "SELECT DATABASE()", "SELECT * FROM nosuch", "SELECT k FROM t WHERE k > ANY (SELECT 1)"} {
		if em, err := NewCache(8).Emit(sql, "d", "utf8mb4_general_ci", cat); em != nil || err != nil {
			t.Errorf("%s: compiled (%+v, %v), want it left to sqlcompat", sql, em, err)
		}
	}
}
