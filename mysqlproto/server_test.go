package mysqlproto

import (
	"database/sql"
	"errors"
	"net"
	"testing"
)

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
