package main

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/binlite/binlite/bench/internal/harness"
)

// semiStatus is the source's semi-sync status at one moment, and its commit-group
// counters (binlite: /status binlog_transactions and binlog_groups; MariaDB:
// Binlog_commits and Binlog_group_commits).
type semiStatus struct {
	On         bool   `json:"on"`
	Clients    uint64 `json:"clients"`
	YesTx      uint64 `json:"yes_tx"`
	NoTx       uint64 `json:"no_tx"`
	NoTimes    uint64 `json:"no_times"`
	TxWaits    uint64 `json:"tx_waits"`
	TxWaitUS   uint64 `json:"tx_wait_time_us"`
	AvgWaitUS  uint64 `json:"tx_avg_wait_time_us"`
	BinlogTxns uint64 `json:"binlog_txns"`
	Groups     uint64 `json:"binlog_groups"`
}

func readStatus(ctx context.Context, s *system) (semiStatus, error) {
	var st semiStatus
	p := s.srcPrefix()
	m, err := s.src.StatusLike(ctx, p+"%")
	if err != nil {
		return st, err
	}
	st.On = m[p+"status"] == "ON"
	st.Clients = harness.StatusUint(m, p+"clients")
	st.YesTx = harness.StatusUint(m, p+"yes_tx")
	st.NoTx = harness.StatusUint(m, p+"no_tx")
	st.NoTimes = harness.StatusUint(m, p+"no_times")
	st.TxWaits = harness.StatusUint(m, p+"tx_waits")
	st.TxWaitUS = harness.StatusUint(m, p+"tx_wait_time")
	st.AvgWaitUS = harness.StatusUint(m, p+"tx_avg_wait_time")
	if s.src.Kind == "mariadb" {
		g, err := s.src.StatusLike(ctx, "Binlog_%commits")
		if err != nil {
			return st, err
		}
		st.BinlogTxns, st.Groups = harness.StatusUint(g, "Binlog_commits"), harness.StatusUint(g, "Binlog_group_commits")
	} else {
		bs, err := s.src.FetchBinliteStatus(ctx)
		if err != nil {
			return st, err
		}
		st.BinlogTxns, st.Groups = bs.BinlogTxns, bs.BinlogGroups
	}
	return st, nil
}

// commit is one acknowledged INSERT: when the client heard back, and how long it took.
type commit struct {
	end time.Time
	lat time.Duration
}

const letters = "ABCDEFGHIJKLMNOPQRSTUVWXY" // the seed's 65 + rand(25)

// measure runs threads clients for cfg.Warmup + cfg.Seconds against s's source.
func measure(ctx context.Context, cfg *config, rep *Report, s *system, threads, repeat int) Run {
	run := Run{System: s.name, Threads: threads, Repeat: repeat}
	if s.dead != nil {
		run.Error = fmt.Sprintf("skipped: %v", s.dead)
		return run
	}
	fail := func(err error) Run {
		run.Error = err.Error()
		for _, srv := range []*harness.Server{s.src, s.rep} {
			if exited, werr := srv.Proc.Exited(); exited {
				s.dead = fmt.Errorf("%s ended: %v", srv.Name, werr)
				rep.problem("%s %d threads repeat %d: %s ended (%v); log tail:\n%s", s.name, threads, repeat, srv.Name, werr, srv.Proc.LogTail(30))
				return run
			}
		}
		rep.problem("%s %d threads repeat %d: %v", s.name, threads, repeat, err)
		return run
	}

	// Every client's connection is open before anything is timed.
	conns := make([]*sql.Conn, threads)
	defer func() {
		for _, c := range conns {
			if c != nil {
				c.Close()
			}
		}
	}()
	for i := range conns {
		c, err := s.client.Conn(ctx)
		if err == nil {
			// binlite takes writes for the session's current schema only.
			_, err = c.ExecContext(ctx, "USE "+schemaName(i%cfg.Schemas))
		}
		if err != nil {
			return fail(fmt.Errorf("connecting client %d: %w", i, err))
		}
		conns[i] = c
	}
	rows0, err := countRows(ctx, s.src, cfg.Schemas)
	if err != nil {
		return fail(err)
	}
	st0, err := readStatus(ctx, s)
	if err != nil {
		return fail(err)
	}

	var stop atomic.Bool
	var commits, failures atomic.Int64
	var firstErr atomic.Value
	lats := make([][]commit, threads)
	var wg sync.WaitGroup
	for i := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(repeat)<<32|uint64(threads)<<16|uint64(i), uint64(time.Now().UnixNano())))
			var txt [8]byte
			for !stop.Load() {
				for k := range txt {
					txt[k] = letters[rng.IntN(len(letters))]
				}
				q := "INSERT INTO foo (text) VALUES ('" + string(txt[:]) + "')"
				t0 := time.Now()
				// Never cancelled mid-statement: a commit in doubt would spoil the row check.
				_, err := conns[i].ExecContext(context.Background(), q)
				t1 := time.Now()
				if err != nil {
					failures.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
					if ctx.Err() != nil {
						return
					}
					time.Sleep(10 * time.Millisecond)
					continue
				}
				commits.Add(1)
				lats[i] = append(lats[i], commit{end: t1, lat: t1.Sub(t0)})
			}
		}()
	}
	sleepCtx(ctx, time.Duration(cfg.Warmup)*time.Second)
	stA, errA := readStatus(ctx, s)
	m0, _ := harness.ReadMachineCPU()
	own0 := ownCPU(s)
	t0 := time.Now()
	c0 := commits.Load()
	sleepCtx(ctx, time.Duration(cfg.Seconds)*time.Second)
	t1 := time.Now()
	c1 := commits.Load()
	m1, _ := harness.ReadMachineCPU()
	own1 := ownCPU(s)
	stB, errB := readStatus(ctx, s)
	stop.Store(true)
	wg.Wait()
	if ctx.Err() != nil {
		return fail(ctx.Err())
	}
	st2, err2 := readStatus(ctx, s)
	rows1, err3 := countRows(ctx, s.src, cfg.Schemas)
	for _, err := range []error{errA, errB, err2, err3} {
		if err != nil {
			return fail(err)
		}
	}

	run.Seconds = t1.Sub(t0).Seconds()
	busy := m1.Sub(m0).Busy
	run.MachineCores = busy / run.Seconds
	run.OtherCores = max(0, busy-(own1-own0)) / run.Seconds
	run.Commits = c1 - c0
	run.CommitsPerSec = float64(run.Commits) / run.Seconds
	run.TotalCommits = commits.Load()
	run.Failures = failures.Load()
	var ls []float64
	for _, per := range lats {
		for _, c := range per {
			if !c.end.Before(t0) && !c.end.After(t1) {
				ls = append(ls, float64(c.lat.Microseconds())/1000)
			}
		}
	}
	slow := float64(cfg.RTTms) * 1.5
	for _, l := range ls {
		if l > slow {
			run.SlowShare++
		}
	}
	if len(ls) > 0 {
		run.SlowShare /= float64(len(ls))
		run.LatP50Ms, run.LatP99Ms, run.LatMaxMs = harness.Quantile(ls, 0.5), harness.Quantile(ls, 0.99), harness.Quantile(ls, 1)
		run.LatMinMs = harness.Quantile(ls, 0)
	}
	run.Before, run.WarmEnd, run.TimedEnd, run.After = st0, stA, stB, st2
	if d := stB.Groups - stA.Groups; d > 0 {
		run.TxnsPerGroup = float64(stB.BinlogTxns-stA.BinlogTxns) / float64(d)
		run.GroupsPerSec = float64(d) / run.Seconds
	}
	if d := stB.TxWaits - stA.TxWaits; d > 0 {
		run.AvgWaitMs = float64(stB.TxWaitUS-stA.TxWaitUS) / float64(d) / 1000
	}

	var issues []string
	if run.Failures > 0 {
		issues = append(issues, fmt.Sprintf("%d INSERTs failed (first: %v)", run.Failures, firstErr.Load()))
	}
	if !(st0.On && stA.On && stB.On && st2.On) {
		issues = append(issues, fmt.Sprintf("semi-sync status not ON throughout (before %v, after warm-up %v, end of timing %v, after %v)", st0.On, stA.On, stB.On, st2.On))
	}
	if stB.NoTx != stA.NoTx || st2.NoTx != st0.NoTx || st2.NoTimes != st0.NoTimes {
		issues = append(issues, fmt.Sprintf("commits without acknowledgement: no_tx %d → %d (timed window %d → %d), no_times %d → %d",
			st0.NoTx, st2.NoTx, stA.NoTx, stB.NoTx, st0.NoTimes, st2.NoTimes))
	}
	if rows1-rows0 != run.TotalCommits {
		issues = append(issues, fmt.Sprintf("rows grew by %d, clients counted %d acknowledged INSERTs", rows1-rows0, run.TotalCommits))
	}
	run.YesTxDelta = st2.YesTx - st0.YesTx
	if run.YesTxDelta != uint64(run.TotalCommits) {
		run.Notes = append(run.Notes, fmt.Sprintf("yes_tx grew by %d for %d commits", run.YesTxDelta, run.TotalCommits))
	}
	if len(issues) > 0 {
		run.Check = strings.Join(issues, "; ")
		rep.problem("%s %d threads repeat %d: %s", s.name, threads, repeat, run.Check)
	} else {
		run.Check = "ok"
	}
	return run
}

// ownCPU is the CPU time of everything this benchmark runs for s: its source and
// replica, and this process (clients and the proxy).
func ownCPU(s *system) float64 {
	a, _ := s.src.Proc.CPUSeconds()
	b, _ := s.rep.Proc.CPUSeconds()
	c, _ := harness.ProcCPUSeconds(os.Getpid())
	return a + b + c
}

func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
