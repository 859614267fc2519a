package harness

import (
	"encoding/json"
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

// Workdir prepares a benchmark's scratch directory (a new temporary one when dir is
// empty) and its logs subdirectory.
func Workdir(dir, prog string) (workdir, logDir string, err error) {
	if dir == "" {
		if dir, err = os.MkdirTemp("", "binlite-bench-"+prog+"-"); err != nil {
			return "", "", err
		}
	} else if err = os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	logDir = filepath.Join(dir, "logs")
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		return "", "", err
	}
	return dir, logDir, nil
}

// LoadJSON reads a results file written by a benchmark (for --chart-only).
func LoadJSON[T any](path string) (*T, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &v, nil
}
