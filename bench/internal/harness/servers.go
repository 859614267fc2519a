package harness

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	_ "github.com/go-sql-driver/mysql" // the admin connection to the servers under test
)

// Server is a MySQL-protocol server under test, reachable as root without a password
// on 127.0.0.1:Port.
type Server struct {
	Name     string // shown in tables and charts
	Kind     string // "binlite" or "mariadb"
	Port     int
	HTTPPort int // binlite's /metrics and /status; 0 for MariaDB
	Proc     *Process
	Version  string
	Logs     []string // log files to scan for errors after the run

	db *sql.DB
}

// BinliteOptions start a binlite node.
type BinliteOptions struct {
	Bin      string // the binlite binary
	DataDir  string
	LogPath  string
	ConfPath string            // option file written from Options
	Options  map[string]string // [mysqld] settings, MySQL option names
	ServerID int
}

// StartBinlite starts `binlite serve` and waits until it answers.
func StartBinlite(ctx context.Context, o BinliteOptions) (*Server, error) {
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	httpPort, err := FreePort()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(o.DataDir, 0o755); err != nil {
		return nil, err
	}
	args := []string{"serve", "--datadir", o.DataDir, "--port", strconv.Itoa(port),
		"--server-id", strconv.Itoa(o.ServerID), "--http-port", strconv.Itoa(httpPort)}
	if len(o.Options) > 0 {
		var b strings.Builder
		b.WriteString("[mysqld]\n")
		keys := make([]string, 0, len(o.Options))
		for k := range o.Options {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "%s = %s\n", k, o.Options[k])
		}
		if err := os.WriteFile(o.ConfPath, []byte(b.String()), 0o644); err != nil {
			return nil, err
		}
		args = append(args, "--config", o.ConfPath)
	}
	p, err := StartProcess("binlite", o.LogPath, o.Bin, args...)
	if err != nil {
		return nil, err
	}
	s := &Server{Name: "binlite", Kind: "binlite", Port: port, HTTPPort: httpPort, Proc: p, Logs: []string{o.LogPath}}
	if err := s.connect(ctx, 30*time.Second); err != nil {
		p.Stop(10 * time.Second)
		return nil, err
	}
	return s, nil
}

// MariaDBOptions start our own mariadbd.
type MariaDBOptions struct {
	Mariadbd  string // /usr/sbin/mariadbd
	InstallDB string // mariadb-install-db
	Dir       string // holds data/, the socket, the pid file and the error log
	LogPath   string // stdout/stderr of mariadbd and of the install
	ServerID  int
	Extra     []string // further --options, e.g. "--binlog-format=ROW"
}

// MariaDBArgs are the server options every benchmark uses unless it overrides them
// with Extra: durable commits with the binary log on, as in the project's ANCHORS.md.
func MariaDBArgs(dir string, port, serverID int) []string {
	args := []string{
		"--no-defaults",
		"--datadir=" + filepath.Join(dir, "data"),
		"--socket=" + filepath.Join(dir, "mariadb.sock"),
		"--pid-file=" + filepath.Join(dir, "mariadb.pid"),
		"--log-error=" + filepath.Join(dir, "error.log"),
		"--port=" + strconv.Itoa(port),
		"--bind-address=127.0.0.1",
		"--server-id=" + strconv.Itoa(serverID),
		"--log-bin=" + filepath.Join(dir, "data", "mariadb-bin"),
		"--sync-binlog=1",
		"--innodb-flush-log-at-trx-commit=1",
		"--innodb-buffer-pool-size=1G",
		"--innodb-flush-method=O_DIRECT",
		"--character-set-server=latin1",
		"--collation-server=latin1_swedish_ci",
		"--max-connections=500",
	}
	if os.Geteuid() == 0 {
		args = append(args, "--user=root")
	}
	return args
}

// StartMariaDB initialises a fresh data directory (root@localhost without a password)
// and starts mariadbd on a free loopback port.
func StartMariaDB(ctx context.Context, o MariaDBOptions) (*Server, error) {
	data := filepath.Join(o.Dir, "data")
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, err
	}
	install := []string{"--no-defaults", "--datadir=" + data, "--auth-root-authentication-method=normal", "--skip-test-db"}
	if os.Geteuid() == 0 {
		install = append(install, "--user=root")
	}
	logf, err := os.OpenFile(o.LogPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, o.InstallDB, install...)
	cmd.Stdout, cmd.Stderr = logf, logf
	err = cmd.Run()
	logf.Close()
	if err != nil {
		return nil, fmt.Errorf("mariadb-install-db: %w\n%s", err, FileTail(o.LogPath, 20))
	}
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	args := append(MariaDBArgs(o.Dir, port, o.ServerID), o.Extra...)
	p, err := StartProcess("mariadbd", o.LogPath, o.Mariadbd, args...)
	if err != nil {
		return nil, err
	}
	s := &Server{Name: "MariaDB", Kind: "mariadb", Port: port, Proc: p,
		Logs: []string{o.LogPath, filepath.Join(o.Dir, "error.log")}}
	if err := s.connect(ctx, 120*time.Second); err != nil {
		p.Stop(60 * time.Second)
		return nil, fmt.Errorf("%w\n%s", err, FileTail(filepath.Join(o.Dir, "error.log"), 20))
	}
	return s, nil
}

func (s *Server) connect(ctx context.Context, within time.Duration) error {
	db, err := sql.Open("mysql", fmt.Sprintf("root@tcp(127.0.0.1:%d)/?timeout=5s&readTimeout=120s&writeTimeout=60s", s.Port))
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(2)
	db.SetMaxIdleConns(1)
	deadline := time.Now().Add(within)
	for {
		if exited, werr := s.Proc.Exited(); exited {
			db.Close()
			return fmt.Errorf("%s ended during start-up (%v):\n%s", s.Name, werr, s.Proc.LogTail(20))
		}
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err = db.PingContext(pctx)
		cancel()
		if err == nil {
			break
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			db.Close()
			return fmt.Errorf("%s did not answer on port %d within %v: %w\n%s", s.Name, s.Port, within, err, s.Proc.LogTail(20))
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.db = db
	return db.QueryRowContext(ctx, "SELECT @@version").Scan(&s.Version)
}

// Exec runs statements on the admin connection.
func (s *Server) Exec(ctx context.Context, stmts ...string) error {
	for _, q := range stmts {
		if _, err := s.db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %s: %w", s.Name, q, err)
		}
	}
	return nil
}

// Variables reads global variables (SELECT @@name for each).
func (s *Server) Variables(ctx context.Context, names ...string) (map[string]string, error) {
	out := map[string]string{}
	for _, n := range names {
		var v sql.NullString
		if err := s.db.QueryRowContext(ctx, "SELECT @@"+n).Scan(&v); err != nil {
			return nil, fmt.Errorf("%s: @@%s: %w", s.Name, n, err)
		}
		out[n] = v.String
	}
	return out, nil
}

// Unknown is what Settings reports for a variable the server does not have.
const Unknown = "(unknown)"

// Settings reads each variable on its own, reporting the ones the server does not
// know (MariaDB and binlite differ) as Unknown.
func (s *Server) Settings(ctx context.Context, names ...string) map[string]string {
	out := map[string]string{}
	for _, n := range names {
		v, err := s.Variables(ctx, n)
		if err != nil {
			out[n] = Unknown
			continue
		}
		out[n] = v[n]
	}
	return out
}

// Stop closes the admin connection and stops the server by PID.
func (s *Server) Stop() error {
	if s.db != nil {
		s.db.Close()
	}
	return s.Proc.Stop(60 * time.Second)
}

// Counters are server-side figures read before and after a run; their differences
// check the run (every acknowledged transaction is in the binary log and the table)
// and explain it (transactions per group commit, fsyncs, CPU).
type Counters struct {
	SumK         int64   `json:"sum_k"`
	Rows         int64   `json:"rows"`
	BinlogTxns   uint64  `json:"binlog_txns"`   // binlite: binlog_transactions_total; MariaDB: Binlog_commits
	GTIDs        uint64  `json:"gtids"`         // transactions in the GTID set
	BinlogGroups uint64  `json:"binlog_groups"` // group commits
	Syncs        uint64  `json:"syncs"`         // binlite: binlog fdatasyncs; MariaDB: Innodb_data_fsyncs
	CPUSeconds   float64 `json:"cpu_seconds"`   // server process user+system
	// StorageCommits are binlite's SQLite commits of group commits (several binary-log
	// groups share one when its commit pipeline overlaps them); 0 for MariaDB.
	StorageCommits uint64 `json:"storage_commits,omitempty"`
}

// Sub returns c - b.
func (c Counters) Sub(b Counters) Counters {
	return Counters{
		SumK: c.SumK - b.SumK, Rows: c.Rows - b.Rows,
		BinlogTxns: c.BinlogTxns - b.BinlogTxns, GTIDs: c.GTIDs - b.GTIDs,
		BinlogGroups: c.BinlogGroups - b.BinlogGroups, Syncs: c.Syncs - b.Syncs,
		CPUSeconds: c.CPUSeconds - b.CPUSeconds, StorageCommits: c.StorageCommits - b.StorageCommits,
	}
}

// ReadCounters reads SUM(k) and COUNT(*) of table and the server's commit counters.
func (s *Server) ReadCounters(ctx context.Context, table string) (Counters, error) {
	var c Counters
	var sum sql.NullInt64
	if err := s.db.QueryRowContext(ctx, "SELECT SUM(k), COUNT(*) FROM "+table).Scan(&sum, &c.Rows); err != nil {
		return c, fmt.Errorf("%s: %w", s.Name, err)
	}
	c.SumK = sum.Int64
	switch s.Kind {
	case "binlite":
		m, err := s.metrics(ctx)
		if err != nil {
			return c, err
		}
		c.BinlogTxns = uint64(m["binlite_binlog_transactions_total"])
		c.GTIDs = uint64(m["binlite_gtid_executed_count"])
		c.BinlogGroups = uint64(m["binlite_binlog_groups_total"])
		c.Syncs = uint64(m["binlite_binlog_syncs_total"])
		c.StorageCommits = uint64(m["binlite_storage_commits_total"])
	case "mariadb":
		st, err := s.globalStatus(ctx, "Binlog_commits", "Binlog_group_commits", "Innodb_data_fsyncs")
		if err != nil {
			return c, err
		}
		c.BinlogTxns, c.BinlogGroups, c.Syncs = st["Binlog_commits"], st["Binlog_group_commits"], st["Innodb_data_fsyncs"]
		var pos string
		if err := s.db.QueryRowContext(ctx, "SELECT @@gtid_binlog_pos").Scan(&pos); err != nil {
			return c, fmt.Errorf("%s: %w", s.Name, err)
		}
		c.GTIDs = MariaDBGTIDCount(pos)
	}
	cpu, err := s.Proc.CPUSeconds()
	if err != nil {
		return c, err
	}
	c.CPUSeconds = cpu
	return c, nil
}

// MariaDBGTIDCount is the number of transactions a gtid_binlog_pos such as
// "0-1-100220" stands for with one server per domain (sum of the sequence numbers).
func MariaDBGTIDCount(pos string) uint64 {
	var n uint64
	for _, g := range strings.Split(pos, ",") {
		g = strings.TrimSpace(g)
		if i := strings.LastIndexByte(g, '-'); i >= 0 {
			v, _ := strconv.ParseUint(g[i+1:], 10, 64)
			n += v
		}
	}
	return n
}

func (s *Server) globalStatus(ctx context.Context, names ...string) (map[string]uint64, error) {
	out := map[string]uint64{}
	for _, n := range names {
		var name, v string
		err := s.db.QueryRowContext(ctx, "SHOW GLOBAL STATUS LIKE '"+n+"'").Scan(&name, &v)
		if err != nil {
			return nil, fmt.Errorf("%s: status %s: %w", s.Name, n, err)
		}
		out[n], _ = strconv.ParseUint(v, 10, 64)
	}
	return out, nil
}

// metrics reads binlite's Prometheus text exposition (metric name → value).
func (s *Server) metrics(ctx context.Context) (map[string]float64, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("http://127.0.0.1:%d/metrics", s.HTTPPort), nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s metrics: %w", s.Name, err)
	}
	defer resp.Body.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		name, val, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		if v, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
			out[name] = v
		}
	}
	return out, sc.Err()
}

// CPUProfile records binlite's CPU profile for d (through /debug/pprof) into path.
func (s *Server) CPUProfile(ctx context.Context, d time.Duration, path string) error {
	return s.Profile(ctx, fmt.Sprintf("profile?seconds=%d", max(1, int(d.Seconds()))), path)
}

// Profile saves binlite's /debug/pprof/<name> (e.g. "allocs", "heap") into path.
func (s *Server) Profile(ctx context.Context, name, path string) error {
	url := fmt.Sprintf("http://127.0.0.1:%d/debug/pprof/%s", s.HTTPPort, name)
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("%s profile: %w", s.Name, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s profile: %s", s.Name, resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return fmt.Errorf("%s profile: %w", s.Name, err)
	}
	return f.Close()
}
