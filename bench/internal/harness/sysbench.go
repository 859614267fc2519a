package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"time"
)

// Sysbench drives the sysbench 1.0 OLTP Lua workloads through the mysql driver
// against one server (root, no password, 127.0.0.1).
type Sysbench struct {
	Bin       string // "sysbench"
	Port      int
	DB        string
	Tables    int
	TableSize int
	RandType  string // --rand-type: uniform, special, ...
	PSMode    string // --db-ps-mode: "" (sysbench's default, prepared statements) or "disable" (text protocol)
	LogDir    string // each invocation's output is kept here
}

// SysbenchResult is what one `sysbench ... run` reported.
type SysbenchResult struct {
	Transactions  int64   `json:"transactions"`
	TPS           float64 `json:"tps"`
	Queries       int64   `json:"queries"`
	IgnoredErrors int64   `json:"ignored_errors"`
	Reconnects    int64   `json:"reconnects"`
	TotalSeconds  float64 `json:"total_seconds"`
	LatAvgMs      float64 `json:"lat_avg_ms"`
	LatP95Ms      float64 `json:"lat_p95_ms"`
	LatMaxMs      float64 `json:"lat_max_ms"`
	CPUSeconds    float64 `json:"sysbench_cpu_seconds"` // sysbench's own user+system time
	LogPath       string  `json:"log"`
}

func (s *Sysbench) args(workload string) []string {
	args := []string{
		"--db-driver=mysql",
		"--mysql-host=127.0.0.1",
		"--mysql-port=" + strconv.Itoa(s.Port),
		"--mysql-user=root",
		"--mysql-password=",
		"--mysql-db=" + s.DB,
		"--tables=" + strconv.Itoa(s.Tables),
		"--table-size=" + strconv.Itoa(s.TableSize),
		"--rand-type=" + s.RandType,
	}
	if s.PSMode != "" {
		args = append(args, "--db-ps-mode="+s.PSMode)
	}
	return append(args, workload)
}

func (s *Sysbench) exec(ctx context.Context, logName string, args []string) ([]byte, *os.ProcessState, string, error) {
	cmd := exec.CommandContext(ctx, s.Bin, args...)
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	logPath := ""
	if s.LogDir != "" {
		logPath = s.LogDir + "/" + logName
		header := fmt.Sprintf("$ %s %q\n", s.Bin, args)
		os.WriteFile(logPath, append([]byte(header), out.Bytes()...), 0o644)
	}
	if ctx.Err() != nil {
		err = fmt.Errorf("sysbench killed after its deadline (server stalled?): %w", ctx.Err())
	}
	return out.Bytes(), cmd.ProcessState, logPath, err
}

// Prepare runs `sysbench WORKLOAD prepare` (creates and fills the tables).
func (s *Sysbench) Prepare(ctx context.Context, workload, logName string) error {
	out, _, _, err := s.exec(ctx, logName, append(s.args(workload), "prepare"))
	if err != nil {
		return fmt.Errorf("sysbench %s prepare: %w\n%s", workload, err, tail(out, 15))
	}
	return nil
}

// Run runs `sysbench WORKLOAD run` for seconds with threads and parses its report. A
// sysbench that outlives seconds by more than a minute is killed and reported.
func (s *Sysbench) Run(ctx context.Context, workload string, threads, seconds int, logName string) (SysbenchResult, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Duration(seconds)*time.Second+60*time.Second)
	defer cancel()
	args := append(s.args(workload), "--threads="+strconv.Itoa(threads), "--time="+strconv.Itoa(seconds),
		"--events=0", "--report-interval=0", "--percentile=95", "run")
	out, ps, logPath, err := s.exec(ctx, logName, args)
	if err != nil {
		return SysbenchResult{LogPath: logPath}, fmt.Errorf("sysbench %s run --threads=%d: %w\n%s", workload, threads, err, tail(out, 15))
	}
	r, err := ParseSysbench(out)
	r.LogPath = logPath
	if ps != nil {
		r.CPUSeconds = (ps.UserTime() + ps.SystemTime()).Seconds()
	}
	if err != nil {
		return r, fmt.Errorf("sysbench %s run --threads=%d: %w\n%s", workload, threads, err, tail(out, 15))
	}
	return r, nil
}

var (
	reTxns    = regexp.MustCompile(`(?m)^\s*transactions:\s+(\d+)\s+\(([\d.]+) per sec\.\)`)
	reQueries = regexp.MustCompile(`(?m)^\s*queries:\s+(\d+)\s+\(`)
	reIgnored = regexp.MustCompile(`(?m)^\s*ignored errors:\s+(\d+)\s`)
	reReconn  = regexp.MustCompile(`(?m)^\s*reconnects:\s+(\d+)\s`)
	reTotal   = regexp.MustCompile(`(?m)^\s*total time:\s+([\d.]+)s`)
	reLatAvg  = regexp.MustCompile(`(?m)^\s*avg:\s+([\d.]+)$`)
	reLatMax  = regexp.MustCompile(`(?m)^\s*max:\s+([\d.]+)$`)
	reLatP95  = regexp.MustCompile(`(?m)^\s*95th percentile:\s+([\d.]+)$`)
)

// ParseSysbench reads the final report of a sysbench 1.0 OLTP run.
func ParseSysbench(out []byte) (SysbenchResult, error) {
	var r SysbenchResult
	m := reTxns.FindSubmatch(out)
	if m == nil {
		return r, errors.New("no \"transactions: N (X per sec.)\" line in sysbench output")
	}
	r.Transactions, _ = strconv.ParseInt(string(m[1]), 10, 64)
	r.TPS, _ = strconv.ParseFloat(string(m[2]), 64)
	m = reIgnored.FindSubmatch(out)
	if m == nil {
		return r, errors.New("no \"ignored errors\" line in sysbench output")
	}
	r.IgnoredErrors, _ = strconv.ParseInt(string(m[1]), 10, 64)
	m = reLatP95.FindSubmatch(out)
	if m == nil {
		return r, errors.New("no \"95th percentile\" line in sysbench output")
	}
	r.LatP95Ms, _ = strconv.ParseFloat(string(m[1]), 64)
	if m = reQueries.FindSubmatch(out); m != nil {
		r.Queries, _ = strconv.ParseInt(string(m[1]), 10, 64)
	}
	if m = reReconn.FindSubmatch(out); m != nil {
		r.Reconnects, _ = strconv.ParseInt(string(m[1]), 10, 64)
	}
	if m = reTotal.FindSubmatch(out); m != nil {
		r.TotalSeconds, _ = strconv.ParseFloat(string(m[1]), 64)
	}
	if m = reLatAvg.FindSubmatch(out); m != nil {
		r.LatAvgMs, _ = strconv.ParseFloat(string(m[1]), 64)
	}
	if m = reLatMax.FindSubmatch(out); m != nil {
		r.LatMaxMs, _ = strconv.ParseFloat(string(m[1]), 64)
	}
	return r, nil
}

// SysbenchVersion is the first line of `sysbench --version`.
func SysbenchVersion(bin string) string {
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return "unknown"
	}
	return string(bytes.TrimSpace(out))
}

func tail(b []byte, n int) string {
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}
