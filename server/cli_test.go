package server_test

// The mariadb command-line client against an in-process node.

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	tn "github.com/binlite/binlite/internal/testnode"
)

// cliResult is what one mariadb invocation printed and how it exited.
type cliResult struct {
	stdout, stderr string
	exit           int
}

// mariadb runs the mariadb CLI against n with args, feeding stdin.
func mariadb(t *testing.T, n *tn.Node, stdin string, args ...string) cliResult {
	t.Helper()
	path, err := exec.LookPath("mariadb")
	if err != nil {
		t.Fatalf("the mariadb CLI is required (apt-get install mariadb-client): %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), tn.StatementTimeout)
	defer cancel()
	base := []string{"--no-defaults", "-h127.0.0.1", "-P" + strconv.Itoa(n.Port()), "-uroot"}
	cmd := exec.CommandContext(ctx, path, append(base, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	res := cliResult{stdout: out.String(), stderr: errOut.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		res.exit = ee.ExitCode()
	case err != nil:
		t.Fatalf("mariadb %v: %v", args, err)
	}
	if ctx.Err() != nil {
		t.Fatalf("mariadb %v did not finish within %v; output so far:\n%s%s", args, tn.StatementTimeout, res.stdout, res.stderr)
	}
	return res
}

// mustMariadb runs the CLI and requires success.
func mustMariadb(t *testing.T, n *tn.Node, stdin string, args ...string) string {
	t.Helper()
	r := mariadb(t, n, stdin, args...)
	if r.exit != 0 || r.stderr != "" {
		t.Fatalf("mariadb %v: exit %d\nstdout:\n%s\nstderr:\n%s", args, r.exit, r.stdout, r.stderr)
	}
	return r.stdout
}

func TestMariadbCLICreatesInsertsAndSelectsBack(t *testing.T) {
	n := tn.Start(t)
	mustMariadb(t, n, "", "-e", "CREATE DATABASE cli; CREATE TABLE cli.fruit (id INT NOT NULL PRIMARY KEY, name VARCHAR(20), qty INT)")
	mustMariadb(t, n, "", "cli", "-e", "INSERT INTO fruit VALUES (1, 'apple', 3), (2, 'pear', NULL); UPDATE fruit SET qty = qty + 1 WHERE id = 1")

	got := mustMariadb(t, n, "", "--batch", "--skip-column-names", "-e", "SELECT id, name, qty FROM cli.fruit ORDER BY id")
	if want := "1\tapple\t4\n2\tpear\tNULL\n"; got != want {
		t.Errorf("batch SELECT printed %q, want %q", got, want)
	}
	got = mustMariadb(t, n, "", "--batch", "cli", "-e", "SELECT COUNT(*) AS n, SUM(qty) AS total FROM fruit; SHOW TABLES")
	if want := "n\ttotal\n2\t4\nTables_in_cli\nfruit\n"; got != want {
		t.Errorf("batch output with column names = %q, want %q", got, want)
	}
	got = mustMariadb(t, n, "", "cli", "-e", `SELECT id, name FROM fruit WHERE id = 2\G`)
	want := "*************************** 1. row ***************************\n  id: 2\nname: pear\n"
	if got != want {
		t.Errorf(`\G printed %q, want %q`, got, want)
	}
	// The table format of -e without --batch when stdout is not a terminal is
	// tab-separated with headers, as against MySQL.
	got = mustMariadb(t, n, "", "-e", "SELECT @@version_comment, DATABASE()")
	if want := "@@version_comment\tDATABASE()\nbinlite: MySQL-compatible server on SQLite\tNULL\n"; got != want {
		t.Errorf("SELECT @@version_comment, DATABASE() printed %q, want %q", got, want)
	}
}

func TestMariadbCLIPrintsServerErrors(t *testing.T) {
	n := tn.Start(t)
	mustMariadb(t, n, "", "-e", "CREATE DATABASE cli")
	r := mariadb(t, n, "", "cli", "-e", "SELECT * FROM missing")
	if r.exit != 1 || !strings.Contains(r.stderr, "ERROR 1146 (42S02) at line 1: Table 'cli.missing' doesn't exist") {
		t.Errorf("exit %d, stderr %q; want exit 1 and ERROR 1146 (42S02)", r.exit, r.stderr)
	}
	r = mariadb(t, n, "", "-e", "USE nowhere")
	if r.exit != 1 || !strings.Contains(r.stderr, "ERROR 1049 (42000)") {
		t.Errorf("USE nowhere: exit %d, stderr %q; want ERROR 1049 (42000)", r.exit, r.stderr)
	}
	r = mariadb(t, n, "", "cli", "-e", "SELEC 1")
	if r.exit != 1 || !strings.Contains(r.stderr, "ERROR 1064 (42000)") {
		t.Errorf("SELEC 1: exit %d, stderr %q; want ERROR 1064 (42000)", r.exit, r.stderr)
	}
}

func TestMariadbCLIRunsAScriptFromStdin(t *testing.T) {
	n := tn.Start(t)
	script := `-- set up
CREATE DATABASE notes;
USE notes;
CREATE TABLE note (
  id INT NOT NULL AUTO_INCREMENT,
  body TEXT NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB;
INSERT INTO note (body) VALUES ('semi;colon'), ('two
lines'), ('it''s quoted');
/* a block comment; with a semicolon */
UPDATE note SET body = CONCAT(body, '!') WHERE id = 1;
SELECT id, body FROM note ORDER BY id;
SELECT COUNT(*) AS n FROM note;
BEGIN;
DELETE FROM note;
ROLLBACK;
SELECT COUNT(*) AS still FROM note;
`
	got := mustMariadb(t, n, script, "--batch")
	want := "id\tbody\n1\tsemi;colon!\n2\ttwo\\nlines\n3\tit's quoted\nn\n3\nstill\n3\n"
	if got != want {
		t.Errorf("script output:\n%q\nwant\n%q", got, want)
	}

	// An error stops the script at its line; earlier statements stay done.
	r := mariadb(t, n, "INSERT INTO note (body) VALUES ('kept');\nSELECT * FROM nope;\nINSERT INTO note (body) VALUES ('never');\n", "--batch", "notes")
	if r.exit != 1 || !strings.Contains(r.stderr, "ERROR 1146 (42S02) at line 2") {
		t.Errorf("exit %d, stderr %q; want ERROR 1146 (42S02) at line 2", r.exit, r.stderr)
	}
	got = mustMariadb(t, n, "", "--batch", "--skip-column-names", "notes", "-e", "SELECT body FROM note WHERE id > 3")
	if got != "kept\n" {
		t.Errorf("rows after the failed script = %q, want \"kept\\n\"", got)
	}
}
