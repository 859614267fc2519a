package difftest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/binlite/binlite/internal/testnode"
)

// MariaDBPaths are where Debian's mariadb-server package installs the server.
var MariaDBPaths = struct{ Server, InstallDB string }{"/usr/sbin/mariadbd", "/usr/bin/mariadb-install-db"}

// ErrNoMariaDB says the expected side of the comparison is not installed.
var ErrNoMariaDB = errors.New("mariadbd is not installed: install Debian's mariadb-server package " +
	"(apt-get install mariadb-server; .ci/run does) to run the differential compatibility suite")

// MySQLSQLMode is MySQL 8.4's default sql_mode, set explicitly on MariaDB (whose
// default differs).
const MySQLSQLMode = "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE," +
	"ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION"

// MariaDBArgs are mariadbd's options: MySQL 8.4's defaults where MariaDB's differ
// (sql_mode, utf8mb4, explicit_defaults_for_timestamp), time_zone '+00:00', our own
// data directory, socket and port, and nothing read from the system's option files.
// The collation is utf8mb4_general_ci: MySQL 8.4's default utf8mb4_0900_ai_ci does
// not exist in MariaDB 10.11.
func MariaDBArgs(dir, socket string, port int) []string {
	args := []string{
		"--no-defaults",
		"--datadir=" + filepath.Join(dir, "data"),
		"--socket=" + socket,
		"--pid-file=" + filepath.Join(dir, "mariadbd.pid"),
		"--log-error=" + filepath.Join(dir, "error.log"),
		"--port=" + strconv.Itoa(port),
		"--bind-address=127.0.0.1",
		"--skip-log-bin",
		"--innodb-buffer-pool-size=64M",
		"--innodb-flush-log-at-trx-commit=2", // a test database: no fsync per commit
		"--sql-mode=" + MySQLSQLMode,
		"--character-set-server=utf8mb4",
		"--collation-server=utf8mb4_general_ci",
		"--explicit-defaults-for-timestamp=ON",
		"--default-time-zone=+00:00",
	}
	if os.Geteuid() == 0 {
		args = append(args, "--user=root")
	}
	return args
}

// MariaDB is our own mariadbd process.
type MariaDB struct {
	Dir     string
	Port    int
	Socket  string
	Version string
	cmd     *exec.Cmd
	done    chan struct{} // closed when the process has ended
	waitErr error
}

// StartMariaDB initialises a data directory under dir and starts mariadbd on it,
// waiting until it accepts a session on its socket.
func StartMariaDB(dir string) (*MariaDB, error) {
	if _, err := os.Stat(MariaDBPaths.Server); err != nil {
		if p, lerr := exec.LookPath("mariadbd"); lerr == nil {
			MariaDBPaths.Server = p
		} else {
			return nil, ErrNoMariaDB
		}
	}
	installDB := MariaDBPaths.InstallDB
	if _, err := os.Stat(installDB); err != nil {
		p, lerr := exec.LookPath("mariadb-install-db")
		if lerr != nil {
			return nil, ErrNoMariaDB
		}
		installDB = p
	}
	logPath := filepath.Join(dir, "mariadbd.log")
	install := []string{"--no-defaults", "--datadir=" + filepath.Join(dir, "data"),
		"--auth-root-authentication-method=normal", "--skip-test-db"}
	if os.Geteuid() == 0 {
		install = append(install, "--user=root")
	}
	cmd := exec.Command(installDB, install...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("mariadb-install-db %v: %w\n%s", install, err, out)
	}
	port, err := testnode.FreePort()
	if err != nil {
		return nil, err
	}
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	// A unix socket's path has at most 107 bytes: a deep test directory gets its
	// socket in a short directory of its own.
	socket := filepath.Join(dir, "sock")
	if len(socket) > 100 {
		short, err := os.MkdirTemp("/tmp", "difftest")
		if err != nil {
			return nil, err
		}
		socket = filepath.Join(short, "sock")
	}
	m := &MariaDB{Dir: dir, Port: port, Socket: socket, done: make(chan struct{})}
	m.cmd = exec.Command(MariaDBPaths.Server, MariaDBArgs(dir, socket, port)...)
	m.cmd.Stdout, m.cmd.Stderr = logf, logf
	// If the test binary dies, the kernel stops mariadbd too.
	m.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	if err := m.cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("start mariadbd: %w", err)
	}
	go func() {
		m.waitErr = m.cmd.Wait()
		logf.Close()
		close(m.done)
	}()
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case <-m.done:
			m.removeShortDir()
			return nil, fmt.Errorf("mariadbd ended during start-up (%v):\n%s", m.waitErr, fileTail(filepath.Join(dir, "error.log"), 20))
		default:
		}
		c, err := Dial("MariaDB", m.Addr())
		if err == nil {
			// MariaDB prefixes its version with 5.5.5- for old replication clients.
			m.Version = strings.TrimPrefix(c.c.GetServerVersion(), "5.5.5-")
			c.Close()
			return m, nil
		}
		if time.Now().After(deadline) {
			m.Stop()
			return nil, fmt.Errorf("mariadbd did not accept a session within 60s: %v\n%s", err, fileTail(filepath.Join(dir, "error.log"), 20))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Addr is where a client reaches the server: its unix socket.
func (m *MariaDB) Addr() string { return m.Socket }

// Stop stops mariadbd by its PID: SIGTERM, then SIGKILL if it has not ended
// within 30 s.
func (m *MariaDB) Stop() error {
	select {
	case <-m.done:
		return fmt.Errorf("mariadbd had already ended: %v", m.waitErr)
	default:
	}
	m.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-m.done:
		m.removeShortDir()
		return nil
	case <-time.After(30 * time.Second):
	}
	m.cmd.Process.Kill()
	<-m.done
	m.removeShortDir()
	return fmt.Errorf("mariadbd (pid %d) did not stop within 30s of SIGTERM; killed", m.cmd.Process.Pid)
}

// removeShortDir removes the socket's own directory if it is not in Dir.
func (m *MariaDB) removeShortDir() {
	if d := filepath.Dir(m.Socket); d != m.Dir {
		os.RemoveAll(d)
	}
}

// fileTail is the last n lines of a file, for error messages.
func fileTail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
