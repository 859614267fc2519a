package compiler

import (
	"errors"
	"testing"

	"github.com/binlite/binlite/mysqlerr"
)

// TestEmitTemporal pins the SQL of temporal values: literals stored as the
// column keeps them, comparisons with a column by its stored text (its index
// serves), TIMESTAMP columns read and written in the session's zone.
func TestEmitTemporal(t *testing.T) {
	cat := testCatalog{"d.t": mustTable(t, "CREATE TABLE t (id INT PRIMARY KEY, d DATE, dt DATETIME(3), tm TIME, ts TIMESTAMP NULL, n DATETIME NULL DEFAULT CURRENT_TIMESTAMP)")}
	cases := []struct {
		tz            int
		mysql, sqlite string
	}{
		{0, "INSERT INTO t (id, d, dt, tm) VALUES (1, 20240101, '2024-1-2 3:4:5.99951', '3:4')",
			"INSERT INTO `t` (`id`, `d`, `dt`, `tm`, `n`) VALUES (1, '2024-01-01', '2024-01-02 03:04:06.000', '03:04:00', binlite_now(0, 0))"},
		{19800, "INSERT INTO t (id, ts) VALUES (1, '2024-06-01 12:00:00')",
			"INSERT INTO `t` (`id`, `ts`, `n`) VALUES (1, '2024-06-01 06:30:00', binlite_now(0, 19800))"},
		{19800, "UPDATE t SET ts = ?, dt = ts WHERE id = 1",
			"UPDATE `t` SET `ts` = binlite_tz_utc(?1, '', 0, 19800), `dt` = binlite_store(binlite_tz_local((binlite_tz_utc(?1, '', 0, 19800)), 19800), 'datetime', 'datetime', 3, 19800, 'dt') WHERE (`id` = 1)"},
		{0, "SELECT id FROM t WHERE dt > '2024-02-29' AND d BETWEEN '2024-01-01' AND 20241231",
			"SELECT `id` FROM `t` WHERE ((`dt` > '2024-02-29 00:00:00.000') AND (`d` BETWEEN '2024-01-01' AND '2024-12-31'))"},
		{-28800, "SELECT ts FROM t WHERE ts = '2024-01-01 00:00:00'",
			"SELECT binlite_tz_local(`ts`, -28800) AS `ts` FROM `t` WHERE (`ts` = '2024-01-01 08:00:00')"},
		{3600, "SELECT * FROM t WHERE d = ?",
			"SELECT `t`.`id`, `t`.`d`, `t`.`dt`, `t`.`tm`, binlite_tz_local(`t`.`ts`, 3600) AS `ts`, `t`.`n` FROM `t` WHERE (`d` = binlite_tkey(?1, '', 'date', 0))"},
		{0, "SELECT d + 0, tm > '10:00:00', MAX(tm) FROM t GROUP BY d, tm ORDER BY tm",
			"SELECT (binlite_tnum(`d`, 'date', 0) + 0) AS `d + 0`, (binlite_tkey(`tm`, 'time', 'time', 6) > binlite_tkey('10:00:00', '', 'time', 6)) AS `tm > '10:00:00'`, binlite_time_of_key(max(binlite_tkey(`tm`, 'time', 'time', 6)), 0) AS `MAX(tm)` FROM `t` GROUP BY `d`, `tm` ORDER BY binlite_tkey(`tm`, 'time', 'time', 6)"},
		{19800, "INSERT INTO t (id, dt, ts) SELECT id + 10, d, dt FROM t",
			"WITH `binlite_rows`(`c1`, `c2`, `c3`) AS (SELECT (`id` + 10) AS `id + 10`, `d`, `dt` FROM `t`) INSERT INTO `t` (`id`, `dt`, `ts`, `n`) SELECT `c1`, binlite_store(`c2`, 'date', 'datetime', 3, 19800, 'dt'), binlite_tz_utc(`c3`, 'datetime', 0, 19800), binlite_now(0, 19800) FROM `binlite_rows`"},
		{0, "SELECT DATE_ADD(d, INTERVAL 1 DAY), CAST(dt AS DATE), NOW(6) FROM t",
			"SELECT binlite_date_add(`d`, 'date', 'date', 0, 1, 'DAY', 0) AS `DATE_ADD(d, INTERVAL 1 DAY)`, binlite_cast(`dt`, 'datetime', 'date', 0, 0) AS `CAST(dt AS DATE)`, binlite_now(6, 0) AS `NOW(6)` FROM `t`"},
	}
	for _, c := range cases {
		em, err := NewCache(8).EmitWith(c.mysql, "d", "utf8mb4_general_ci", Mode{}, c.tz, cat)
		if err != nil || em == nil {
			t.Errorf("%s: not compiled (%v)", c.mysql, err)
			continue
		}
		if em.SQL != c.sqlite {
			t.Errorf("%s (zone %d)\n got: %s\nwant: %s", c.mysql, c.tz, em.SQL, c.sqlite)
		}
	}
	// One text, two zones: two entries of the cache.
	cache := NewCache(8)
	a, _ := cache.EmitWith("SELECT ts FROM t", "d", "utf8mb4_general_ci", Mode{}, 0, cat)
	b, _ := cache.EmitWith("SELECT ts FROM t", "d", "utf8mb4_general_ci", Mode{}, 3600, cat)
	if a == nil || b == nil || a.SQL == b.SQL {
		t.Errorf("the zone is not part of the cache's key: %v / %v", a, b)
	}
	for sql, code := range map[string]uint16{
		"INSERT INTO t (id, d) VALUES (1, '2023-02-29')":           mysqlerr.ErTruncatedWrongValue,
		"INSERT INTO t (id, tm) VALUES (1, '839:00:00')":           mysqlerr.ErTruncatedWrongValue,
		"UPDATE t SET tm = '12:61:00'":                             mysqlerr.ErTruncatedWrongValue,
		"INSERT INTO t (id, ts) VALUES (1, '1970-01-01 00:00:00')": mysqlerr.ErTruncatedWrongValue,
	} {
		_, err := NewCache(8).Emit(sql, "d", "utf8mb4_general_ci", cat)
		var me *mysqlerr.Error
		if !errors.As(err, &me) || me.Code != code {
			t.Errorf("%s: %v, want error %d", sql, err, code)
		}
	}
}
