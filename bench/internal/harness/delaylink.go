package harness

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/rs/zerolog"
)

// DelayLink is an in-process toxiproxy TCP proxy on a free loopback port in front of
// a server, delaying every byte by a fixed time in each direction: point a replica
// at Port instead of the source and the replication link has the round trip of a
// wide-area network. Delays are pipelined (each chunk is held for the delay from the
// moment it arrived, not behind the previous one), as on a long link.
type DelayLink struct {
	Port     int
	Upstream string        // the server behind the proxy, host:port
	Down, Up time.Duration // source → replica, replica → source

	proxy *toxiproxy.Proxy
}

// NewDelayLink starts a proxy to upstream adding roundTrip in total: half (whole
// milliseconds, rounded down) to what the server sends and the rest to what the
// client sends. 85 ms becomes 42 ms down and 43 ms up.
func NewDelayLink(name, upstream string, roundTrip time.Duration) (*DelayLink, error) {
	api := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop())
	p := toxiproxy.NewProxy(api, name, "127.0.0.1:0", upstream)
	if err := p.Start(); err != nil {
		return nil, fmt.Errorf("toxiproxy %s: %w", name, err)
	}
	_, portText, err := net.SplitHostPort(p.Listen)
	port, err2 := strconv.Atoi(portText)
	if err != nil || err2 != nil {
		p.Stop()
		return nil, fmt.Errorf("toxiproxy %s: listen address %q", name, p.Listen)
	}
	totalMS := roundTrip.Milliseconds()
	down := totalMS / 2
	l := &DelayLink{Port: port, Upstream: upstream, Down: time.Duration(down) * time.Millisecond,
		Up: time.Duration(totalMS-down) * time.Millisecond, proxy: p}
	for _, t := range []struct {
		stream string
		ms     int64
	}{{"downstream", down}, {"upstream", totalMS - down}} {
		js := fmt.Sprintf(`{"name":"delay_%s","type":"latency","stream":%q,"toxicity":1,"attributes":{"latency":%d,"jitter":0}}`,
			t.stream, t.stream, t.ms)
		if _, err := p.Toxics.AddToxicJson(strings.NewReader(js)); err != nil {
			p.Stop()
			return nil, fmt.Errorf("toxiproxy %s: latency on %s: %w", name, t.stream, err)
		}
	}
	return l, nil
}

// RoundTrip is the delay the link adds to a round trip.
func (l *DelayLink) RoundTrip() time.Duration { return l.Down + l.Up }

// Close stops the proxy and closes the connections through it.
func (l *DelayLink) Close() { l.proxy.Stop() }
