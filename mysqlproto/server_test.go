package mysqlproto

import (
	"database/sql"
	"errors"
	"net"
	"os"
	"testing"
	"time"
)

func TestReadTimeoutClosesIdle(t *testing.T) {
	// The read timeout also applies to the handshake's reads, so it must leave the
	// client (dialRaw) time to log in on a loaded machine.
	const readTimeout = time.Second
	addr, srv, _ := startServer(t, func(c *Config) { c.ReadTimeout = readTimeout })
	rc := dialRaw(t, addr, "root", "", nativePasswordPlugin, rawCaps)
	// The read returns when the server closes the idle connection (or fails the test
	// at the client-side deadline).
	const clientDeadline = 20 * time.Second
	rc.c.NetConn().SetReadDeadline(time.Now().Add(clientDeadline))
	start := time.Now()
	_, err := rc.c.ReadPacket()
	el := time.Since(start)
	if err == nil {
		t.Fatal("idle connection not closed")
	}
	if errors.Is(err, os.ErrDeadlineExceeded) || el >= clientDeadline*9/10 {
		t.Fatalf("idle connection closed only by the client's deadline after %v: %v", el, err)
	}
	t.Logf("idle connection closed by the server after %v (read timeout %v): %v", el, readTimeout, err)
	deadline := time.Now().Add(10 * time.Second)
	for srv.ConnCount() != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := srv.ConnCount(); n != 0 {
		t.Fatalf("ConnCount = %d", n)
	}
}

func TestCloseEndsConnections(t *testing.T) {
	rec := &recorder{}
	srv := NewServer(Config{NewHandler: func(*ConnInfo) (Handler, error) { return &testHandler{rec: rec}, nil }})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	db, err := sql.Open("mysql", "anyone@tcp("+l.Addr().String()+")/")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Ping(); err != nil { // nil Auth: any user, empty password
		t.Fatal(err)
	}
	if n := srv.ConnCount(); n != 1 {
		t.Fatalf("ConnCount = %d", n)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("Serve after Close: %v", err)
	}
	if n := srv.ConnCount(); n != 0 {
		t.Fatalf("ConnCount after Close = %d", n)
	}
	if _, closed := rec.counts(); closed != 1 {
		t.Fatalf("handler Close calls = %d", closed)
	}
	if _, err := net.Dial("tcp", l.Addr().String()); err == nil {
		t.Fatal("listener still open")
	}
	if err := NewServer(Config{}).Serve(l); err == nil || errors.Is(err, net.ErrClosed) {
		t.Fatalf("Serve without NewHandler: %v", err)
	}
}
