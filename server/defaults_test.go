package server_test

// Column defaults as MySQL 8.4 has them (expression defaults, the DEFAULT keyword
// and DEFAULT(col), ALTER COLUMN ... SET/DROP DEFAULT) and generated columns, in
// both protocols: the rows MySQL stores, its SHOW CREATE TABLE text, its errors.

import (
	"context"
	"strings"
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

const defsDDL = "CREATE TABLE defs (id INT AUTO_INCREMENT PRIMARY KEY, status VARCHAR(10) NOT NULL DEFAULT 'new', qty INT DEFAULT 1, " +
	"price DECIMAL(8,2) DEFAULT 9.99, d DATE DEFAULT (CURRENT_DATE), doubled INT DEFAULT (qty * 2), uid VARCHAR(36) DEFAULT (UUID()), " +
	"j JSON DEFAULT (JSON_ARRAY()), note TEXT DEFAULT ('none'))"

func wantRows(t *testing.T, q tn.Querier, query string, want ...string) {
	t.Helper()
	got := tn.Rows(t, q, query)
	var lines []string
	for _, r := range got {
		lines = append(lines, strings.Join(r, "|"))
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n%s\nwant:\n%s", query, strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func TestExpressionDefaults(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, n *tn.Node, p protocol) {
		tn.Exec(t, n.DB(""), "CREATE DATABASE df")
		s := p.session(t, n, "df")
		tn.Exec(t, s, defsDDL)
		show := showCreate(t, s, "defs")
		for _, line := range []string{
			"  `d` date DEFAULT (curdate()),",
			"  `doubled` int DEFAULT ((`qty` * 2)),",
			"  `uid` varchar(36) DEFAULT (uuid()),",
			"  `j` json DEFAULT (json_array()),",
			"  `note` text DEFAULT (_utf8mb4'none'),",
		} {
			if !strings.Contains(show, "\n"+line+"\n") {
				t.Errorf("SHOW CREATE TABLE lacks %q:\n%s", line, show)
			}
		}
		tn.Exec(t, s, "INSERT INTO defs () VALUES ()")
		tn.Exec(t, s, "INSERT INTO defs (qty) VALUES (?)", 5)
		tn.Exec(t, s, "INSERT INTO defs (status, qty, price) VALUES (DEFAULT, DEFAULT, DEFAULT)")
		tn.Exec(t, s, "INSERT INTO defs SET status = 'set', price = DEFAULT(price) + 1")
		tn.Exec(t, s, "INSERT INTO defs (status, qty) VALUES ('m1', 3), (DEFAULT, DEFAULT), ('m3', ?)", 4)
		tn.Exec(t, s, "INSERT INTO defs (status) SELECT CONCAT('s', id) FROM defs WHERE id <= 2")
		tn.Exec(t, s, "INSERT INTO defs (id, qty) VALUES (1, 9) ON DUPLICATE KEY UPDATE status = 'dup'")
		wantRows(t, s, "SELECT id, status, qty, price, doubled, j, note FROM defs ORDER BY id",
			"1|dup|1|9.99|2|[]|none",
			"2|new|5|9.99|10|[]|none",
			"3|new|1|9.99|2|[]|none",
			"4|set|1|10.99|2|[]|none",
			"5|m1|3|9.99|6|[]|none",
			"6|new|1|9.99|2|[]|none",
			"7|m3|4|9.99|8|[]|none",
			"8|s1|1|9.99|2|[]|none",
			"9|s2|1|9.99|2|[]|none")
		if got := tn.String(t, s, "SELECT COUNT(DISTINCT uid) FROM defs WHERE d = CURRENT_DATE AND CHAR_LENGTH(uid) = 36"); got != "9" {
			t.Errorf("rows with their own UUID() and today's date: %s, want 9", got)
		}
		tn.Exec(t, s, "UPDATE defs SET qty = DEFAULT WHERE id = 2")
		tn.Exec(t, s, "UPDATE defs SET doubled = DEFAULT WHERE id = 5")
		tn.Exec(t, s, "UPDATE defs SET qty = 7, doubled = 0 WHERE id = 6")
		tn.Exec(t, s, "UPDATE defs SET doubled = DEFAULT WHERE id = 6")
		wantRows(t, s, "SELECT id, qty, doubled FROM defs WHERE id IN (2, 5, 6) ORDER BY id", "2|1|10", "5|3|6", "6|7|14")

		for _, tc := range []struct {
			sql         string
			code        uint16
			state       string
			args        []any
			description string
		}{
			{"CREATE TABLE bad (a INT DEFAULT (nosuch + 1))", 1054, "42S22", nil, "unknown column"},
			{"CREATE TABLE bad (id INT AUTO_INCREMENT PRIMARY KEY, a INT DEFAULT (id + 1))", 3768, "HY000", nil, "AUTO_INCREMENT column"},
			{"CREATE TABLE bad (a INT DEFAULT (b + 1), b INT DEFAULT (1 + 1))", 3767, "HY000", nil, "a later expression default"},
			{"CREATE TABLE bad (a VARCHAR(64) DEFAULT (DATABASE()))", 3770, "HY000", nil, "a session's function"},
			{"CREATE TABLE bad (a INT DEFAULT (@x))", 3772, "HY000", nil, "a variable"},
			{"CREATE TABLE bad (id INT AUTO_INCREMENT PRIMARY KEY DEFAULT 5)", 1067, "42000", nil, "AUTO_INCREMENT with a default"},
			{"INSERT INTO defs (status) VALUES (DEFAULT(doubled))", 3773, "HY000", nil, "DEFAULT() of an expression default"},
			{"INSERT INTO defs (qty) VALUES ()", 1136, "21S01", nil, "an empty row with columns named"},
		} {
			tn.ExecError(t, s, tc.code, tc.state, tc.sql, tc.args...)
		}
		// ALTER TABLE keeps the definition, so the INSERT still writes the
		// defaults SQLite does not hold.
		tn.Exec(t, s, "ALTER TABLE defs ADD COLUMN extra INT")
		tn.Exec(t, s, "ALTER TABLE defs MODIFY extra BIGINT FIRST")
		tn.Exec(t, s, "INSERT INTO defs (qty) VALUES (21)")
		wantRows(t, s, "SELECT qty, doubled, extra IS NULL FROM defs WHERE qty = 21", "21|42|1")

		tn.Exec(t, s, "CREATE TABLE nn (id INT PRIMARY KEY, a VARCHAR(10) NOT NULL, b INT)")
		tn.ExecError(t, s, 1364, "HY000", "INSERT INTO nn () VALUES ()")
		tn.ExecError(t, s, 1364, "HY000", "INSERT INTO nn VALUES ()")
		tn.ExecError(t, s, 1364, "HY000", "INSERT INTO nn (id, a, b) VALUES (1, DEFAULT, 2)")
		tn.Exec(t, s, "INSERT INTO nn VALUES (1, 'x', DEFAULT), (2, 'y', 3)")
		wantRows(t, s, "SELECT id, a, COALESCE(b, 'null') FROM nn ORDER BY id", "1|x|null", "2|y|3")
	})
}

func TestAlterColumnDefault(t *testing.T) {
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE ad")
	s := tn.Conn(t, n.DB("ad"))
	tn.Exec(t, s, "CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, status VARCHAR(10) NOT NULL DEFAULT 'new', qty INT DEFAULT 1, n INT NOT NULL DEFAULT 0, x INT)")
	tn.Exec(t, s, "INSERT INTO t () VALUES ()")
	// A statement prepared before the ALTER takes the new defaults.
	ps, err := s.PrepareContext(context.Background(), "INSERT INTO t (n) VALUES (?)")
	if err != nil {
		t.Fatal(err)
	}
	defer ps.Close()
	tn.Exec(t, s, "ALTER TABLE t ALTER COLUMN status SET DEFAULT 'fresh', ALTER qty DROP DEFAULT")
	tn.Exec(t, s, "ALTER TABLE t ALTER COLUMN x SET DEFAULT (CHAR_LENGTH(status) * 10)")
	tn.ExecError(t, s, 1067, "42000", "ALTER TABLE t ALTER COLUMN status SET DEFAULT 'much too long'")
	tn.ExecError(t, s, 1054, "42S22", "ALTER TABLE t ALTER COLUMN nosuch SET DEFAULT 1")
	show := showCreate(t, s, "t")
	for _, line := range []string{"  `status` varchar(10) NOT NULL DEFAULT 'fresh',", "  `qty` int,", "  `x` int DEFAULT ((char_length(`status`) * 10)),"} {
		if !strings.Contains(show, "\n"+line+"\n") {
			t.Errorf("SHOW CREATE TABLE lacks %q:\n%s", line, show)
		}
	}
	if _, err := ps.Exec(5); err != nil {
		t.Fatal(err)
	}
	tn.Exec(t, s, "INSERT INTO t (n) SELECT 6")
	tn.Exec(t, s, "ALTER TABLE t ALTER COLUMN n DROP DEFAULT")
	tn.ExecError(t, s, 1364, "HY000", "INSERT INTO t (status) VALUES ('z')")
	// The rows stored before keep their values; the definition survives a restart.
	n.Restart()
	s = tn.Conn(t, n.DB("ad"))
	tn.Exec(t, s, "INSERT INTO t (n) VALUES (7)")
	wantRows(t, s, "SELECT id, status, COALESCE(qty, 'null'), n, COALESCE(x, 'null') FROM t ORDER BY id",
		"1|new|1|0|null", "2|fresh|null|5|50", "3|fresh|null|6|50", "4|fresh|null|7|50")

	// Among other changes, in place and rebuilt: the rebuilt table holds the
	// defaults changed before, and the INSERT still writes those SQLite cannot.
	tn.Exec(t, s, "ALTER TABLE t ALTER COLUMN qty SET DEFAULT 2, ADD COLUMN y INT")
	tn.Exec(t, s, "INSERT INTO t (n) VALUES (8)")
	tn.Exec(t, s, "ALTER TABLE t ALTER COLUMN qty SET DEFAULT 3, ADD COLUMN w INT FIRST")
	tn.Exec(t, s, "INSERT INTO t (n) VALUES (9)")
	tn.ExecError(t, s, 1364, "HY000", "INSERT INTO t (status) VALUES ('z')")
	wantRows(t, s, "SELECT id, status, COALESCE(qty, 'null'), n, COALESCE(x, 'null') FROM t WHERE id >= 4 ORDER BY id",
		"4|fresh|null|7|50", "5|fresh|2|8|50", "6|fresh|3|9|50")
	show = showCreate(t, s, "t")
	for _, line := range []string{"  `status` varchar(10) NOT NULL DEFAULT 'fresh',", "  `qty` int DEFAULT '3',", "  `n` int NOT NULL,", "  `x` int DEFAULT ((char_length(`status`) * 10)),"} {
		if !strings.Contains(show, "\n"+line+"\n") {
			t.Errorf("SHOW CREATE TABLE lacks %q:\n%s", line, show)
		}
	}
}

func TestGeneratedColumns(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, n *tn.Node, p protocol) {
		tn.Exec(t, n.DB(""), "CREATE DATABASE gc")
		s := p.session(t, n, "gc")
		tn.Exec(t, s, "CREATE TABLE gen (id INT PRIMARY KEY, price DECIMAL(10,2), qty INT, total DECIMAL(12,2) AS (price * qty) STORED, "+
			"label VARCHAR(20) GENERATED ALWAYS AS (CONCAT('item-', id)) VIRTUAL, third DECIMAL(6,2) AS (price / 3), KEY idx_total (total))")
		want := "CREATE TABLE `gen` (\n" +
			"  `id` int NOT NULL,\n" +
			"  `price` decimal(10,2) DEFAULT NULL,\n" +
			"  `qty` int DEFAULT NULL,\n" +
			"  `total` decimal(12,2) GENERATED ALWAYS AS ((`price` * `qty`)) STORED,\n" +
			"  `label` varchar(20) GENERATED ALWAYS AS (concat(_utf8mb4'item-',`id`)) VIRTUAL,\n" +
			"  `third` decimal(6,2) GENERATED ALWAYS AS ((`price` / 3)) VIRTUAL,\n" +
			"  PRIMARY KEY (`id`),\n" +
			"  KEY `idx_total` (`total`)\n" +
			") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci"
		if got := showCreate(t, s, "gen"); got != want {
			t.Errorf("SHOW CREATE TABLE:\n%s\nwant (MySQL 8.4):\n%s", got, want)
		}
		tn.Exec(t, s, "INSERT INTO gen (id, price, qty) VALUES (1, 2.50, 4), (?, ?, NULL)", 2, "10")
		tn.Exec(t, s, "INSERT INTO gen (id, price, qty, total) VALUES (3, 1, 1, DEFAULT)")
		tn.Exec(t, s, "INSERT INTO gen VALUES (4, 2, 2, DEFAULT, DEFAULT, DEFAULT)")
		tn.ExecError(t, s, 3105, "HY000", "INSERT INTO gen (id, price, qty, total) VALUES (5, 1, 1, 5)")
		tn.ExecError(t, s, 3105, "HY000", "INSERT INTO gen VALUES (5, 2, 2, 4, DEFAULT, DEFAULT)")
		tn.ExecError(t, s, 3105, "HY000", "INSERT INTO gen (id, total) SELECT 5, 1")
		if got := tn.Affected(t, s, "UPDATE gen SET qty = 10 WHERE id = 1"); got != 1 {
			t.Errorf("UPDATE of a base column: %d rows, want 1", got)
		}
		tn.ExecError(t, s, 3105, "HY000", "UPDATE gen SET total = 1")
		if got := tn.Affected(t, s, "UPDATE gen SET total = DEFAULT WHERE id = 1"); got != 0 {
			t.Errorf("UPDATE ... SET total = DEFAULT: %d rows, want 0", got)
		}
		wantRows(t, s, "SELECT id, price, qty IS NULL, total IS NULL, label, third FROM gen ORDER BY id",
			"1|2.50|0|0|item-1|0.83", "2|10.00|1|1|item-2|3.33", "3|1.00|0|0|item-3|0.33", "4|2.00|0|0|item-4|0.67")
		wantRows(t, s, "SELECT id, qty, total FROM gen WHERE total IS NOT NULL ORDER BY id", "1|10|25.00", "3|1|1.00", "4|2|4.00")
		wantRows(t, s, "SELECT id FROM gen WHERE total > 20", "1")
		wantRows(t, s, "SELECT id FROM gen WHERE label = 'item-3'", "3")
		wantRows(t, s, "SELECT id FROM gen WHERE third = 0.33", "3")

		tn.Exec(t, s, "CREATE TABLE gen_overflow (a TINYINT, b TINYINT AS (a * 100) STORED, c VARCHAR(3) AS (CONCAT(a, 'xx')))")
		tn.Exec(t, s, "INSERT INTO gen_overflow (a) VALUES (1)")
		tn.ExecError(t, s, 1264, "22003", "INSERT INTO gen_overflow (a) VALUES (2)")
		tn.ExecError(t, s, 1406, "22001", "INSERT INTO gen_overflow (a) VALUES (-1)")
		wantRows(t, s, "SELECT a, b, c FROM gen_overflow", "1|100|1xx")

		for _, tc := range []struct {
			sql   string
			code  uint16
			state string
		}{
			{"CREATE TABLE bad (a INT, b DOUBLE AS (RAND()))", 3763, "HY000"},
			{"CREATE TABLE bad (a INT, b DATETIME AS (NOW()))", 3763, "HY000"},
			{"CREATE TABLE bad (a INT, b INT AS (a + nosuch))", 1054, "42S22"},
			{"CREATE TABLE bad (a INT, b INT AS (c + 1), c INT AS (a))", 3107, "HY000"},
			{"CREATE TABLE bad (id INT AUTO_INCREMENT PRIMARY KEY, b INT AS (id + 1))", 3109, "HY000"},
			{"CREATE TABLE bad (a INT, b INT AS (@x))", 3765, "HY000"},
			{"CREATE TABLE bad (a INT, b INT AS (a + 1) STORED PRIMARY KEY)", 1235, "42000"},
		} {
			tn.ExecError(t, s, tc.code, tc.state, tc.sql)
		}
		// A STORED column added later: the rebuilt table computes it for every row.
		tn.Exec(t, s, "ALTER TABLE gen ADD COLUMN s INT AS (qty + 1) STORED")
		wantRows(t, s, "SELECT id, s FROM gen ORDER BY id", "1|11", "2|NULL", "3|2", "4|3")
	})
}
