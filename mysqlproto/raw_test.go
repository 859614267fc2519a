package mysqlproto

import (
	"encoding/binary"
	"math"
	"net"
	"testing"
	"time"
)

// rawClient speaks the protocol by hand, using Conn for framing.
type rawClient struct {
	t    *testing.T
	nc   net.Conn
	c    *Conn
	caps uint32
}

const rawCaps = ClientProtocol41 | ClientSecureConnection | ClientPluginAuth |
	ClientPluginAuthLenencClientData | ClientTransactions | ClientLongPassword

// dialRaw connects and authenticates; plugin names the client's auth plugin.
func dialRaw(t *testing.T, addr, user, pass, plugin string, caps uint32) *rawClient {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	rc := &rawClient{t: t, nc: nc, c: newConn(nc, nc, nc, 0), caps: caps}
	greet := rc.read()
	r := &reader{buf: greet}
	if r.byte1() != 10 {
		t.Fatalf("protocol version in %q", greet)
	}
	r.nulString()
	r.uint32()
	scramble := append([]byte(nil), r.bytes(8)...)
	r.byte1()
	capLo := uint32(r.uint16())
	r.byte1()
	status := r.uint16()
	capHi := uint32(r.uint16())
	r.byte1()
	r.bytes(10)
	scramble = append(scramble, r.bytes(12)...)
	r.byte1()
	// MySQL 8.4 proposes caching_sha2_password; the client may answer with another.
	if got := r.nulString(); got != PluginCachingSHA2 || r.err != nil {
		t.Fatalf("plugin %q %v", got, r.err)
	}
	if srvCaps := capLo | capHi<<16; srvCaps != serverCapabilities || status&StatusAutocommit == 0 {
		t.Fatalf("greeting caps %x status %x", srvCaps, status)
	}
	auth := NativePasswordResponse(pass, scramble)
	if plugin != nativePasswordPlugin {
		auth = []byte("not-a-native-response")
	}
	b := appendUint32(nil, caps)
	b = appendUint32(b, 1<<24)
	b = append(b, byte(CharsetUTF8MB4))
	b = append(b, make([]byte, 23)...)
	b = append(b, user...)
	b = append(b, 0)
	b = appendLenEncBytes(b, auth)
	b = append(b, plugin...)
	b = append(b, 0)
	rc.write(b)
	resp := rc.read()
	if resp[0] == headerEOF {
		r := &reader{buf: resp[1:]}
		if p := r.nulString(); p != nativePasswordPlugin {
			t.Fatalf("switch to %q", p)
		}
		fresh := r.bytes(20)
		rc.write(NativePasswordResponse(pass, fresh))
		resp = rc.read()
	}
	if resp[0] != headerOK {
		t.Fatalf("auth reply %q", resp)
	}
	return rc
}

func (rc *rawClient) read() []byte {
	rc.t.Helper()
	p, err := rc.c.ReadPacket()
	if err != nil {
		rc.t.Fatalf("read: %v", err)
	}
	return p
}

func (rc *rawClient) write(p []byte) {
	rc.t.Helper()
	if err := rc.c.WritePacket(p); err != nil {
		rc.t.Fatal(err)
	}
	if err := rc.c.Flush(); err != nil {
		rc.t.Fatal(err)
	}
}

// command starts a new exchange with cmd and payload.
func (rc *rawClient) command(cmd byte, payload []byte) {
	rc.t.Helper()
	rc.c.ResetSequence()
	rc.write(append([]byte{cmd}, payload...))
}

func (rc *rawClient) deprecateEOF() bool { return rc.caps&ClientDeprecateEOF != 0 }

// isEnd reports whether p terminates a result set (EOF, or OK-with-0xfe).
func isEnd(p []byte) bool { return len(p) > 0 && p[0] == headerEOF && len(p) < 0xffffff }

// readResult reads an OK/ERR or a full result set, returning the first packet
// and the raw rows; status is from the terminating packet.
func (rc *rawClient) readResult() (first []byte, rows [][]byte, status uint16) {
	rc.t.Helper()
	first = rc.read()
	switch first[0] {
	case headerOK:
		r := &reader{buf: first[1:]}
		r.lenEncInt()
		r.lenEncInt()
		return first, nil, r.uint16()
	case headerErr:
		return first, nil, 0
	}
	r := &reader{buf: first}
	n := int(r.lenEncInt())
	for range n {
		rc.read()
	}
	if !rc.deprecateEOF() {
		if p := rc.read(); !isEnd(p) {
			rc.t.Fatalf("want EOF after columns, got %q", p)
		}
	}
	for {
		p := rc.read()
		if isEnd(p) {
			if rc.deprecateEOF() {
				r := &reader{buf: p[1:]}
				r.lenEncInt()
				r.lenEncInt()
				return first, rows, r.uint16()
			}
			return first, rows, binary.LittleEndian.Uint16(p[3:])
		}
		rows = append(rows, p)
	}
}

// prepare sends COM_STMT_PREPARE and returns the statement id.
func (rc *rawClient) prepare(sql string) (id uint32, params int) {
	rc.t.Helper()
	rc.command(ComStmtPrepare, []byte(sql))
	p := rc.read()
	if p[0] != headerOK {
		rc.t.Fatalf("prepare: %q", p)
	}
	id = binary.LittleEndian.Uint32(p[1:])
	cols := int(binary.LittleEndian.Uint16(p[5:]))
	params = int(binary.LittleEndian.Uint16(p[7:]))
	for _, n := range []int{params, cols} {
		if n == 0 {
			continue
		}
		for range n {
			rc.read()
		}
		if !rc.deprecateEOF() {
			if p := rc.read(); !isEnd(p) {
				rc.t.Fatalf("want EOF in prepare response, got %q", p)
			}
		}
	}
	return id, params
}

func wantErrCode(t *testing.T, p []byte, code uint16) {
	t.Helper()
	if len(p) < 9 || p[0] != headerErr || binary.LittleEndian.Uint16(p[1:]) != code || p[3] != '#' {
		t.Fatalf("want ERR %d, got %q", code, p)
	}
}

func executePayload(id uint32, flags byte, nulls []byte, types []uint16, values []byte) []byte {
	b := appendUint32(nil, id)
	b = append(b, flags)
	b = appendUint32(b, 1)
	if nulls == nil {
		return b
	}
	b = append(b, nulls...)
	if types != nil {
		b = append(b, 1)
		for _, t := range types {
			b = appendUint16(b, t)
		}
	} else {
		b = append(b, 0)
	}
	return append(b, values...)
}

func TestRawReexecuteReusesParamTypes(t *testing.T) {
	for _, caps := range []uint32{rawCaps, rawCaps | ClientDeprecateEOF} {
		addr, _, rec := startServer(t, nil)
		rc := dialRaw(t, addr, "root", "", nativePasswordPlugin, caps)
		id, n := rc.prepare("select ?, ?, ?, ?")
		if n != 4 {
			t.Fatalf("params = %d", n)
		}
		types := []uint16{uint16(TypeLongLong), uint16(TypeVarString), uint16(TypeDouble), uint16(TypeLong) | unsignedParam}
		vals := func(i int64, s string, f float64, u uint32) []byte {
			b := appendUint64(nil, uint64(i))
			b = appendLenEncString(b, s)
			b = appendUint64(b, math.Float64bits(f))
			return appendUint32(b, u)
		}
		rc.command(ComStmtExecute, executePayload(id, 0, []byte{0}, types, vals(7, "abc", 1.5, 4000000000)))
		if _, rows, _ := rc.readResult(); len(rows) != 1 {
			t.Fatalf("rows = %d", len(rows))
		}
		// libmariadb and sysbench re-execute with new-params-bound-flag = 0.
		rc.command(ComStmtExecute, executePayload(id, 0, []byte{0}, nil, vals(-9, "xyz", 2.5, 1)))
		_, rows, status := rc.readResult()
		if len(rows) != 1 || status&StatusAutocommit == 0 {
			t.Fatalf("rows = %d status %x", len(rows), status)
		}
		// Same again, with the second parameter NULL.
		rc.command(ComStmtExecute, executePayload(id, 0, []byte{2}, nil, appendUint32(appendUint64(appendUint64(nil, 1), math.Float64bits(0)), 2)))
		rc.readResult()
		got := rec.snapshot()
		want := [][]any{{int64(7), "abc", 1.5, int64(4000000000)}, {int64(-9), "xyz", 2.5, int64(1)}, {int64(1), nil, 0.0, int64(2)}}
		if len(got) != len(want) {
			t.Fatalf("executions %v", got)
		}
		for i := range want {
			for j := range want[i] {
				if got[i][j] != want[i][j] {
					t.Errorf("exec %d arg %d = %#v, want %#v", i, j, got[i][j], want[i][j])
				}
			}
		}
		// A statement never bound cannot be executed with the flag 0.
		id2, _ := rc.prepare("select ?")
		rc.command(ComStmtExecute, executePayload(id2, 0, []byte{0}, nil, nil))
		wantErrCode(t, rc.read(), 1835)
		// Read-only cursor requests still get the rows; COM_STMT_FETCH is refused.
		rc.command(ComStmtExecute, executePayload(id, cursorTypeReadOnly, []byte{0}, nil, vals(1, "c", 1, 1)))
		if _, rows, _ := rc.readResult(); len(rows) != 1 {
			t.Fatalf("cursor rows = %d", len(rows))
		}
		rc.command(ComStmtFetch, appendUint32(appendUint32(nil, id), 10))
		wantErrCode(t, rc.read(), 1235)
		rc.command(ComStmtClose, appendUint32(nil, id))
		rc.command(ComStmtExecute, executePayload(id, 0, []byte{0}, nil, vals(1, "c", 1, 1)))
		wantErrCode(t, rc.read(), 1243)
	}
}

func TestRawSendLongData(t *testing.T) {
	addr, _, rec := startServer(t, nil)
	rc := dialRaw(t, addr, "root", "", nativePasswordPlugin, rawCaps)
	id, _ := rc.prepare("select ?, ?")
	longData := func(param uint16, s string) {
		rc.command(ComStmtSendLongData, append(appendUint16(appendUint32(nil, id), param), s...))
	}
	longData(0, "hello ")
	longData(0, "world")
	types := []uint16{uint16(TypeBlob), uint16(TypeLongLong)}
	rc.command(ComStmtExecute, executePayload(id, 0, []byte{0}, types, appendUint64(nil, 5)))
	rc.readResult()
	// Long data was consumed: the next execute carries both values inline.
	rc.command(ComStmtExecute, executePayload(id, 0, []byte{0}, nil, appendUint64(appendLenEncString(nil, "inline"), 6)))
	rc.readResult()
	// COM_STMT_RESET drops pending long data.
	longData(0, "dropped")
	rc.command(ComStmtReset, appendUint32(nil, id))
	if p := rc.read(); p[0] != headerOK {
		t.Fatalf("reset: %q", p)
	}
	rc.command(ComStmtExecute, executePayload(id, 0, []byte{0}, nil, appendUint64(appendLenEncString(nil, "kept"), 7)))
	rc.readResult()
	// Long data for a VARCHAR parameter arrives as a string.
	longData(0, "text")
	rc.command(ComStmtExecute, executePayload(id, 0, []byte{0}, []uint16{uint16(TypeVarString), uint16(TypeLongLong)}, appendUint64(nil, 8)))
	rc.readResult()
	// Long data for a parameter that does not exist fails the next execute.
	longData(5, "x")
	rc.command(ComStmtExecute, executePayload(id, 0, []byte{0}, nil, appendUint64(appendLenEncString(nil, "y"), 9)))
	wantErrCode(t, rc.read(), 1210)

	got := rec.snapshot()
	want := [][]any{{"hello world", int64(5)}, {"inline", int64(6)}, {"kept", int64(7)}, {"text", int64(8)}}
	if len(got) != len(want) {
		t.Fatalf("executions %#v", got)
	}
	for i := range want {
		g0 := got[i][0]
		if b, ok := g0.([]byte); ok {
			g0 = string(b)
		} else if i < 3 {
			t.Errorf("exec %d: BLOB parameter is %T, want []byte", i, g0)
		}
		if g0 != want[i][0] || got[i][1] != want[i][1] {
			t.Errorf("exec %d = %#v, want %#v", i, got[i], want[i])
		}
	}
}

func TestRawAuthSwitchAndCommands(t *testing.T) {
	addr, _, rec := startServer(t, nil)
	rc := dialRaw(t, addr, "alice", "secret", "caching_sha2_password", rawCaps|ClientDeprecateEOF)

	rc.command(ComPing, nil)
	if p := rc.read(); p[0] != headerOK {
		t.Fatalf("ping: %q", p)
	}
	rc.command(ComStatistics, nil)
	if p := rc.read(); string(p[:7]) != "Uptime:" {
		t.Fatalf("statistics: %q", p)
	}
	rc.command(ComInitDB, []byte("shop"))
	if p := rc.read(); p[0] != headerOK {
		t.Fatalf("init db: %q", p)
	}
	rc.command(ComInitDB, []byte("nodb"))
	wantErrCode(t, rc.read(), 1049)

	// Status flags follow the handler.
	rc.command(ComQuery, []byte("begin"))
	if _, _, st := rc.readResult(); st&StatusInTrans == 0 || st&StatusAutocommit != 0 {
		t.Fatalf("status in txn = %x", st)
	}
	rc.command(ComQuery, []byte("commit"))
	if _, _, st := rc.readResult(); st != StatusAutocommit {
		t.Fatalf("status after commit = %x", st)
	}

	// Multi-statements are off for this client until COM_SET_OPTION turns them on.
	rc.command(ComQuery, []byte("select 1; select 1"))
	wantErrCode(t, rc.read(), 1064)
	rc.command(ComSetOption, []byte{0, 0})
	if p := rc.read(); !isEnd(p) {
		t.Fatalf("set option: %q", p)
	}
	rc.command(ComQuery, []byte("select 1; insert x; fail"))
	if _, _, st := rc.readResult(); st&StatusMoreResultsExists == 0 {
		t.Fatal("first result lacks MORE_RESULTS")
	}
	if p, _, st := rc.readResult(); p[0] != headerOK || st&StatusMoreResultsExists == 0 {
		t.Fatalf("second result %q status %x", p, st)
	}
	wantErrCode(t, rc.read(), 1146)

	rc.command(ComFieldList, []byte("t\x00%"))
	for i := 0; ; i++ {
		p := rc.read()
		if isEnd(p) {
			if i != 2 {
				t.Fatalf("field list columns = %d", i)
			}
			break
		}
	}
	rc.command(ComFieldList, []byte("nope\x00"))
	wantErrCode(t, rc.read(), 1146)

	rc.command(0x50, nil)
	wantErrCode(t, rc.read(), 1047)
	rc.command(ComBinlogDumpGTID, []byte("abc"))
	if p := rc.read(); p[0] != headerOK || p[1] != 3 {
		t.Fatalf("raw command: %q", p)
	}
	rc.command(ComBinlogDumpGTID, []byte("err"))
	wantErrCode(t, rc.read(), 1236)

	// COM_RESET_CONNECTION: new handler, same database, statements gone.
	id, _ := rc.prepare("select 1")
	rc.command(ComResetConnection, nil)
	if p := rc.read(); p[0] != headerOK {
		t.Fatalf("reset connection: %q", p)
	}
	opened, closed := rec.counts()
	if opened != 2 || closed != 1 {
		t.Fatalf("handlers opened %d closed %d", opened, closed)
	}
	rc.command(ComQuery, []byte("select database()"))
	if _, rows, _ := rc.readResult(); len(rows) != 1 || string(rows[0][1:]) != "shop" {
		t.Fatalf("db after reset: %q", rows)
	}
	rc.command(ComStmtExecute, executePayload(id, 0, nil, nil, nil))
	wantErrCode(t, rc.read(), 1243)

	rc.command(ComQuit, nil)
	if _, err := rc.c.ReadPacket(); err == nil {
		t.Fatal("connection still open after COM_QUIT")
	}
}

func TestRawProtocolErrors(t *testing.T) {
	addr, srv, _ := startServer(t, nil)
	// Bad sequence id: ERR then close.
	rc := dialRaw(t, addr, "root", "", nativePasswordPlugin, rawCaps)
	rc.c.seq = 5
	rc.write([]byte{ComPing})
	rc.c.seq = 6
	wantErrCode(t, rc.read(), 1156)
	if _, err := rc.c.ReadPacket(); err == nil {
		t.Fatal("connection open after bad sequence")
	}

	// Malformed execute payloads are refused; the connection stays usable.
	rc = dialRaw(t, addr, "root", "", nativePasswordPlugin, rawCaps)
	id, _ := rc.prepare("select ?")
	rc.command(ComStmtExecute, executePayload(id, 0, []byte{0}, []uint16{0x77}, []byte{1}))
	wantErrCode(t, rc.read(), 1835)
	rc.command(ComStmtExecute, []byte{1})
	wantErrCode(t, rc.read(), 1835)
	rc.command(ComStmtExecute, executePayload(id, 0, []byte{0}, []uint16{uint16(TypeVarString)}, []byte{0xfc, 0xff}))
	wantErrCode(t, rc.read(), 1835)
	rc.command(ComPing, nil)
	if p := rc.read(); p[0] != headerOK {
		t.Fatalf("ping: %q", p)
	}

	// Pre-4.1 handshake response is rejected.
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	c := newConn(nc, nc, nc, 0)
	if _, err := c.ReadPacket(); err != nil {
		t.Fatal(err)
	}
	c.WritePacket([]byte{0x05, 0x00, 0, 0, 0, 'r', 'o', 'o', 't', 0})
	c.Flush()
	p, err := c.ReadPacket()
	if err != nil {
		t.Fatal(err)
	}
	wantErrCode(t, p, 1043)
	if srv.ConnCount() < 1 {
		t.Fatal("ConnCount")
	}
}
