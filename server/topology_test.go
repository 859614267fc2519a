package server_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/binlite/binlite/config"
	tn "github.com/binlite/binlite/internal/testnode"
	"github.com/binlite/binlite/server"
)

// topoNode is an in-process node with its own server_id (testnode's are all 1, and
// a multi-source topology needs three distinct ids).
type topoNode struct {
	srv *server.Node
	db  *sql.DB
}

func startTopoNode(t *testing.T, id uint32, opts ...config.Option) *topoNode {
	t.Helper()
	srv, err := server.Open(server.Config{DataDir: t.TempDir(), HTTPPort: -1, ServerID: id, Options: opts,
		Logger: slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		t.Fatalf("server.Open (server_id %d): %v", id, err)
	}
	srv.Start()
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("closing node %d: %v", id, err)
		}
	})
	db, err := sql.Open("mysql", "root@tcp("+srv.Addr()+")/")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return &topoNode{srv: srv, db: db}
}

// getJSON decodes GET url into v.
func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

// multiSource starts two sources and a replica with channels 'a' and 'b', one per
// source, writes rows into a schema on each source and waits until the replica has
// applied them. It returns the sources and the replica.
func multiSource(t *testing.T, writes int) (a, b, r *topoNode) {
	a, b = startTopoNode(t, 11), startTopoNode(t, 12)
	r = startTopoNode(t, 20)
	for _, c := range []struct {
		name string
		src  *topoNode
	}{{"a", a}, {"b", b}} {
		tn.Exec(t, r.db, fmt.Sprintf("CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT=%d, SOURCE_USER='root', "+
			"SOURCE_AUTO_POSITION=1, SOURCE_CONNECT_RETRY=1, SOURCE_HEARTBEAT_PERIOD=1 FOR CHANNEL '%s'", c.src.srv.Port(), c.name))
	}
	tn.Exec(t, r.db, "START REPLICA")
	load(t, a, "sa", writes)
	load(t, b, "sb", writes)
	for _, src := range []*topoNode{a, b} {
		tn.WaitExecuted(t, r.db, tn.String(t, src.db, "SELECT @@gtid_executed"), 60*time.Second)
	}
	return a, b, r
}

// load creates schema db on n and commits writes single-row transactions into it.
func load(t *testing.T, n *topoNode, db string, writes int) {
	t.Helper()
	tn.Exec(t, n.db, "CREATE DATABASE "+db)
	tn.Exec(t, n.db, "CREATE TABLE "+db+".t (id INT PRIMARY KEY, v INT)")
	for i := range writes {
		tn.Exec(t, n.db, "INSERT INTO "+db+".t VALUES (?, ?)", i, i*i)
	}
}

// TestTopologyStatus: /status names the node's role, each channel's lag, GTIDs
// behind, semi-sync state and applied count, and the source lists its replica; the
// history holds per-second samples; GET / is the page.
func TestTopologyStatus(t *testing.T) {
	a, _, r := multiSource(t, 5)
	var st server.Status
	getJSON(t, "http://"+r.srv.HTTPAddr()+"/status", &st)
	if st.Role != "replica" || len(st.Replication) != 2 {
		t.Fatalf("replica /status: role %q with %d channels, want replica with 2", st.Role, len(st.Replication))
	}
	for i, want := range []string{"a", "b"} {
		c := st.Replication[i]
		if c.Fields["Channel_Name"] != want || c.LagSeconds == nil || c.GTIDsBehind != 0 || c.Applied < 7 || c.SemiSync {
			t.Errorf("channel %d: name %v lag %v behind %d applied %d semi-sync %v; want %s, a lag, 0 behind, at least 7 applied, no semi-sync",
				i, c.Fields["Channel_Name"], c.LagSeconds, c.GTIDsBehind, c.Applied, c.SemiSync, want)
		}
	}
	var src server.Status
	getJSON(t, "http://"+a.srv.HTTPAddr()+"/status", &src)
	if src.Role != "source" || len(src.Replicas) != 1 || src.Replicas[0].ServerID != 20 || src.Replicas[0].Port != uint16(r.srv.Port()) {
		t.Errorf("source /status: role %q, replicas %+v; want source with replica server_id 20 port %d", src.Role, src.Replicas, r.srv.Port())
	}
	// The first sample comes a second after the start (a rate needs two readings).
	var h server.History
	tn.Eventually(t, time.Minute, "a sample in /status/history", func() bool {
		getJSON(t, "http://"+r.srv.HTTPAddr()+"/status/history", &h)
		return len(h.Samples) > 0
	})
	if h.IntervalSeconds != 1 || len(h.Samples[0].Channels) != 2 {
		t.Fatalf("history: %+v, want per-second samples of both channels", h)
	}
	last := h.Samples[len(h.Samples)-1]
	var newer server.History
	getJSON(t, "http://"+r.srv.HTTPAddr()+"/status/history?since="+strconv.FormatInt(last.Time, 10), &newer)
	for _, s := range newer.Samples {
		if s.Time <= last.Time {
			t.Errorf("history?since=%d returned a sample of %d", last.Time, s.Time)
		}
	}
	resp, err := http.Get("http://" + r.srv.HTTPAddr() + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") || !strings.Contains(string(page), "binlite topology") {
		t.Errorf("GET /: %s %q CSP %q", resp.Status, resp.Header.Get("Content-Type"), resp.Header.Get("Content-Security-Policy"))
	}
	if code := httpStatusCode(t, "http://"+r.srv.HTTPAddr()+"/nothing-here", ""); code != 404 {
		t.Errorf("GET /nothing-here: %d, want 404", code)
	}
}

// browser starts headless Chromium for the test, or skips it when Chromium is not
// installed. Messages the pages write to their console are collected.
type browser struct {
	ctx  context.Context
	mu   sync.Mutex
	msgs []chromedp.ConsoleMessage
}

func startBrowser(t *testing.T) *browser {
	t.Helper()
	var path string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		t.Skip("headless Chromium not installed (Debian: apt-get install chromium); the topology page test needs it: add chromium to the packages .ci/run installs")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-component-update", true),
		chromedp.WindowSize(1280, 1100))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	b := &browser{ctx: ctx}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.msgs = append(b.msgs, m)
			b.mu.Unlock()
		}
	}()
	return b
}

// errors fails the test on the console errors and exceptions seen so far.
func (b *browser) checkConsole(t *testing.T) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, m := range b.msgs {
		if m.Type == chromedp.ConsoleError || m.IsException() {
			t.Errorf("console %s (%s:%d)", m, m.URL, m.Line)
		} else {
			t.Logf("console %s", m)
		}
	}
}

// poll waits (up to a minute) until the JavaScript expression is truthy and
// returns its value.
func poll[T any](t *testing.T, b *browser, what, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, time.Minute)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Poll[T](expr, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(time.Minute)))
	if err != nil {
		body, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.body.innerText`))
		t.Fatalf("waiting for %s: %v; the page shows:\n%s", what, err, body)
	}
	return v
}

func (b *browser) screenshot(t *testing.T, name string) string {
	t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot of the topology page: %s (%d bytes)", path, len(png))
	if out := os.Getenv("BINLITE_TOPOLOGY_SCREENSHOT"); out != "" {
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// TestTopologyPageInChromium loads the page of a multi-source replica in headless
// Chromium: it must render without console errors and show both channels with
// their lag; the source's page lists the replica. With BINLITE_TOPOLOGY_SCREENSHOT
// set, the sources keep writing for BINLITE_TOPOLOGY_SECONDS (default 40) first so
// that the charts have a history, and the screenshot is copied there (docs/).
func TestTopologyPageInChromium(t *testing.T) {
	b := startBrowser(t)
	a, bsrc, r := multiSource(t, 20)
	if os.Getenv("BINLITE_TOPOLOGY_SCREENSHOT") != "" {
		secs, _ := strconv.Atoi(os.Getenv("BINLITE_TOPOLOGY_SECONDS"))
		if secs <= 0 {
			secs = 40
		}
		// A replica of the replica, so that the picture has every part of the page.
		down := startTopoNode(t, 30)
		tn.Exec(t, down.db, fmt.Sprintf("CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT=%d, SOURCE_USER='root', "+
			"SOURCE_AUTO_POSITION=1, SOURCE_CONNECT_RETRY=1", r.srv.Port()))
		tn.Exec(t, down.db, "START REPLICA")
		steadyLoad(t, a, bsrc, time.Duration(secs)*time.Second)
	}
	if err := chromedp.Do(b.ctx, chromedp.Navigate("http://"+r.srv.HTTPAddr()+"/")); err != nil {
		t.Fatal(err)
	}
	lags := poll[map[string]string](t, b, "both channels with their lag", `(() => {
		const out = {};
		for (const c of document.querySelectorAll(".channel")) out[c.dataset.channel] = c.querySelector(".lag").textContent;
		return Object.keys(out).length === 2 && Object.values(out).every(l => /^\d+ s$/.test(l)) ? out : null;
	})()`)
	if len(lags) != 2 || lags["a"] == "" || lags["b"] == "" {
		t.Errorf("channels on the page: %v, want a and b with their lag", lags)
	}
	// Both sources' transactions, the channels' sources and the applied counts.
	shown := poll[map[string]string](t, b, "the node and channel details", `(() => {
		const q = (s) => document.querySelector(s);
		const ch = (n, s) => q('.channel[data-channel="' + n + '"] ' + s).textContent;
		if (!q("#gtid-executed") || !q('.channel[data-channel="b"]') || !q("#chart-applied-a path")) return null;
		return {server: q("#server-id").textContent, executed: q("#gtid-executed").textContent,
			a: ch("a", "h2"), b: ch("b", "h2"), appliedA: ch("a", ".applied"), appliedB: ch("b", ".applied"),
			stateA: q('.channel[data-channel="a"]').dataset.state};
	})()`)
	if shown["server"] != "20" || shown["stateA"] != "ok" {
		t.Errorf("page shows server %q, channel a state %q; want 20, ok", shown["server"], shown["stateA"])
	}
	for name, src := range map[string]*topoNode{"a": a, "b": bsrc} {
		if uuid := tn.String(t, src.db, "SELECT @@server_uuid"); !strings.Contains(shown["executed"], uuid) {
			t.Errorf("gtid_executed on the page %q lacks source %s's %s", shown["executed"], name, uuid)
		}
		if port := strconv.Itoa(src.srv.Port()); !strings.Contains(shown[name], port) {
			t.Errorf("channel %s's title %q does not name its source's port %s", name, shown[name], port)
		}
		if n, _ := strconv.Atoi(shown["applied"+strings.ToUpper(name)]); n < 22 {
			t.Errorf("channel %s shows %q applied, want at least 22", name, shown["applied"+strings.ToUpper(name)])
		}
	}
	b.screenshot(t, "replica.png")
	// The source's page lists the replica (SHOW REPLICAS).
	if err := chromedp.Do(b.ctx, chromedp.Navigate("http://"+a.srv.HTTPAddr()+"/")); err != nil {
		t.Fatal(err)
	}
	poll[bool](t, b, "the replica on the source's page", `!!document.querySelector('.replica[data-server-id="20"]')`)
	b.checkConsole(t)
}

// steadyLoad commits on both sources at a varying pace for d, so that the charts
// of a screenshot have something to show.
func steadyLoad(t *testing.T, a, b *topoNode, d time.Duration) {
	t.Helper()
	var wg sync.WaitGroup
	for i, n := range []*topoNode{a, b} {
		wg.Go(func() {
			db := []string{"sa", "sb"}[i]
			end := time.Now().Add(d)
			for k := 1000; time.Now().Before(end); k++ {
				if _, err := tn.TryExec(n.db, "INSERT INTO "+db+".t VALUES (?, ?)", k, k); err != nil {
					t.Error(err)
					return
				}
				// Pace: a wave of 20-120 commits per second, offset per source.
				phase := float64(time.Until(end)%(20*time.Second)) / float64(20*time.Second)
				if i == 1 {
					phase = 1 - phase
				}
				time.Sleep(time.Second / time.Duration(20+100*phase))
			}
		})
	}
	wg.Wait()
}

// TestTopologyPageWithToken: beyond loopback the page is served without the
// token and reads /status with the token of its #token= fragment.
func TestTopologyPageWithToken(t *testing.T) {
	b := startBrowser(t)
	n := tn.Start(t, tn.Opt("http_bind_address", "0.0.0.0"), tn.Opt("http_token", "page-token"))
	_, port, _ := net.SplitHostPort(n.HTTPAddr())
	base := "http://127.0.0.1:" + port
	if code := httpStatusCode(t, base+"/", ""); code != 200 {
		t.Fatalf("GET / beyond loopback without a token: %d, want 200 (the page holds no data)", code)
	}
	if code := httpStatusCode(t, base+"/status/history", ""); code != 401 {
		t.Fatalf("GET /status/history beyond loopback without a token: %d, want 401", code)
	}
	if err := chromedp.Do(b.ctx, chromedp.Navigate(base+"/#token=page-token")); err != nil {
		t.Fatal(err)
	}
	got := poll[string](t, b, "the node's data read with the token", `document.body.dataset.loaded && document.querySelector("#server-id").textContent`)
	if got != "1" {
		t.Errorf("server_id on the page: %q, want 1", got)
	}
	if url := poll[string](t, b, "the address", `location.href`); regexp.MustCompile(`token`).MatchString(url) {
		t.Errorf("the token stays in the address bar: %s", url)
	}
	b.checkConsole(t)
}
