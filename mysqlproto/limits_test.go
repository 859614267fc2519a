package mysqlproto

import (
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"

	"github.com/binlite/binlite/mysqlerr"
)

// The timeouts below are short so the tests are quick; every assertion about when
// the server acted allows a wide margin, since the machine may be loaded.

// adminAuth is testAuth where root is a connection administrator.
type adminAuth struct{ testAuth }

func (a adminAuth) LookupAccount(user, host string) (Account, bool) {
	stage2, ok := a.Lookup(user, host)
	return Account{Stage2: stage2, Name: user + "@%", ConnectionAdmin: user == "root"}, ok
}

// limitedServer runs the test server with fixed limits.
func limitedServer(t *testing.T, lim Limits, auth Authenticator) (string, *Server) {
	t.Helper()
	addr, srv, _ := startServer(t, func(c *Config) {
		c.Limits = func() Limits { return lim }
		if auth != nil {
			c.Auth = auth
		}
	})
	return addr, srv
}

// firstPacket connects and returns the server's first packet (greeting or ERR).
func firstPacket(t *testing.T, addr string) []byte {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(20 * time.Second))
	p, err := newConn(nc, nc, nc, 0).ReadPacket()
	if err != nil {
		t.Fatalf("reading the first packet: %v", err)
	}
	return p
}

// dialSilent opens a connection that never says anything.
func dialSilent(t *testing.T, addr string) net.Conn {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	return nc
}

// closedWithin reads from nc until the server closes it, failing the test if that
// takes longer than limit; it returns what arrived before the close.
func closedWithin(t *testing.T, nc net.Conn, limit time.Duration) []byte {
	t.Helper()
	nc.SetReadDeadline(time.Now().Add(limit))
	b, err := io.ReadAll(nc)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("connection still open after %v", limit)
	}
	return b
}

// waitFor polls cond until it holds or 20 s pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// errCodeOf decodes an ERR packet's code (0 if p is not one).
func errCodeOf(p []byte) uint16 {
	if len(p) < 3 || p[0] != headerErr {
		return 0
	}
	return uint16(p[1]) | uint16(p[2])<<8
}

func TestMaxConnectionsKeepsOneForAdmin(t *testing.T) {
	addr, srv := limitedServer(t, Limits{MaxConnections: 2}, adminAuth{})
	dialRaw(t, addr, "alice", "secret", nativePasswordPlugin, rawCaps)
	dialRaw(t, addr, "alice", "secret", nativePasswordPlugin, rawCaps)

	// The third connection gets its greeting (one beyond max_connections is let in)
	// but a non-administrator is refused at login.
	nc := dialSilent(t, addr)
	c := newConn(nc, nc, nc, 0)
	nc.SetDeadline(time.Now().Add(20 * time.Second))
	if p, err := c.ReadPacket(); err != nil || p[0] != 10 {
		t.Fatalf("third connection's greeting: %q %v", p, err)
	}
	nc.Close()
	waitFor(t, "the third connection to end", func() bool { return srv.ConnCount() == 2 })
	rc := tryLogin(t, addr, "alice", "secret")
	if code := errCodeOf(rc); code != mysqlerr.ErConCountError {
		t.Fatalf("alice beyond max_connections: %q, want ERR 1040", rc)
	}

	// An administrator takes the extra connection; after it, even the greeting is
	// replaced by 1040.
	waitFor(t, "the refused login to end", func() bool { return srv.ConnCount() == 2 })
	dialRaw(t, addr, "root", "", nativePasswordPlugin, rawCaps)
	if p := firstPacket(t, addr); errCodeOf(p) != mysqlerr.ErConCountError || string(p[9:]) != "Too many connections" {
		t.Fatalf("connection beyond max_connections+1: %q, want ERR 1040 in place of the greeting", p)
	}
	st := srv.Stats()
	if st.ErrorsMaxConnections < 1 || st.MaxUsed < 3 || st.AbortedConnects < 1 {
		t.Fatalf("stats %+v: want Connection_errors_max_connections >= 1, Max_used_connections >= 3, Aborted_connects >= 1", st)
	}
}

// tryLogin logs in by hand and returns the server's answer to the login (OK or
// ERR); a refused connection is closed.
func tryLogin(t *testing.T, addr, user, pass string) []byte {
	t.Helper()
	nc := dialSilent(t, addr)
	nc.SetDeadline(time.Now().Add(20 * time.Second))
	c := newConn(nc, nc, nc, 0)
	greet, err := c.ReadPacket()
	if err != nil || greet[0] != 10 {
		t.Fatalf("greeting: %q %v", greet, err)
	}
	r := &reader{buf: greet}
	r.byte1()
	r.nulString()
	r.uint32()
	scramble := append([]byte(nil), r.bytes(8)...)
	r.bytes(1 + 2 + 1 + 2 + 2 + 1 + 10)
	scramble = append(scramble, r.bytes(12)...)
	b := appendUint32(nil, rawCaps)
	b = appendUint32(b, 1<<24)
	b = append(b, byte(CharsetUTF8MB4))
	b = append(b, make([]byte, 23)...)
	b = append(b, user...)
	b = append(b, 0)
	b = appendLenEncBytes(b, NativePasswordResponse(pass, scramble))
	b = append(b, nativePasswordPlugin...)
	b = append(b, 0)
	if err := c.WritePacket(b); err != nil {
		t.Fatal(err)
	}
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	p, err := c.ReadPacket()
	if err != nil {
		t.Fatalf("login answer: %v", err)
	}
	if p[0] == headerErr {
		nc.Close()
	}
	return p
}

func TestMaxUserConnections(t *testing.T) {
	addr, srv := limitedServer(t, Limits{MaxUserConnections: 1}, adminAuth{})
	first := dialRaw(t, addr, "alice", "secret", nativePasswordPlugin, rawCaps)
	p := tryLogin(t, addr, "alice", "secret")
	if errCodeOf(p) != mysqlerr.ErTooManyUserConnections ||
		string(p[9:]) != "User alice already has more than 'max_user_connections' active connections" {
		t.Fatalf("second login of alice: %q, want ERR 1203", p)
	}
	// Another account is not affected, and a freed connection can be taken again.
	dialRaw(t, addr, "root", "", nativePasswordPlugin, rawCaps)
	first.command(ComQuit, nil)
	waitFor(t, "alice's connection to end", func() bool { return srv.ConnCount() == 1 })
	dialRaw(t, addr, "alice", "secret", nativePasswordPlugin, rawCaps)
}

func TestConnectTimeout(t *testing.T) {
	addr, srv := limitedServer(t, Limits{ConnectTimeout: time.Second}, nil)
	silent := dialSilent(t, addr)
	half := dialSilent(t, addr)
	// Half a handshake: the greeting read, then three bytes of a packet header.
	c := newConn(half, half, half, 0)
	half.SetDeadline(time.Now().Add(20 * time.Second))
	if _, err := c.ReadPacket(); err != nil {
		t.Fatal(err)
	}
	half.SetDeadline(time.Time{})
	if _, err := half.Write([]byte{0x40, 0, 0}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	closedWithin(t, silent, 20*time.Second)
	closedWithin(t, half, 20*time.Second)
	if el := time.Since(start); el < 500*time.Millisecond {
		t.Fatalf("closed after %v, before connect_timeout", el)
	}
	waitFor(t, "both to be untracked", func() bool { return srv.ConnCount() == 0 })
	if st := srv.Stats(); st.AbortedConnects != 2 {
		t.Fatalf("Aborted_connects = %d, want 2", st.AbortedConnects)
	}
	// A client that logs in in time keeps its session past connect_timeout.
	rc := dialRaw(t, addr, "root", "", nativePasswordPlugin, rawCaps)
	time.Sleep(1500 * time.Millisecond)
	rc.command(ComPing, nil)
	if p := rc.read(); p[0] != headerOK {
		t.Fatalf("ping after connect_timeout: %q", p)
	}
}

func TestWaitTimeoutClosesIdleSession(t *testing.T) {
	addr, srv := limitedServer(t, Limits{WaitTimeout: time.Second, InteractiveTimeout: time.Hour}, nil)
	rc := dialRaw(t, addr, "root", "", nativePasswordPlugin, rawCaps)
	// An interactive client gets interactive_timeout instead.
	interactive := dialRaw(t, addr, "root", "", nativePasswordPlugin, rawCaps|ClientInteractive)
	rc.nc.SetDeadline(time.Time{})
	got := closedWithin(t, rc.nc, 20*time.Second)
	// ER_CLIENT_INTERACTION_TIMEOUT comes first, as MySQL 8.0.24 and later send it.
	if len(got) < 4 || errCodeOf(got[4:]) != mysqlerr.ErClientInteractionTimeout {
		t.Fatalf("idle session got %q before the close, want ERR 4031", got)
	}
	interactive.command(ComPing, nil)
	if p := interactive.read(); p[0] != headerOK {
		t.Fatalf("interactive session after wait_timeout: %q", p)
	}
	if st := srv.Stats(); st.AbortedClients != 1 {
		t.Fatalf("Aborted_clients = %d, want 1", st.AbortedClients)
	}
}

func TestNetReadTimeoutDropsStalledPacket(t *testing.T) {
	addr, srv := limitedServer(t, Limits{NetReadTimeout: time.Second}, nil)
	rc := dialRaw(t, addr, "root", "", nativePasswordPlugin, rawCaps)
	rc.nc.SetDeadline(time.Time{})
	// A header announcing 16 MiB-1 bytes, then a command byte, then nothing.
	if _, err := rc.nc.Write([]byte{0xff, 0xff, 0xff, 0, ComQuery}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	closedWithin(t, rc.nc, 20*time.Second)
	if el := time.Since(start); el < 500*time.Millisecond {
		t.Fatalf("closed after %v, before net_read_timeout", el)
	}
	waitFor(t, "the session to end", func() bool { return srv.ConnCount() == 0 })
}

func TestNetWriteTimeoutDropsNonReader(t *testing.T) {
	addr, srv := limitedServer(t, Limits{NetWriteTimeout: time.Second}, nil)
	rc := dialRaw(t, addr, "root", "", nativePasswordPlugin, rawCaps)
	// Ask for 17 MiB, more than loopback's socket buffers hold, and never read it.
	rc.command(ComQuery, []byte("select big"))
	waitFor(t, "the stalled session to be dropped", func() bool { return srv.ConnCount() == 0 })
}

func TestDescriptorBudgetRefuses(t *testing.T) {
	addr, srv := limitedServer(t, Limits{MaxClients: 1}, nil)
	rc := dialRaw(t, addr, "root", "", nativePasswordPlugin, rawCaps)
	if p := firstPacket(t, addr); errCodeOf(p) != mysqlerr.ErConCountError {
		t.Fatalf("connection beyond the descriptor budget: %q, want ERR 1040", p)
	}
	if st := srv.Stats(); st.ErrorsInternal != 1 {
		t.Fatalf("Connection_errors_internal = %d, want 1", st.ErrorsInternal)
	}
	rc.command(ComPing, nil)
	if p := rc.read(); p[0] != headerOK {
		t.Fatalf("established session after a refusal: %q", p)
	}
}

// timeoutHandler is the test handler with session timeouts that a statement
// changes, as SET SESSION wait_timeout does.
type timeoutHandler struct {
	*testHandler
	wait time.Duration
}

func (h *timeoutHandler) Timeouts() (time.Duration, time.Duration, time.Duration) {
	return h.wait, time.Hour, time.Hour
}

func (h *timeoutHandler) Query(sql string, multi bool, send func(*Result, bool) error) error {
	if sql == "shorten" {
		h.wait = time.Second
		return send(&Result{}, false)
	}
	return h.testHandler.Query(sql, multi, send)
}

func TestSessionTimeoutsApplyFromTheNextCommand(t *testing.T) {
	rec := &recorder{}
	addr, _, _ := startServer(t, func(c *Config) {
		c.Limits = func() Limits { return Limits{WaitTimeout: time.Millisecond} } // the handler's win
		c.NewHandler = func(*ConnInfo) (Handler, error) {
			return &timeoutHandler{testHandler: &testHandler{rec: rec}, wait: time.Hour}, nil
		}
	})
	rc := dialRaw(t, addr, "root", "", nativePasswordPlugin, rawCaps)
	for range 3 { // the idle deadline set for an hour stands between commands
		rc.command(ComPing, nil)
		if p := rc.read(); p[0] != headerOK {
			t.Fatalf("ping: %q", p)
		}
	}
	// A shorter wait_timeout replaces the hour-long deadline at once.
	rc.command(ComQuery, []byte("shorten"))
	if p := rc.read(); p[0] != headerOK {
		t.Fatalf("shorten: %q", p)
	}
	rc.nc.SetDeadline(time.Time{})
	got := closedWithin(t, rc.nc, 20*time.Second)
	if len(got) < 4 || errCodeOf(got[4:]) != mysqlerr.ErClientInteractionTimeout {
		t.Fatalf("after a shorter wait_timeout: %q, want ERR 4031", got)
	}
}
