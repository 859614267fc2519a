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

// TestPtDuplicateKeyChecker: percona-toolkit's pt-duplicate-key-checker (Debian's
// 3.2.1), a reader of SHOW CREATE TABLE and information_schema, finds the index
// that duplicates a UNIQUE key and the one that is a left prefix of another, with
// the ALTER TABLE that drops each, and nothing in a table without redundancy.
func TestPtDuplicateKeyChecker(t *testing.T) {
	bin, err := exec.LookPath("pt-duplicate-key-checker")
	if err != nil {
		t.Skip("pt-duplicate-key-checker is not installed (apt-get install percona-toolkit)")
	}
	n := tn.Start(t)
	db := n.DB("")
	tn.Exec(t, db, "CREATE DATABASE shop")
	tn.Exec(t, db, "CREATE TABLE shop.k (id INT PRIMARY KEY, a INT, b INT, c INT, KEY ab (a, b), KEY a (a), UNIQUE KEY c (c), KEY c2 (c))")
	tn.Exec(t, db, "CREATE TABLE shop.clean (id INT PRIMARY KEY, a INT, b INT, KEY a (a), KEY ba (b, a))")

	run := func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), tn.StatementTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, append([]string{"h=127.0.0.1,P=" + strconv.Itoa(n.Port()) + ",u=root"}, args...)...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("pt-duplicate-key-checker %v: %v\n%s%s", args, err, out.String(), errOut.String())
		}
		if errOut.Len() > 0 {
			t.Errorf("pt-duplicate-key-checker %v wrote to stderr:\n%s", args, errOut.String())
		}
		return out.String()
	}
	out := run("--databases", "shop")
	for _, want := range []string{
		"# c2 is a duplicate of c",
		"ALTER TABLE `shop`.`k` DROP INDEX `c2`;",
		"# a is a left-prefix of ab",
		"ALTER TABLE `shop`.`k` DROP INDEX `a`;",
		"# Total Duplicate Indexes  2",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("pt-duplicate-key-checker output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "shop.clean") || strings.Contains(out, "`clean`") {
		t.Errorf("pt-duplicate-key-checker reports the table without redundant keys:\n%s", out)
	}
	if out := run("--databases", "shop", "--tables", "clean"); strings.Contains(out, "DROP INDEX") || !strings.Contains(out, "# Total Indexes  3") {
		t.Errorf("pt-duplicate-key-checker on shop.clean:\n%s", out)
	}
}
