package mysqlproto

import (
	"database/sql"
	"errors"
	"net"
	"testing"
	"time"
)

func TestReadTimeoutClosesIdle(t *testing.T) {
	addr, srv, _ := startServer(t, func(c *Config) { c.ReadTimeout = 100 * time.Millisecond })
	rc := dialRaw(t, addr, "root", "", nativePasswordPlugin, rawCaps)
	// The read returns when the server closes the idle connection (or fails the test
	// at the client-side deadline).
	rc.c.NetConn().SetReadDeadline(time.Now().Add(5 * time.Second))
	start := time.Now()
	if _, err := rc.c.ReadPacket(); err == nil {
		t.Fatal("idle connection not closed")
	}
	if el := time.Since(start); el > 4*time.Second {
		t.Fatalf("idle connection closed only by the client's deadline (%v)", el)
	}
	deadline := time.Now().Add(3 * time.Second)
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
