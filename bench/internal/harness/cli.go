package harness

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Logf prints a timestamped progress line to stderr.
func Logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

// Fatalf reports a benchmark's fatal error and exits 1.
func Fatalf(prog, format string, args ...any) {
	fmt.Fprintf(os.Stderr, prog+": "+format+"\n", args...)
	os.Exit(1)
}

// CommandLine is how the benchmark was run, for its report (`go run ./bench/PROG ...`).
func CommandLine(prog string) string {
	return strings.Join(append([]string{"go run ./bench/" + prog}, os.Args[1:]...), " ")
}

// RepoRoot finds the binlite module root above the working directory.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.Contains(string(b), "module github.com/binlite/binlite\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run from inside the binlite repository (no go.mod of github.com/binlite/binlite above the current directory)")
		}
		dir = parent
	}
}

// SplitList splits a comma-separated flag value, dropping empty items.
func SplitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
