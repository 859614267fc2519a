package main

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/binlite/binlite/bench/internal/harness"
)

// Sample is one reading of the pair, replica first.
type Sample struct {
	T             float64 `json:"t"`              // seconds from the start of the load to the replica's answer
	TSrc          float64 `json:"t_src"`          // ... to the source's answer
	Load          bool    `json:"load"`           // sysbench was still running
	SBS           float64 `json:"sbs"`            // Seconds_Behind_Source (-1: NULL)
	SrcLast       uint64  `json:"src_last"`       // the source's highest GTID sequence number
	Distance      uint64  `json:"distance"`       // source transactions the replica has not applied
	OldestMissing uint64  `json:"oldest_missing"` // sequence number of the oldest of them (0: none)
	LagSec        float64 `json:"lag_s"`          // how long ago the source committed OldestMissing (0: none)
	ReplicaError  string  `json:"replica_error,omitempty"`

	tRep, tSrc time.Time
}

// SysbenchBrief is one sysbench process's report.
type SysbenchBrief struct {
	DB            string  `json:"db"`
	TPS           float64 `json:"tps"`
	Transactions  int64   `json:"transactions"`
	IgnoredErrors int64   `json:"ignored_errors"`
	Reconnects    int64   `json:"reconnects"`
	LatP95Ms      float64 `json:"lat_p95_ms"`
	Seconds       float64 `json:"seconds"`
	Log           string  `json:"log,omitempty"`
}

// Window is the worst of the samples in a slice of time.
type Window struct {
	From         float64 `json:"from_s"`
	To           float64 `json:"to_s"` // 0 for the drain window
	Label        string  `json:"label"`
	MaxSBS       float64 `json:"max_sbs"`
	MaxDistance  float64 `json:"max_distance"`
	MaxLagMs     float64 `json:"max_lag_ms"`
	SourceTPS    float64 `json:"source_commits_per_s"`
	ReplicaTPS   float64 `json:"replica_applied_per_s"`
	SamplesCount int     `json:"samples"`
}

// Run is one load against one pair.
type Run struct {
	System            string          `json:"system"`
	Mode              string          `json:"mode"`
	Schemas           int             `json:"schemas"`
	ThreadsPerProcess int             `json:"threads_per_sysbench"`
	Seconds           int             `json:"seconds"`
	SampleMS          int             `json:"sample_ms"`
	LoadSeconds       float64         `json:"load_seconds"` // from the start of the load until the last sysbench ended
	TPS               float64         `json:"source_tps"`   // sum of the sysbench processes' tps
	Transactions      int64           `json:"transactions"`
	IgnoredErrors     int64           `json:"ignored_errors"`
	GTIDs             uint64          `json:"gtids_issued"`
	Sysbench          []SysbenchBrief `json:"sysbench"`
	MachineCores      float64         `json:"machine_busy_cores"`
	ServerCores       float64         `json:"servers_cpu_cores"` // source + replica
	SourceCores       float64         `json:"source_cpu_cores"`
	ReplicaCores      float64         `json:"replica_cpu_cores"`
	AppliedInLoad     float64         `json:"replica_applied_during_load"` // from the first to the last sample taken during the load
	SysbenchCores     float64         `json:"sysbench_cpu_cores"`
	OtherCores        float64         `json:"other_cores"` // processes outside the benchmark

	// Over every sample from the start of the load until the replica caught up.
	Samples        int      `json:"samples_count"`
	SBSNulls       int      `json:"sbs_null_samples"`
	MaxSBS         float64  `json:"max_seconds_behind_source"`
	P99SBS         float64  `json:"p99_seconds_behind_source"`
	MaxDistance    float64  `json:"max_gtid_distance"`
	P99Distance    float64  `json:"p99_gtid_distance"`
	MedianDistance float64  `json:"median_gtid_distance"`
	MaxLagSec      float64  `json:"max_gtid_lag_s"`
	P99LagSec      float64  `json:"p99_gtid_lag_s"`
	CatchUpSec     float64  `json:"catch_up_s"` // from the end of the load until the replica had everything (-1: never)
	FellBehind1s   bool     `json:"fell_behind_1s"`
	ReplicaErrors  int      `json:"replica_error_samples"`
	Windows        []Window `json:"windows"`
	Checksum       string   `json:"checksum"`
	Notes          []string `json:"notes,omitempty"`
	Error          string   `json:"error,omitempty"`
	SampleData     []Sample `json:"samples"`
}

func (r Run) brief() string {
	if r.Error != "" {
		return "ERROR " + r.Error
	}
	return fmt.Sprintf("source %.0f tps; Seconds_Behind_Source max %.0f p99 %.0f; GTID distance max %.0f p99 %.0f; GTID lag max %.3f s p99 %.3f s; caught up %.2f s after the load; checksum %s",
		r.TPS, r.MaxSBS, r.P99SBS, r.MaxDistance, r.P99Distance, r.MaxLagSec, r.P99LagSec, r.CatchUpSec, r.Checksum)
}

// summarize derives the lag in seconds of every sample and the run's figures.
func (r *Run) summarize(sampleMS int) {
	s := r.SampleData
	lagSeconds(s)
	r.Samples = len(s)
	r.SBSNulls, r.ReplicaErrors = 0, 0
	var sbs, dist, lag []float64
	for _, x := range s {
		if x.SBS < 0 {
			r.SBSNulls++
		} else {
			sbs = append(sbs, x.SBS)
		}
		if x.ReplicaError != "" {
			r.ReplicaErrors++
		}
		dist = append(dist, float64(x.Distance))
		lag = append(lag, x.LagSec)
	}
	q := func(xs []float64, p float64) float64 {
		if len(xs) == 0 {
			return -1 // no data (JSON has no NaN)
		}
		return harness.Quantile(xs, p)
	}
	r.MaxSBS, r.P99SBS = q(sbs, 1), q(sbs, 0.99)
	r.MaxDistance, r.P99Distance, r.MedianDistance = q(dist, 1), q(dist, 0.99), q(dist, 0.5)
	r.MaxLagSec, r.P99LagSec = q(lag, 1), q(lag, 0.99)
	r.CatchUpSec = -1
	for _, x := range s {
		if !x.Load && x.Distance == 0 {
			r.CatchUpSec = max(0, x.T-r.LoadSeconds)
			break
		}
	}
	r.FellBehind1s = r.MaxSBS >= 1 || r.MaxLagSec > 1 || r.CatchUpSec < 0 || r.SBSNulls > 0
	r.Windows = windows(s, r.LoadSeconds, 10)
	r.AppliedInLoad = 0
	var first, last *Sample
	for i := range s {
		if s[i].Load {
			if first == nil {
				first = &s[i]
			}
			last = &s[i]
		}
	}
	if first != nil {
		applied := func(x *Sample) float64 { return float64(x.SrcLast) - float64(x.Distance) }
		r.AppliedInLoad = applied(last) - applied(first)
	}
}

// lagSeconds sets LagSec of every sample: the time since the source committed the
// oldest transaction the replica had not applied, estimated from the source's
// highest sequence number over time (linear between two source readings; the
// readings are SampleMS apart, so the estimate is good to about that).
func lagSeconds(s []Sample) {
	for i := range s {
		m := s[i].OldestMissing
		s[i].LagSec = 0
		if m == 0 {
			continue
		}
		j := sort.Search(len(s), func(k int) bool { return s[k].SrcLast >= m })
		if j >= len(s) {
			continue
		}
		tau := s[j].TSrc
		if j > 0 && s[j].SrcLast > s[j-1].SrcLast {
			a, b := s[j-1], s[j]
			frac := float64(m-a.SrcLast) / float64(b.SrcLast-a.SrcLast)
			tau = a.TSrc + frac*(b.TSrc-a.TSrc)
		}
		s[i].LagSec = max(0, s[i].T-tau)
	}
}

// windows cuts the samples into step-second slices of the load, plus one for the
// drain after it.
func windows(s []Sample, loadSeconds, step float64) []Window {
	var out []Window
	n := int(math.Ceil(loadSeconds/step - 0.05))
	for w := 0; w <= n; w++ {
		from, to := float64(w)*step, float64(w+1)*step
		label := fmt.Sprintf("%.0f–%.0f", from, math.Min(to, loadSeconds))
		if w == n {
			from, to, label = loadSeconds, math.Inf(1), "drain"
		} else if to > loadSeconds {
			to = loadSeconds
		}
		win := Window{From: from, To: to, Label: label}
		var first, last *Sample
		for i := range s {
			x := &s[i]
			if x.T < from || x.T >= to {
				continue
			}
			if first == nil {
				first = x
			}
			last = x
			win.SamplesCount++
			win.MaxSBS = math.Max(win.MaxSBS, x.SBS)
			win.MaxDistance = math.Max(win.MaxDistance, float64(x.Distance))
			win.MaxLagMs = math.Max(win.MaxLagMs, x.LagSec*1000)
		}
		if first != nil && last != first && last.TSrc > first.TSrc {
			dt := last.TSrc - first.TSrc
			win.SourceTPS = float64(last.SrcLast-first.SrcLast) / dt
			applied := func(x *Sample) float64 { return float64(x.SrcLast) - float64(x.Distance) }
			win.ReplicaTPS = (applied(last) - applied(first)) / (last.T - first.T)
		}
		if math.IsInf(to, 1) {
			win.To = 0
		}
		if win.SamplesCount > 0 || w < n {
			out = append(out, win)
		}
	}
	return out
}
