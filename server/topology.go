package server

import (
	"context"
	_ "embed"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// The topology page (GET /) is one self-contained HTML file: it draws this node,
// the sources of its channels and the replicas connected to it, and refreshes from
// /status and /status/history once a second. The history is a ring buffer of
// per-second samples kept by the node, so a freshly opened page has the last
// minutes of throughput and lag to chart.

//go:embed topology.html
var topologyPage []byte

// historySize is how many per-second samples the node keeps (five minutes).
const historySize = 300

// Sample is one second of the node's history.
type Sample struct {
	Time      int64                    `json:"t"` // unix milliseconds
	Committed float64                  `json:"committed_per_s"`
	Channels  map[string]ChannelSample `json:"channels,omitempty"`
}

// ChannelSample is one channel's state in a Sample.
type ChannelSample struct {
	Applied float64 `json:"applied_per_s"`
	Lag     *int64  `json:"lag_seconds"` // Seconds_Behind_Source; null when not applying
	Behind  uint64  `json:"gtids_behind"`
}

// History is the JSON document served at /status/history.
type History struct {
	IntervalSeconds int      `json:"interval_seconds"`
	Samples         []Sample `json:"samples"`
}

// ReplicaInfo is a replica registered with this node (SHOW REPLICAS).
type ReplicaInfo struct {
	ServerID         uint32 `json:"server_id"`
	Host             string `json:"host"`
	Port             uint16 `json:"port"`
	UUID             string `json:"replica_uuid"`
	ConnectedSeconds int64  `json:"connected_seconds"`
}

// history is the ring of samples and the counters the next rate is taken from.
type history struct {
	mu      sync.Mutex
	ring    [historySize]Sample
	next    int
	n       int
	last    time.Time
	commits uint64
	applied map[string]uint64
}

func (h *history) add(s Sample) {
	h.mu.Lock()
	h.ring[h.next] = s
	h.next = (h.next + 1) % historySize
	h.n = min(h.n+1, historySize)
	h.mu.Unlock()
}

// since returns the samples newer than t (unix ms), oldest first.
func (h *history) since(t int64) []Sample {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]Sample, 0, h.n)
	for i := range h.n {
		s := h.ring[(h.next-h.n+i+historySize)%historySize]
		if s.Time > t {
			out = append(out, s)
		}
	}
	return out
}

// sample takes one second's rates from the node's counters. Only the sampler
// goroutine calls it, so the counters need no lock of their own.
func (n *Node) sample(now time.Time) {
	h := n.hist
	commits := n.log.Stats().Transactions
	links := n.replicas.Links()
	lags := n.channelLags()
	secs := now.Sub(h.last).Seconds()
	first := h.last.IsZero()
	rate := func(cur, prev uint64) float64 {
		if secs <= 0 || cur < prev {
			return 0
		}
		return float64(cur-prev) / secs
	}
	s := Sample{Time: now.UnixMilli(), Committed: rate(commits, h.commits)}
	applied := make(map[string]uint64, len(links))
	for _, l := range links {
		if s.Channels == nil {
			s.Channels = map[string]ChannelSample{}
		}
		prev, seen := h.applied[l.Channel]
		if !seen {
			prev = l.Applied
		}
		s.Channels[l.Channel] = ChannelSample{Applied: rate(l.Applied, prev), Lag: lags[l.Channel], Behind: l.Behind}
		applied[l.Channel] = l.Applied
	}
	h.last, h.commits, h.applied = now, commits, applied
	if !first { // the first call only reads the counters the rates start from
		h.add(s)
	}
}

// channelLags is each channel's Seconds_Behind_Source (nil when NULL).
func (n *Node) channelLags() map[string]*int64 {
	out := map[string]*int64{}
	for _, row := range n.replicas.Status("", true) {
		var name string
		var lag *int64
		for _, f := range row {
			switch f.Name {
			case "Channel_Name":
				name, _ = f.Value.(string)
			case "Seconds_Behind_Source":
				if v, ok := f.Value.(int64); ok {
					lag = &v
				}
			}
		}
		out[name] = lag
	}
	return out
}

// runHistory samples once a second until the node closes.
func (n *Node) runHistory(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	n.sample(time.Now())
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			n.sample(now)
		}
	}
}

func (n *Node) replicaInfo() []ReplicaInfo {
	regs := n.source.Replicas()
	out := make([]ReplicaInfo, len(regs))
	for i, r := range regs {
		out[i] = ReplicaInfo{ServerID: r.ServerID, Host: r.Host, Port: r.Port, UUID: r.UUID,
			ConnectedSeconds: int64(time.Since(r.Since).Seconds())}
	}
	return out
}

// role names what the node is in its topology.
func role(channels, replicas int) string {
	switch {
	case channels > 0 && replicas > 0:
		return "intermediate"
	case channels > 0:
		return "replica"
	case replicas > 0:
		return "source"
	}
	return "standalone"
}

// serveTopology registers the page and the history on mux.
func (n *Node) serveTopology(mux *http.ServeMux) {
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		// Everything is inline; the page talks only to this endpoint.
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		w.Write(topologyPage)
	})
	mux.HandleFunc("GET /status/history", func(w http.ResponseWriter, r *http.Request) {
		since, _ := strconv.ParseInt(r.URL.Query().Get("since"), 10, 64)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		json.NewEncoder(w).Encode(History{IntervalSeconds: 1, Samples: n.hist.since(since)})
	})
}
