package crashtest

import (
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// binPath is the binlite binary TestMain builds once for every test.
var binPath string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	// Killed servers make the driver log every broken connection; the tests
	// classify those errors themselves.
	mysql.SetLogger(log.New(io.Discard, "", 0))
	dir, err := os.MkdirTemp("", "binlite-crashtest-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "crashtest:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	binPath = filepath.Join(dir, "binlite")
	if err := buildBinary(binPath); err != nil {
		fmt.Fprintln(os.Stderr, "crashtest:", err)
		return 1
	}
	return m.Run()
}

// buildBinary compiles ./cmd/binlite from the module root with row capture enabled.
func buildBinary(out string) error {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return fmt.Errorf("go env GOMOD: %w", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(gomod)))
	if root == "." || root == "" {
		return fmt.Errorf("cannot find the module root (go env GOMOD = %q)", gomod)
	}
	cmd := exec.Command("go", "build", "-tags", "sqlite_preupdate_hook", "-o", out, "./cmd/binlite")
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/binlite: %w\n%s", err, b)
	}
	return nil
}
