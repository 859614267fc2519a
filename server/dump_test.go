package server_test

import (
	"bytes"
	"context"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

// TestDumpRestore: mariadb-dump (Debian's mariadb-client) dumps a schema from one
// node and `mariadb < dump.sql` restores it into a fresh one with the same rows
// and the same SHOW CREATE TABLE: with its defaults (LOCK TABLES ... READ), and
// with --single-transaction --master-data=2 --hex-blob --triggers --routines
// (FLUSH TABLES WITH READ LOCK, START TRANSACTION WITH CONSISTENT SNAPSHOT,
// SHOW BINARY LOG STATUS). --skip-add-locks keeps LOCK TABLES ... WRITE, which
// binlite refuses (1235), out of the file.
func TestDumpRestore(t *testing.T) {
	src := tn.Start(t)
	tn.Exec(t, src.DB(""), "CREATE DATABASE shop")
	db := src.DB("shop")
	for _, q := range []string{
		"CREATE TABLE a (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(20) NOT NULL, price DECIMAL(10,2), b BLOB, created DATETIME(3) DEFAULT CURRENT_TIMESTAMP(3), j JSON, e ENUM('x','y') DEFAULT 'x', u BIGINT UNSIGNED, UNIQUE KEY uq_name (name)) COMMENT='things'",
		"CREATE TABLE o (id INT PRIMARY KEY, a_id INT, qty SMALLINT UNSIGNED CHECK (qty < 100), FOREIGN KEY (a_id) REFERENCES a (id) ON DELETE CASCADE)",
		"INSERT INTO a (name, price, b, j, u) VALUES ('it''s', 1.50, x'00ff0a27', '{\"k\": [1, 2]}', 18446744073709551615), ('two', NULL, NULL, NULL, 5), ('tab\there', -0.01, '', '[]', 0)",
		"INSERT INTO o VALUES (1, 1, 7), (2, 2, NULL)",
	} {
		tn.Exec(t, db, q)
	}
	for _, opts := range [][]string{
		{"--skip-add-locks"},
		{"--skip-add-locks", "--single-transaction", "--master-data=2", "--hex-blob", "--triggers", "--routines"},
	} {
		dump := mariadbDump(t, src, append(opts, "--databases", "shop")...)
		if len(opts) > 1 && !strings.Contains(dump, "CHANGE MASTER TO MASTER_LOG_FILE=") {
			t.Errorf("--master-data=2 wrote no position")
		}
		dst := tn.Start(t)
		if r := mariadb(t, dst, dump); r.exit != 0 {
			t.Fatalf("restore %v: exit %d: %s", opts, r.exit, r.stderr)
		}
		for _, q := range []string{"SHOW CREATE TABLE a", "SHOW CREATE TABLE o", "SELECT id, name, price, HEX(b), created, j, e, u FROM a ORDER BY id", "SELECT * FROM o ORDER BY id"} {
			want, got := tn.Rows(t, db, q), tn.Rows(t, dst.DB("shop"), q)
			if flat(got) != flat(want) {
				t.Errorf("%v: %s on the restored node:\n%s\nwant\n%s", opts, q, flat(got), flat(want))
			}
		}
	}
}

func flat(rows [][]string) string {
	var lines []string
	for _, r := range rows {
		lines = append(lines, strings.Join(r, "|"))
	}
	return strings.Join(lines, "\n")
}

// mariadbDump runs mariadb-dump against n and returns the dump.
func mariadbDump(t *testing.T, n *tn.Node, args ...string) string {
	t.Helper()
	path, err := exec.LookPath("mariadb-dump")
	if err != nil {
		t.Fatalf("mariadb-dump is required (apt-get install mariadb-client): %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), tn.StatementTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, append([]string{"--no-defaults", "-h127.0.0.1", "-P" + strconv.Itoa(n.Port()), "-uroot"}, args...)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("mariadb-dump %v: %v\n%s", args, err, errOut.String())
	}
	return out.String()
}
