package crashtest

import (
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"testing"

	"github.com/binlite/binlite/internal/testnode"

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
	if err := testnode.BuildBinary(binPath); err != nil {
		fmt.Fprintln(os.Stderr, "crashtest:", err)
		return 1
	}
	return m.Run()
}
