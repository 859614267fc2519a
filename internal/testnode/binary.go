package testnode

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// BuildBinary compiles ./cmd/binlite (with row capture enabled) into out, for tests
// that run the server as a separate process to kill it. Under the race detector
// (go test -race) the server is built with it too, so that the kill tests check the
// server's own goroutines; its reports go to the server's log.
func BuildBinary(out string) error {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return fmt.Errorf("go env GOMOD: %w", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(gomod)))
	if root == "." || root == "" {
		return fmt.Errorf("cannot find the module root (go env GOMOD = %q)", gomod)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	args := []string{"build", "-tags", "sqlite_preupdate_hook", "-o", out}
	if raceEnabled {
		args = append(args, "-race")
	}
	cmd := exec.CommandContext(ctx, "go", append(args, "./cmd/binlite")...)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/binlite: %w\n%s", err, b)
	}
	return nil
}
