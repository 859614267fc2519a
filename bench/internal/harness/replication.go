package harness

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// What the replication benchmarks share: the seed experiments' sbtest table, its
// deterministic content, the sysbench script that queues the updates, replica
// restarts from a copied data directory, and the status queries of both systems.

// SeedTableDDL is the table of the seed experiments (seeds/000 and seeds/002), as
// MySQL DDL, created in every schema under test.
const SeedTableDDL = "CREATE TABLE sbtest (id int(10) unsigned NOT NULL AUTO_INCREMENT, " +
	"k int(10) unsigned NOT NULL DEFAULT '0', c char(120) NOT NULL DEFAULT '', " +
	"pad char(60) NOT NULL DEFAULT '', PRIMARY KEY (id), KEY k (k)) ENGINE=InnoDB DEFAULT CHARSET=latin1"

// UpdateKScript is a sysbench 1.0 Lua script whose every event is one autocommit
// `UPDATE sbtest SET k=k+1 WHERE id=<uniform 1..table_size>`, the seeds' "update key"
// statement. --tables is accepted (and ignored) so that Sysbench's usual options apply.
const UpdateKScript = `-- Written by the binlite replication benchmarks: one single-row update per event.
sysbench.cmdline.options = {
  table_size = {"rows in sbtest; ids are drawn uniformly from 1..table_size", 10000},
  tables = {"ignored", 1},
}

function thread_init()
  drv = sysbench.sql.driver()
  con = drv:connect()
end

function event()
  con:query("UPDATE sbtest SET k=k+1 WHERE id=" .. sysbench.rand.uniform(1, sysbench.opt.table_size))
end

function thread_done()
  con:disconnect()
end
`

// WriteUpdateKScript writes UpdateKScript into dir and returns its path.
func WriteUpdateKScript(dir string) (string, error) {
	p := filepath.Join(dir, "update_k.lua")
	return p, os.WriteFile(p, []byte(UpdateKScript), 0o644)
}

// RunEvents runs `sysbench SCRIPT run` until threads have executed events events in
// total (--events, no time limit) and parses its report; a sysbench still running
// after limit is killed and reported.
func (s *Sysbench) RunEvents(ctx context.Context, script string, threads, events int, limit time.Duration, logName string) (SysbenchResult, error) {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	args := append(s.args(script), "--threads="+strconv.Itoa(threads), "--events="+strconv.Itoa(events), "--time=0",
		"--report-interval=0", "--percentile=95", "run")
	out, ps, logPath, err := s.exec(ctx, logName, args)
	if err != nil {
		return SysbenchResult{LogPath: logPath}, fmt.Errorf("sysbench %s --mysql-db=%s --threads=%d --events=%d: %w\n%s",
			filepath.Base(script), s.DB, threads, events, err, tail(out, 15))
	}
	r, err := ParseSysbench(out)
	r.LogPath = logPath
	if ps != nil {
		r.CPUSeconds = (ps.UserTime() + ps.SystemTime()).Seconds()
	}
	if err != nil {
		return r, fmt.Errorf("sysbench %s --mysql-db=%s: %w\n%s", filepath.Base(script), s.DB, err, tail(out, 15))
	}
	return r, nil
}

// SbtestRow is one row of the seed table as FillSbtest writes it.
type SbtestRow struct {
	ID, K  int64
	C, Pad string
}

// SbtestRows are rows 1..n of a schema, the same for every system: k uniform in
// 1..n, c and pad in sysbench's shape (groups of 11 random digits joined by '-',
// 119 and 59 characters), drawn from a generator seeded with seed.
func SbtestRows(n int, seed uint64) []SbtestRow {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	digits := func(groups int) string {
		b := make([]byte, 0, groups*12)
		for g := 0; g < groups; g++ {
			if g > 0 {
				b = append(b, '-')
			}
			for i := 0; i < 11; i++ {
				b = append(b, byte('0'+rng.IntN(10)))
			}
		}
		return string(b)
	}
	rows := make([]SbtestRow, n)
	for i := range rows {
		rows[i] = SbtestRow{ID: int64(i + 1), K: rng.Int64N(int64(n)) + 1, C: digits(10), Pad: digits(5)}
	}
	return rows
}

// FillSbtest inserts rows into schema.sbtest with multi-row INSERTs of batch rows
// (one autocommit transaction each).
func (s *Server) FillSbtest(ctx context.Context, schema string, rows []SbtestRow, batch int) error {
	for i := 0; i < len(rows); i += batch {
		var b strings.Builder
		b.WriteString("INSERT INTO " + schema + ".sbtest (id, k, c, pad) VALUES ")
		for j, r := range rows[i:min(i+batch, len(rows))] {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "(%d,%d,'%s','%s')", r.ID, r.K, r.C, r.Pad)
		}
		if _, err := s.db.ExecContext(ctx, b.String()); err != nil {
			return fmt.Errorf("%s: fill %s.sbtest: %w", s.Name, schema, err)
		}
	}
	return nil
}

// DB is the admin connection pool (at most two connections).
func (s *Server) DB() *sql.DB { return s.db }

// QueryString returns the first column of the first row of q ("" for NULL).
func (s *Server) QueryString(ctx context.Context, q string, args ...any) (string, error) {
	var v sql.NullString
	if err := s.db.QueryRowContext(ctx, q, args...).Scan(&v); err != nil {
		return "", fmt.Errorf("%s: %s: %w", s.Name, q, err)
	}
	return v.String, nil
}

// QueryInt returns the first column of the first row of q as an integer.
func (s *Server) QueryInt(ctx context.Context, q string, args ...any) (int64, error) {
	v, err := s.QueryString(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %s: not an integer: %q", s.Name, q, v)
	}
	return n, nil
}

// ReplicaStatus returns the first row of SHOW REPLICA STATUS (binlite) or SHOW SLAVE
// STATUS (MariaDB), column name → value; an empty map when no channel is configured.
func (s *Server) ReplicaStatus(ctx context.Context) (map[string]string, error) {
	q := "SHOW REPLICA STATUS"
	if s.Kind == "mariadb" {
		q = "SHOW SLAVE STATUS"
	}
	rows, err := s.db.QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", s.Name, q, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	if !rows.Next() {
		return out, rows.Err()
	}
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", s.Name, q, err)
	}
	for i, c := range cols {
		out[c] = vals[i].String
	}
	return out, rows.Err()
}

// GlobalStatus reads SHOW GLOBAL STATUS counters (MariaDB); a missing one is an error.
func (s *Server) GlobalStatus(ctx context.Context, names ...string) (map[string]uint64, error) {
	return s.globalStatus(ctx, names...)
}

// Metrics reads binlite's /metrics (metric name → value).
func (s *Server) Metrics(ctx context.Context) (map[string]float64, error) { return s.metrics(ctx) }

// MariaDBReplicaExtra are the options that make a MariaDB replica of the seeds'
// kind (ANCHORS.md): no binary log of its own, relay-log recovery at start (the
// crash-safe setting; it discards the relay log), no replication until START SLAVE,
// and a relay log name that does not depend on the host name. Pass them as MariaDBOptions.Extra; crash-safe positions live in the InnoDB
// table mysql.gtid_slave_pos (MASTER_USE_GTID=slave_pos).
func MariaDBReplicaExtra() []string {
	return []string{"--skip-log-bin", "--relay-log-recovery=ON", "--skip-slave-start", "--relay-log=mariadb-relay-bin"}
}

// StartMariaDBExisting starts mariadbd on the data directory o.Dir/data that already
// exists (e.g. restored from a copy), on a free loopback port, with MariaDBArgs
// followed by o.Extra.
func StartMariaDBExisting(ctx context.Context, o MariaDBOptions) (*Server, error) {
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

// Kill closes the admin connection and ends the server with SIGKILL, for a server
// whose data directory is about to be replaced anyway.
func (s *Server) Kill() error {
	if s.db != nil {
		s.db.Close()
	}
	return s.Proc.Kill()
}

// Kill sends SIGKILL to the PID and waits for the process to end.
func (p *Process) Kill() error {
	if exited, err := p.Exited(); exited {
		return fmt.Errorf("%s had already ended: %w", p.Name, err)
	}
	p.Resume()
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
	return nil
}

// CopyDir copies the regular files and directories under src to dst (which must not
// exist), keeping permission bits; other file types are an error.
func CopyDir(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.Mkdir(target, info.Mode().Perm())
		case info.Mode().IsRegular():
			return copyFile(path, target, info.Mode().Perm())
		default:
			return fmt.Errorf("copy %s: not a regular file or directory", path)
		}
	})
}

func copyFile(src, dst string, perm os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// DirSize is the total size of the regular files under dir.
func DirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}
