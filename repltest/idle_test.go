package repltest

// A source that goes quiet right after a commit, with a heartbeat already behind
// the last COMMIT in the same TCP segment: the replica must write, apply and
// report what it received without waiting for more writes. A scripted source
// (the MySQL protocol over loopback, events written in one segment, then silence)
// makes the arrival order exact instead of hoping the timing produces it.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/gtid"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/source"
)

const scriptedUUID = "5c41b7e0-0000-4000-8000-00000000abcd"

// scriptedSource answers a replica's connection set-up and then writes one
// segment of events per dump request, followed by silence until it is closed.
type scriptedSource struct {
	uuid    gtid.UUID
	segment func(req source.DumpRequest) []binlog.Event
	srv     *mysqlproto.Server
	addr    *net.TCPAddr
	dumps   chan source.DumpRequest
}

func startScriptedSource(t *testing.T, segment func(req source.DumpRequest) []binlog.Event) *scriptedSource {
	t.Helper()
	u, err := gtid.ParseUUID(scriptedUUID)
	if err != nil {
		t.Fatal(err)
	}
	s := &scriptedSource{uuid: u, segment: segment, dumps: make(chan source.DumpRequest, 16)}
	s.srv = mysqlproto.NewServer(mysqlproto.Config{
		Auth:       scriptedAuth{},
		NewHandler: func(*mysqlproto.ConnInfo) (mysqlproto.Handler, error) { return &scriptedConn{s: s}, nil },
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.addr = l.Addr().(*net.TCPAddr)
	go s.srv.Serve(l)
	t.Cleanup(func() { s.srv.Close() })
	return s
}

type scriptedAuth struct{}

func (scriptedAuth) Lookup(user, host string) ([]byte, bool) {
	return mysqlproto.PasswordStage2("pw"), user == "repl"
}

type scriptedConn struct {
	s    *scriptedSource
	done chan struct{}
}

func (c *scriptedConn) UseDB(string) error { return nil }

func (c *scriptedConn) Query(sql string, _ bool, send func(*mysqlproto.Result, bool) error) error {
	if strings.HasPrefix(sql, "SELECT @@server_uuid") {
		return send(&mysqlproto.Result{
			Columns: []mysqlproto.Column{{Name: "@@server_uuid", Type: mysqlproto.TypeVarString}, {Name: "@@server_id", Type: mysqlproto.TypeLongLong}},
			Rows:    [][]any{{scriptedUUID, int64(1)}},
		}, false)
	}
	return send(&mysqlproto.Result{}, false)
}

func (c *scriptedConn) Prepare(string) (mysqlproto.Stmt, error) {
	return nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "prepared statements")
}
func (c *scriptedConn) FieldList(string, string) ([]mysqlproto.Column, error) { return nil, nil }
func (c *scriptedConn) Status() (bool, bool)                                  { return true, false }
func (c *scriptedConn) Close() {
	if c.done != nil {
		close(c.done)
	}
}

func (c *scriptedConn) RawCommand(cmd byte, payload []byte, conn *mysqlproto.Conn) (bool, error) {
	var (
		req source.DumpRequest
		err error
	)
	switch cmd {
	case mysqlproto.ComRegisterSlave:
		return true, conn.WriteOK(0, 0)
	case mysqlproto.ComBinlogDumpGTID:
		req, err = source.ParseDumpGTID(payload)
	case mysqlproto.ComBinlogDump:
		req, err = source.ParseDump(payload)
	default:
		return false, nil
	}
	if err != nil {
		return true, err
	}
	c.s.dumps <- req
	// Everything in one buffer, written with one Flush: one segment on loopback.
	for _, ev := range c.s.segment(req) {
		if err := conn.WritePacket(binlog.AppendEvent([]byte{0}, ev, uint32(time.Now().Unix()), 1)); err != nil {
			return true, err
		}
	}
	if err := conn.Flush(); err != nil {
		return true, err
	}
	// Then silence: no heartbeat, no event, until the test ends the server.
	buf := make([]byte, 1)
	for {
		if _, err := conn.NetConn().Read(buf); err != nil {
			return true, errors.New("replica went away")
		}
	}
}

// scriptedTxn is transaction seq of the scripted source: CREATE DATABASE name.
func scriptedTxn(u gtid.UUID, seq uint64, name string) []binlog.Event {
	now := uint64(time.Now().UnixMicro())
	return []binlog.Event{
		&binlog.GTIDEvent{GTID: gtid.GTID{UUID: u, Seq: seq}, OriginalCommitUS: now, ImmediateCommitUS: now, Schemas: []string{name}},
		&binlog.QueryEvent{Schema: name, SQL: "CREATE DATABASE `" + name + "`"},
		&binlog.CommitEvent{},
	}
}

// TestIdleSourceHeartbeatBehindCommit: two transactions and a heartbeat arrive
// together, then nothing. The replica's heartbeat period is an hour, so its read
// timeout (the only other thing that would release a held batch) is 60 s; the test
// waits at most 30 s, so it can pass only if the receiver wrote the batch before
// it started waiting. It failed every time before the fix.
func TestIdleSourceHeartbeatBehindCommit(t *testing.T) {
	for _, mode := range []struct {
		name   string
		change string
	}{
		{"gtid", "SOURCE_AUTO_POSITION=1"},
		{"file-position", "SOURCE_AUTO_POSITION=0, SOURCE_LOG_FILE='binlog.000001', SOURCE_LOG_POS=4"},
	} {
		t.Run(mode.name, func(t *testing.T) {
			var src *scriptedSource
			src = startScriptedSource(t, func(req source.DumpRequest) []binlog.Event {
				evs := []binlog.Event{&binlog.RotateEvent{NextFile: "binlog.000001", Position: uint64(binlog.FirstEventPos)}}
				evs = append(evs, scriptedTxn(src.uuid, 1, "idle_a")...)
				evs = append(evs, scriptedTxn(src.uuid, 2, "idle_b")...)
				return append(evs, &binlog.HeartbeatEvent{File: "binlog.000001", Pos: 4096})
			})
			replica := startNode(t, "replica", 2)
			exec(t, replica.db, fmt.Sprintf("CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT=%d, SOURCE_USER='repl', SOURCE_PASSWORD='pw', GET_SOURCE_PUBLIC_KEY=1, SOURCE_CONNECT_RETRY=1, SOURCE_HEARTBEAT_PERIOD=3600, %s", src.addr.Port, mode.change), "START REPLICA")
			select {
			case req := <-src.dumps:
				if req.UseGTID != (mode.name == "gtid") {
					t.Fatalf("dump request UseGTID=%v", req.UseGTID)
				}
			case <-time.After(stmtTimeout):
				t.Fatalf("the replica never asked for events; SHOW REPLICA STATUS %v", showStatus(t, replica.db))
			}
			want := scriptedUUID + ":1-2"
			ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
			defer cancel()
			var got string
			err := replica.db.QueryRowContext(ctx, fmt.Sprintf("SELECT WAIT_FOR_EXECUTED_GTID_SET('%s', 30)", want)).Scan(&got)
			if err != nil || got != "0" {
				t.Fatalf("the replica did not apply %s while the source was quiet: WAIT_FOR_EXECUTED_GTID_SET = %q, %v; SHOW REPLICA STATUS %v", want, got, err, showStatus(t, replica.db))
			}
			st := showStatus(t, replica.db)
			if !strings.Contains(st["Retrieved_Gtid_Set"], scriptedUUID+":1-2") {
				t.Errorf("Retrieved_Gtid_Set = %q, want %s", st["Retrieved_Gtid_Set"], want)
			}
			if st["Read_Source_Log_Pos"] != "4096" {
				t.Errorf("Read_Source_Log_Pos = %q after the heartbeat at 4096", st["Read_Source_Log_Pos"])
			}
			dbs := fmt.Sprint(rows(t, replica.db, "SHOW DATABASES"))
			if !strings.Contains(dbs, "idle_a") || !strings.Contains(dbs, "idle_b") {
				t.Errorf("databases on the replica: %v", dbs)
			}
		})
	}
}
