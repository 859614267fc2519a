package repltest

import (
	"strings"
	"testing"
	"time"
)

// TestEveryTypeReplicatesExactly: a table with a column of every MySQL type,
// written with literals and with parameters (bytes, times, unsigned and decimal
// values included), reaches the replica exactly: the checksum compares every row,
// and the replica answers the same typed SELECT with the same text.
func TestEveryTypeReplicatesExactly(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 1)
	rep := startNode(t, "replica", 2)
	createReplUser(t, src.db)
	replicate(t, rep.db, src.port())
	exec(t, src.db, "CREATE DATABASE ty", `CREATE TABLE ty.all_types (
		id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
		ti TINYINT, tiu TINYINT UNSIGNED, si SMALLINT, mi MEDIUMINT, i INT, bi BIGINT, biu BIGINT UNSIGNED,
		d DECIMAL(12,4), dz DECIMAL(5,0) UNSIGNED, f FLOAT, db DOUBLE, fm FLOAT(7,3), b BIT(5), bo BOOL, y YEAR,
		dt DATE, dtm DATETIME(6), ts TIMESTAMP(3) NULL, tm TIME,
		c CHAR(4), vc VARCHAR(20), bn BINARY(4), vb VARBINARY(8), tx TEXT, bl BLOB,
		e ENUM('small','large'), st SET('a','b','c'), j JSON, dw DECIMAL(65,30))`)
	exec(t, src.db,
		`INSERT INTO ty.all_types (ti, tiu, si, mi, i, bi, biu, d, dz, f, db, fm, b, bo, y, dt, dtm, ts, tm, c, vc, bn, vb, tx, bl, e, st, j)
		 VALUES (-128, 255, -32768, 8388607, -2147483648, -9223372036854775808, 9223372036854775807, 12345678.1234, 99999, 0.1, 1e300, 1234.5678, b'10101', TRUE, 2155,
		 '2024-02-29', '2024-01-02 03:04:05.123456', '2038-01-19 03:14:07.999', '-838:59:59', 'ab  ', 'caf\u00e9 \u2603', 'ab', x'00ff00ff', 'text\nline', x'000102', 'large', 'c,a', '{"k": [1, "two", null]}')`,
		"INSERT INTO ty.all_types (ti, dw) VALUES (NULL, 12345678901234567890123456789012345.123456789012345678901234567890)")
	if _, err := src.db.Exec(`INSERT INTO ty.all_types (i, d, dtm, vb, bl, c, bn, f, dw) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		42, "-0.0001", time.Date(1999, 12, 31, 23, 59, 59, 500000000, time.UTC), []byte{0, 1, 2}, []byte("\x00nul\x00"), "x ", "z", 3.14159, "-99999999999999999999999999999999999.999999999999999999999999999999"); err != nil {
		t.Fatal(err)
	}
	assertInSync(t, src.db, rep.db)
	q := "SELECT * FROM ty.all_types ORDER BY id"
	want, got := rows(t, src.db, q), rows(t, rep.db, q)
	if len(want) != 3 || strings.Join(flatten(got), "|") != strings.Join(flatten(want), "|") {
		t.Errorf("replica's rows differ:\n source %q\nreplica %q", want, got)
	}
	if want[0][17] != "2024-01-02 03:04:05.123456" || want[0][8] != "12345678.1234" || want[0][20] != "ab" || want[2][5] != "42" ||
		want[2][17] != "1999-12-31 23:59:59.500000" || want[2][22] != "z\x00\x00\x00" || want[2][8] != "-0.0001" ||
		want[1][29] != "12345678901234567890123456789012345.123456789012345678901234567890" ||
		want[2][29] != "-99999999999999999999999999999999999.999999999999999999999999999999" {
		t.Errorf("source's values are not MySQL's: %q", want)
	}
}

func flatten(rows [][]string) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}
