package difftest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/binlite/binlite/internal/testnode"
)

const (
	corpusDir    = "corpus"
	baselinePath = "testdata/baseline.txt"
	docPath      = "../docs/compatibility.md"
	updateCmd    = "DIFFTEST_UPDATE=1 go test -tags sqlite_preupdate_hook -race -count=1 ./difftest/"
)

// TestCorpusParses checks the corpus and its directives without any server.
func TestCorpusParses(t *testing.T) {
	files, err := LoadCorpus(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if len(f.Statements) == 0 {
			t.Errorf("%s has no statements", f.Name)
		}
	}
}

// TestCompatibility runs the corpus against MariaDB 10.11 (MySQL 8.4's answers where
// the corpus writes them down) and binlite, and holds binlite to the baseline.
func TestCompatibility(t *testing.T) {
	start := time.Now()
	files, err := LoadCorpus(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	update := os.Getenv("DIFFTEST_UPDATE") != ""

	maria, err := StartMariaDB(t.TempDir())
	if errors.Is(err, ErrNoMariaDB) && testing.Short() {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("MariaDB %s in %s", maria.Version, maria.Dir)
	t.Cleanup(func() {
		if err := maria.Stop(); err != nil {
			t.Errorf("stopping mariadbd: %v", err)
		}
	})
	node := testnode.Start(t)

	base, err := ReadBaseline(baselinePath)
	if err != nil {
		t.Fatal(err)
	}

	var results []*Result
	byCat, prepared := map[string][]*Outcome{}, map[string][]*Outcome{}
	var cats []string
	for _, f := range files {
		ok := t.Run(f.Category, func(t *testing.T) {
			mc, err := Dial("MariaDB", maria.Addr())
			if err != nil {
				t.Fatal(err)
			}
			defer mc.Close()
			lc, err := Dial("binlite", node.Addr())
			if err != nil {
				t.Fatal(err)
			}
			defer lc.Close()
			r, err := RunFile(f, mc, lc)
			if err != nil {
				t.Fatal(err)
			}
			// The prepared pass: a session of its own, so the text pass's
			// session variables do not carry over.
			pc, err := Dial("binlite", node.Addr())
			if err != nil {
				t.Fatal(err)
			}
			defer pc.Close()
			if err := RunPreparedFile(f, pc, r); err != nil {
				t.Fatal(err)
			}
			prepared[f.Category] = r.Prepared
			for _, p := range r.Problems {
				t.Errorf("expected side: %s", p)
			}
			results = append(results, r)
			cats = append(cats, f.Category)
			byCat[f.Category] = r.Outcomes
			if !update {
				for _, m := range CheckRatchet(base, r) {
					t.Error(m)
				}
			}
		})
		if !ok && update {
			t.Fatalf("%s failed: the baseline and docs/compatibility.md are not rewritten", f.Name)
		}
	}
	if len(results) == 0 {
		return
	}
	sums := Summarize(cats, byCat, prepared)
	t.Logf("binlite against MySQL 8.4 (MariaDB %s plus written answers), %v:\n%s", maria.Version, time.Since(start).Round(time.Second), Table(sums))

	if path := os.Getenv("DIFFTEST_REPORT"); path != "" {
		if err := writeReport(path, results); err != nil {
			t.Error(err)
		}
	}
	if update {
		if len(results) != len(files) {
			t.Fatalf("DIFFTEST_UPDATE needs every corpus file to run (ran %d of %d): drop -run", len(results), len(files))
		}
		if err := WriteBaseline(baselinePath, results); err != nil {
			t.Fatal(err)
		}
		if err := WriteCompatibilityDoc(docPath, updateCmd, maria.Version, sums, results, time.Since(start)); err != nil {
			t.Fatal(err)
		}
		abs, _ := filepath.Abs(docPath)
		t.Logf("rewrote %s and %s", baselinePath, abs)
	}
}

// writeReport writes every statement binlite does not answer as MySQL does (every
// statement with DIFFTEST_REPORT_ALL=1), with both answers.
func writeReport(path string, results []*Result) error {
	all := os.Getenv("DIFFTEST_REPORT_ALL") != ""
	var b strings.Builder
	for _, r := range results {
		for _, o := range r.Outcomes {
			if o.Class != Same || all {
				fmt.Fprintln(&b, o.Report())
			}
		}
		for _, o := range r.Prepared {
			if o.Class != Same || all {
				fmt.Fprintln(&b, o.Report())
			}
		}
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
