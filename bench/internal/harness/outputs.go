package harness

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// ParseInts parses a comma-separated list of integers, each at least min.
func ParseInts(s string, min int) ([]int, error) {
	var out []int
	for _, f := range SplitList(s) {
		n, err := strconv.Atoi(f)
		if err != nil || n < min {
			return nil, fmt.Errorf("bad number %q", f)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, errors.New("empty list")
	}
	return out, nil
}

// BuildBinlite returns given when set, else builds ./cmd/binlite of the repository at
// root into dir and returns its path.
func BuildBinlite(ctx context.Context, root, dir, given string) (string, error) {
	if given != "" {
		return given, nil
	}
	bin := filepath.Join(dir, "binlite")
	Logf("building %s", bin)
	cmd := exec.CommandContext(ctx, "go", "build", "-tags", "sqlite_preupdate_hook", "-o", bin, "./cmd/binlite")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/binlite: %w\n%s", err, out)
	}
	return bin, nil
}

// LogProblems returns the error and warning lines of a server log (binlite's slog
// levels, Go panics, MariaDB's [ERROR]) that benign does not excuse (nil: none is),
// at most ten and a count of the rest. A missing log has none.
func LogProblems(path string, benign func(line string) bool) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var bad []string
	for sc.Scan() {
		l := sc.Text()
		if !strings.Contains(l, "level=ERROR") && !strings.Contains(l, "level=WARN") && !strings.Contains(l, "panic:") &&
			!strings.Contains(l, "fatal error:") && !strings.Contains(l, "[ERROR]") {
			continue
		}
		if benign == nil || !benign(l) {
			bad = append(bad, l)
		}
	}
	if len(bad) > 10 {
		bad = append(bad[:10], fmt.Sprintf("... and %d more", len(bad)-10))
	}
	return bad
}

// Outputs is what a benchmark writes into its results directory: NAME.json (the
// report, unless it was only reloaded), further files such as CSV, NAME.md (also
// printed), and its chart.
type Outputs struct {
	Dir, Name string
	Report    any // written as NAME.json when Fresh
	Fresh     bool
	Files     map[string][]byte // file name → content
	Markdown  string
	Chart     string        // chart path; "" or "-": none
	SVG       func() []byte // draws the chart
}

// Write writes the outputs and says where they went.
func (o Outputs) Write() error {
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return err
	}
	files := map[string][]byte{o.Name + ".md": []byte(o.Markdown)}
	for name, b := range o.Files {
		files[name] = b
	}
	if o.Fresh {
		b, err := json.MarshalIndent(o.Report, "", "  ")
		if err != nil {
			return err
		}
		files[o.Name+".json"] = append(b, '\n')
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(o.Dir, name), b, 0o644); err != nil {
			return err
		}
	}
	fmt.Print(o.Markdown)
	if o.Chart != "" && o.Chart != "-" && o.SVG != nil {
		if err := os.WriteFile(o.Chart, o.SVG(), 0o644); err != nil {
			return err
		}
		fmt.Printf("\nchart: %s\n", o.Chart)
	}
	fmt.Printf("results: %s\n", filepath.Join(o.Dir, o.Name+".json"))
	return nil
}

// SourceGone tells the log lines of a replica losing its source, expected when a
// benchmark stops the source before the replica (for LogProblems).
func SourceGone(l string) bool {
	return strings.Contains(l, "source connection lost") || strings.Contains(l, "Error reconnecting to source") ||
		strings.Contains(l, "error reconnecting to master") || strings.Contains(l, "Slave I/O: error reconnecting") ||
		strings.Contains(l, "Error reading packet from server")
}
