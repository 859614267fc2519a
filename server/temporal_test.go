package server_test

// DATE, DATETIME, TIME, TIMESTAMP and YEAR values as MySQL converts, computes
// and shows them, over the text protocol and prepared statements; TIMESTAMP
// values stored in UTC and read in the session's time_zone.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tn "github.com/binlite/binlite/internal/testnode"
)

func TestTemporalValuesWritten(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE tv")
	c := tn.Conn(t, n.DB("tv"))
	tn.Exec(t, c, "CREATE TABLE v (id INT PRIMARY KEY, d DATE, dt DATETIME, dt3 DATETIME(3), t TIME, t2 TIME(2), y YEAR)")
	// Text: relaxed and numeric forms, rounding to the column's digits.
	tn.Exec(t, c, "INSERT INTO v VALUES (1, 20240101, 20240101123000, '2024-01-01T12:30:00.5', 123000, '1 02:03:04', '24')")
	tn.Exec(t, c, "INSERT INTO v VALUES (2, '24-1-2', '2024-1-2 3:4:5', '2024-01-01 23:59:59.9996', '3:4', '12', 0)")
	// Prepared: the same conversions of parameters, a time.Time included.
	tn.Exec(t, c, "INSERT INTO v VALUES (?, ?, ?, ?, ?, ?, ?)", 3, "24-1-2", int64(20240102030405),
		time.Date(2024, 1, 1, 23, 59, 59, 999600000, time.UTC), "3:4", "-00:00:01.505", "2024")
	tn.Exec(t, c, "INSERT INTO v (id, d) VALUES (?, ?)", 4, time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC))
	want := [][]string{
		{"1", "2024-01-01", "2024-01-01 12:30:00", "2024-01-01 12:30:00.500", "12:30:00", "26:03:04.00", "2024"},
		// YEAR 0 is 0000 on the wire; the Go driver reads a YEAR as an integer.
		{"2", "2024-01-02", "2024-01-02 03:04:05", "2024-01-02 00:00:00.000", "03:04:00", "00:00:12.00", "0"},
		{"3", "2024-01-02", "2024-01-02 03:04:05", "2024-01-02 00:00:00.000", "03:04:00", "-00:00:01.51", "2024"},
		{"4", "2024-02-29", "NULL", "NULL", "NULL", "NULL", "NULL"},
	}
	if got := tn.Rows(t, c, "SELECT * FROM v ORDER BY id"); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("stored values:\n got %v\nwant %v", got, want)
	}
	if got := tn.Rows(t, c, "SELECT * FROM v WHERE id > ? ORDER BY id", 0); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("stored values, prepared:\n got %v\nwant %v", got, want)
	}
	// What strict mode refuses, as text and as parameters.
	for _, v := range []string{"'2023-02-29'", "'2024-13-01'", "'0000-00-00'", "'not a date'"} {
		tn.ExecError(t, c, 1292, "22007", "INSERT INTO v (id, d) VALUES (10, "+v+")")
		tn.ExecError(t, c, 1292, "22007", "INSERT INTO v (id, d) VALUES (10, ?)", strings.Trim(v, "'"))
	}
	for _, v := range []string{"839:00:00", "12:61:00", "-839:00:00"} {
		tn.ExecError(t, c, 1292, "22007", "INSERT INTO v (id, t) VALUES (10, '"+v+"')")
		tn.ExecError(t, c, 1292, "22007", "INSERT INTO v (id, t) VALUES (10, ?)", v)
		tn.ExecError(t, c, 1292, "22007", "UPDATE v SET t = CONCAT('', ?) WHERE id = 1", v)
	}
	tn.ExecError(t, c, 1292, "22007", "UPDATE v SET d = CONCAT('2023-02-', 29) WHERE id = 1")
	// Computed values are stored in the column's spelling.
	tn.Exec(t, c, "UPDATE v SET dt = d, t = dt3, d = dt WHERE id = 1")
	if got := tn.Rows(t, c, "SELECT d, dt, t FROM v WHERE id = 1"); fmt.Sprint(got) != "[[2024-01-01 2024-01-01 00:00:00 12:30:01]]" {
		t.Errorf("computed values stored as %v", got)
	}
	// INSERT ... SELECT stores its values in the columns' spelling too.
	tn.Exec(t, c, "CREATE TABLE w (id INT PRIMARY KEY, dt DATETIME(2), t TIME)")
	tn.Exec(t, c, "INSERT INTO w SELECT id, d, dt3 FROM v WHERE id IN (1, 2)")
	if got := fmt.Sprint(tn.Rows(t, c, "SELECT * FROM w ORDER BY id")); got != "[[1 2024-01-01 00:00:00.00 12:30:01] [2 2024-01-02 00:00:00.00 00:00:00]]" {
		t.Errorf("INSERT ... SELECT stored %s", got)
	}
	tn.Exec(t, c, "INSERT INTO v (id, d) VALUES (5, '2024-02-29 13:45:59')")
	if got := tn.Rows(t, c, "SHOW WARNINGS"); fmt.Sprint(got) != "[[Note 1265 Data truncated for column 'd' at row 1]]" {
		t.Errorf("a DATE given a time of day: %v", got)
	}
}

func TestTemporalExpressions(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE te")
	c := tn.Conn(t, n.DB("te"))
	tn.Exec(t, c, "CREATE TABLE e (id INT PRIMARY KEY, d DATE, dt DATETIME, dt3 DATETIME(3), t TIME, y YEAR)")
	tn.Exec(t, c, "INSERT INTO e VALUES (1, '2024-02-29', '2024-02-29 13:45:59', '2024-02-29 13:45:59.123', '13:45:59', 2024)")
	tn.Exec(t, c, "INSERT INTO e VALUES (2, '1000-01-01', '2024-02-29 00:00:00', '2023-12-31 23:59:59.999', '-838:59:59', 1901)")
	tn.Exec(t, c, "INSERT INTO e VALUES (3, '2024-03-01', '2024-03-01 00:00:00', NULL, '100:00:00', NULL)")
	cases := []struct{ q, want string }{
		{"SELECT d + 0, dt + 0, dt3 + 0, t + 0, y + 0 FROM e WHERE id = 1", "[[20240229 20240229134559 20240229134559.123 134559 2024]]"},
		{"SELECT t + 0 FROM e WHERE id = 2", "[[-8385959]]"},
		{"SELECT CAST('2024-02-29 13:45:59' AS DATE), CAST(d AS DATETIME), CAST(dt3 AS TIME(1)), CAST('2024-01-01 10:11:12.345' AS DATETIME(2)), CAST(d AS SIGNED) FROM e WHERE id = 1",
			"[[2024-02-29 2024-02-29 00:00:00 13:45:59.1 2024-01-01 10:11:12.35 20240229]]"},
		{"SELECT DATE('2024-02-29 13:45:59'), TIME('2024-02-29 13:45:59.5'), TIMESTAMP('2024-01-01', '25:00:00')", "[[2024-02-29 13:45:59.5 2024-01-02 01:00:00]]"},
		{"SELECT DATE_ADD(d, INTERVAL 1 DAY), DATE_SUB(dt, INTERVAL 1 MONTH), dt + INTERVAL 1 SECOND, d - INTERVAL '1 2' DAY_HOUR FROM e WHERE id = 1",
			"[[2024-03-01 2024-01-29 13:45:59 2024-02-29 13:46:00 2024-02-27 22:00:00]]"},
		{"SELECT DATE_ADD('2024-01-31', INTERVAL 1 MONTH), DATE '2024-02-29' + INTERVAL 1 YEAR, t + INTERVAL 1 HOUR FROM e WHERE id = 1", "[[2024-02-29 2025-02-28 14:45:59]]"},
		{"SELECT DATEDIFF('2024-03-01', '2024-02-01'), TIMEDIFF('12:00:00', '13:30:00'), TIMESTAMPDIFF(MONTH, '2024-01-31', '2024-03-01'), TIMESTAMPDIFF(SECOND, dt, dt3) FROM e WHERE id = 1",
			"[[29 -01:30:00 1 0]]"},
		{"SELECT DATE_FORMAT(dt, '%Y/%m/%d %H:%i:%s %W %M %j'), TIME_FORMAT(t, '%H.%i'), STR_TO_DATE('29/02/2024', '%d/%m/%Y') FROM e WHERE id = 1",
			"[[2024/02/29 13:45:59 Thursday February 060 13.45 2024-02-29]]"},
		{"SELECT LAST_DAY('2024-02-10'), DAYOFWEEK(d), WEEKDAY(d), DAYNAME(d), MONTHNAME(d), YEAR(dt), HOUR(t), EXTRACT(YEAR_MONTH FROM d) FROM e WHERE id = 1",
			"[[2024-02-29 5 3 Thursday February 2024 13 202402]]"},
		{"SELECT MAKEDATE(2024, 60), MAKETIME(12, 30, 15), SEC_TO_TIME(3661), TIME_TO_SEC('01:01:01'), TO_DAYS(d), FROM_DAYS(739310) FROM e WHERE id = 1",
			"[[2024-02-29 12:30:15 01:01:01 3661 739310 2024-02-29]]"},
		{"SELECT ADDTIME(TIMESTAMP '2024-01-01 23:59:59', '00:00:02'), SUBTIME(TIME '10:00:00', '10:00:01')", "[[2024-01-02 00:00:01 -00:00:01]]"},
		{"SELECT UNIX_TIMESTAMP('2024-01-01 00:00:00'), FROM_UNIXTIME(1704067200), FROM_UNIXTIME(0, '%Y')", "[[1704067200 2024-01-01 00:00:00 1970]]"},
		// Comparisons as dates, not as text; TIME in order by its value.
		{"SELECT id FROM e WHERE dt > '2024-02-29' ORDER BY id", "[[1] [3]]"},
		{"SELECT id FROM e WHERE d BETWEEN '2024-01-01' AND '2024-12-31' ORDER BY id", "[[1] [3]]"},
		{"SELECT id FROM e WHERE d = '2024-02-29 00:00:00' OR dt3 = 20231231235959.999 ORDER BY id", "[[1] [2]]"},
		{"SELECT id FROM e WHERE dt IN ('2024-02-29', '2024-3-1') ORDER BY id", "[[2] [3]]"},
		{"SELECT id FROM e ORDER BY t", "[[2] [1] [3]]"},
		{"SELECT id FROM e WHERE t > '50:00:00'", "[[3]]"},
	}
	for _, cs := range cases {
		if got := fmt.Sprint(tn.Rows(t, c, cs.q)); got != cs.want {
			t.Errorf("%s\n got %s\nwant %s", cs.q, got, cs.want)
		}
	}
	// The same with parameters (prepared statements).
	prepared := []struct {
		q    string
		args []any
		want string
	}{
		{"SELECT DATE_ADD(?, INTERVAL ? DAY)", []any{"2024-02-28", 2}, "[[2024-03-01]]"},
		{"SELECT id FROM e WHERE dt > ? ORDER BY id", []any{"2024-02-29"}, "[[1] [3]]"},
		{"SELECT id FROM e WHERE d = ?", []any{time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)}, "[[1]]"},
		{"SELECT id FROM e WHERE t < ? ORDER BY id", []any{"00:00:00"}, "[[2]]"},
		{"SELECT d + ?, CAST(? AS DATE) FROM e WHERE id = 1", []any{1, "24-2-29"}, "[[20240230 2024-02-29]]"},
	}
	for _, cs := range prepared {
		if got := fmt.Sprint(tn.Rows(t, c, cs.q, cs.args...)); got != cs.want {
			t.Errorf("%s %v\n got %s\nwant %s", cs.q, cs.args, got, cs.want)
		}
	}
	// A value that is no date is NULL with MySQL's warning.
	if got := tn.String(t, c, "SELECT CAST('2024-02-30' AS DATE)"); got != "NULL" {
		t.Errorf("CAST of an invalid date = %s", got)
	}
	if got := tn.Rows(t, c, "SHOW WARNINGS"); len(got) != 1 || got[0][1] != "1292" {
		t.Errorf("warnings after CAST of an invalid date: %v", got)
	}
}

func TestTimeZoneTimestamps(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE tz")
	c := tn.Conn(t, n.DB("tz"))
	tn.Exec(t, c, `CREATE TABLE z (id INT PRIMARY KEY, ts TIMESTAMP NULL, ts6 TIMESTAMP(6) NULL, dt DATETIME,
		c TIMESTAMP NULL DEFAULT CURRENT_TIMESTAMP, cd DATETIME NULL DEFAULT CURRENT_TIMESTAMP,
		u TIMESTAMP NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP)`)
	tn.Exec(t, c, "INSERT INTO z (id, ts, ts6, dt) VALUES (1, '2024-01-01 00:00:00', '2024-01-01 00:00:00.123456', '2024-01-01 00:00:00')")
	tn.Exec(t, c, "SET time_zone = '+05:30'")
	read := "SELECT id, ts, ts6, dt FROM z ORDER BY id"
	if got := fmt.Sprint(tn.Rows(t, c, read)); got != "[[1 2024-01-01 05:30:00 2024-01-01 05:30:00.123456 2024-01-01 00:00:00]]" {
		t.Errorf("in +05:30: %s", got)
	}
	// Written in +05:30: literal, parameter, expression, default.
	tn.Exec(t, c, "INSERT INTO z (id, ts, dt) VALUES (2, '2024-06-01 12:00:00', '2024-06-01 12:00:00')")
	tn.Exec(t, c, "INSERT INTO z (id, ts, ts6) VALUES (?, ?, ?)", 3, "2024-06-01 12:00:00", time.Date(2024, 6, 1, 12, 0, 0, 500000000, time.UTC))
	tn.Exec(t, c, "UPDATE z SET dt = ts + INTERVAL 1 HOUR, ts = dt WHERE id = 1")
	if got := fmt.Sprint(tn.Rows(t, c, "SELECT id FROM z WHERE ts = '2024-06-01 12:00:00' ORDER BY id")); got != "[[2] [3]]" {
		t.Errorf("compared in +05:30: %s", got)
	}
	if got := fmt.Sprint(tn.Rows(t, c, "SELECT id FROM z WHERE ts = ? ORDER BY id", "2024-06-01 12:00:00")); got != "[[2] [3]]" {
		t.Errorf("compared with a parameter in +05:30: %s", got)
	}
	// NOW() follows the zone; the default of a TIMESTAMP is stored in UTC, a
	// DATETIME's in the session's zone.
	if got := tn.String(t, c, "SELECT TIMESTAMPDIFF(MINUTE, UTC_TIMESTAMP(), NOW())"); got != "330" {
		t.Errorf("NOW() - UTC_TIMESTAMP() in +05:30 = %s minutes", got)
	}
	tn.Exec(t, c, "SET time_zone = '+00:00'")
	// SET assigns left to right: ts took the new dt (06:30 in +05:30).
	want := "[[1 2024-01-01 01:00:00 2024-01-01 00:00:00.123456 2024-01-01 06:30:00] [2 2024-06-01 06:30:00 NULL 2024-06-01 12:00:00] [3 2024-06-01 06:30:00 2024-06-01 06:30:00.500000 NULL]]"
	if got := fmt.Sprint(tn.Rows(t, c, read)); got != want {
		t.Errorf("in UTC:\n got %s\nwant %s", got, want)
	}
	if got := fmt.Sprint(tn.Rows(t, c, "SELECT id, UNIX_TIMESTAMP(ts) FROM z ORDER BY id")); got != "[[1 1704070800] [2 1717223400] [3 1717223400]]" {
		t.Errorf("UNIX_TIMESTAMP in UTC: %s", got)
	}
	if got := tn.String(t, c, "SELECT COUNT(*) FROM z WHERE TIMESTAMPDIFF(MINUTE, c, UTC_TIMESTAMP()) BETWEEN 0 AND 60 AND TIMESTAMPDIFF(MINUTE, cd, UTC_TIMESTAMP()) BETWEEN -390 AND -270"); got != "2" {
		t.Errorf("defaults written in +05:30: %v", tn.Rows(t, c, "SELECT id, c, cd, UTC_TIMESTAMP() FROM z"))
	}
	// ON UPDATE CURRENT_TIMESTAMP of a TIMESTAMP stores UTC too.
	tn.Exec(t, c, "SET time_zone = '-08:00'")
	tn.Exec(t, c, "UPDATE z SET dt = '2000-01-01' WHERE id = 2")
	if got := tn.String(t, c, "SELECT TIMESTAMPDIFF(MINUTE, u, NOW()) BETWEEN 0 AND 60 FROM z WHERE id = 2"); got != "1" {
		t.Errorf("ON UPDATE in -08:00: %v", tn.Rows(t, c, "SELECT u, NOW() FROM z WHERE id = 2"))
	}
	// One statement text, two zones: the compiled SQL is not shared between them.
	q := "SELECT ts FROM z WHERE id = 2"
	if got := tn.String(t, c, q); got != "2024-05-31 22:30:00" {
		t.Errorf("in -08:00: %s", got)
	}
	tn.Exec(t, c, "SET time_zone = '+01:00'")
	if got := tn.String(t, c, q); got != "2024-06-01 07:30:00" {
		t.Errorf("in +01:00: %s", got)
	}
	if got := tn.String(t, c, q+" AND ts > ?", "2024-06-01 07:29:59"); got != "2024-06-01 07:30:00" {
		t.Errorf("prepared in +01:00: %s", got)
	}
	if got := fmt.Sprint(tn.Rows(t, c, "SELECT FROM_UNIXTIME(0), UNIX_TIMESTAMP('1970-01-01 01:00:01'), CONVERT_TZ('2024-01-01 00:00:00', '+00:00', '-08:00')")); got != "[[1970-01-01 01:00:00 1 2023-12-31 16:00:00]]" {
		t.Errorf("FROM_UNIXTIME, UNIX_TIMESTAMP, CONVERT_TZ in +01:00: %s", got)
	}
	// Outside TIMESTAMP's range in this zone.
	tn.ExecError(t, c, 1292, "22007", "INSERT INTO z (id, ts) VALUES (9, '1970-01-01 01:00:00')")
	tn.ExecError(t, c, 1298, "HY000", "SET time_zone = '+14:01'")
}

// TestTimeZoneRefusals: what binlite cannot do in a zone other than UTC yet is
// 1235, not a value in the wrong zone.
func TestTimeZoneRefusals(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE tr")
	c := tn.Conn(t, n.DB("tr"))
	tn.Exec(t, c, "CREATE TABLE r (id INT PRIMARY KEY, v INT, m DATETIME NULL ON UPDATE CURRENT_TIMESTAMP, ts TIMESTAMP NULL)")
	tn.Exec(t, c, "CREATE TABLE s (id INT PRIMARY KEY, ts TIMESTAMP NULL)")
	tn.Exec(t, c, "INSERT INTO r (id, v) VALUES (1, 1)")
	tn.Exec(t, c, "SET time_zone = '+05:30'")
	tn.ExecError(t, c, 1235, "42000", "UPDATE r SET v = 2 WHERE id = 1")
	tn.Exec(t, c, "INSERT INTO s VALUES (1, '2024-01-01 05:30:00')")
	tn.Exec(t, c, "INSERT INTO s (id, ts) SELECT id + 1, ts + INTERVAL 1 HOUR FROM s")
	tn.ExecError(t, c, 1235, "42000", "CREATE TABLE d (ts TIMESTAMP DEFAULT '2024-01-01 00:00:00')")
	// Tables without zone-dependent columns are written as usual.
	tn.Exec(t, c, "CREATE TABLE known (id INT PRIMARY KEY)")
	tn.Exec(t, c, "INSERT INTO known VALUES (1)")
	if got := tn.String(t, c, "SELECT TIMESTAMPDIFF(MINUTE, UTC_TIMESTAMP(), NOW())"); got != "330" {
		t.Errorf("without a table: %s", got)
	}
	tn.Exec(t, c, "SET time_zone = 'SYSTEM'")
	tn.Exec(t, c, "UPDATE r SET v = 2 WHERE id = 1")
	if got := fmt.Sprint(tn.Rows(t, c, "SELECT id, ts FROM s ORDER BY id")); got != "[[1 2024-01-01 00:00:00] [2 2024-01-01 01:00:00]]" {
		t.Errorf("INSERT ... SELECT of TIMESTAMP values in +05:30 stored %s", got)
	}
}
