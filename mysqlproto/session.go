package mysqlproto

import (
	"errors"
	"io"
	"log/slog"
	"net"
	"runtime/debug"
	"time"

	"github.com/binlite/binlite/mysqlerr"
)

// session is the command-phase state of one connection.
type session struct {
	srv     *Server
	nc      net.Conn
	conn    *Conn
	info    *ConnInfo
	handler Handler
	log     *slog.Logger
	db      string
	stmts   map[uint32]*preparedStmt
	nextID  uint32
	lastID  uint32 // last prepared statement, for MariaDB's id 0xffffffff
	closing bool   // set when the connection must end after this command
	// The running COM_QUERY's sending state (sendResult): send is sendResult
	// bound once; sent: a result went out; ioErr: a write failed; aborted: rows
	// ended with an error, sent as an ERR packet.
	send           func(*Result, bool) error
	sent           bool
	ioErr, aborted error
}

func (s *Server) serveConn(nc net.Conn) {
	defer s.untrack(nc)
	connID := s.newConnID()
	log := s.log.With("conn", connID, "remote", nc.RemoteAddr().String())
	c := newConn(nc, nc, nc, s.cfg.MaxAllowedPacket)
	host := hostOf(nc.RemoteAddr())

	// connect_timeout bounds the whole connection phase, however the client stalls
	// (silent, half a packet, a slow trickle).
	if d := s.limits().ConnectTimeout; d > 0 {
		if err := nc.SetDeadline(time.Now().Add(d)); err != nil {
			s.endPending(nc)
			nc.Close()
			return
		}
	}
	hr, acct, err := s.handshake(c, connID, host)
	if err == nil {
		if err = s.login(nc, acct, hr.user); err != nil {
			err = s.failHandshake(c, err)
		}
	}
	if err != nil {
		log.Debug("handshake failed", "err", err)
		s.endPending(nc)
		closeAfterHandshake(nc, err)
		return
	}
	info := &ConnInfo{
		ID: connID, User: hr.user, Host: host, RemoteAddr: nc.RemoteAddr(),
		DB: hr.db, Capabilities: c.capabilities, Conn: c, TLS: c.TLSState(),
	}
	sess := &session{srv: s, nc: nc, conn: c, info: info, log: log, stmts: map[uint32]*preparedStmt{}}
	defer sess.closeHandler()
	if err := sess.open(hr.db); err != nil {
		log.Debug("session open failed", "err", err)
		if werr := c.WriteError(err); werr == nil {
			_ = c.Flush()
		}
		s.countAbortedClient()
		lingerClose(nc)
		return
	}
	c.status = sess.status
	if err := c.WriteOK(0, 0); err != nil {
		s.countAbortedClient()
		nc.Close()
		return
	}
	if err := c.Flush(); err != nil {
		s.countAbortedClient()
		nc.Close()
		return
	}
	// From here on the session's own timeouts apply, command by command.
	if err := nc.SetDeadline(time.Time{}); err != nil {
		s.countAbortedClient()
		nc.Close()
		return
	}
	sess.loop()
}

// closeAfterHandshake ends a connection whose handshake failed: at once when the
// client is gone or stalled (nothing was sent that it could miss), otherwise after
// the ERR packet telling it why has had its chance to arrive.
func closeAfterHandshake(nc net.Conn, err error) {
	var me *mysqlerr.Error
	if !errors.As(err, &me) {
		nc.Close()
		return
	}
	lingerClose(nc)
}

// open creates the handler and selects db, as after the handshake or a reset.
func (sess *session) open(db string) (err error) {
	defer sess.recoverPanic("NewHandler", &err)
	h, err := sess.srv.cfg.NewHandler(sess.info)
	if err != nil {
		return err
	}
	sess.handler = h
	if db != "" {
		if err := h.UseDB(db); err != nil {
			return err
		}
	}
	sess.db = db
	sess.info.DB = db
	return nil
}

func (sess *session) closeHandler() {
	for id, ps := range sess.stmts {
		sess.safe("Stmt.Close", ps.stmt.Close)
		delete(sess.stmts, id)
	}
	if sess.handler != nil {
		sess.safe("Handler.Close", sess.handler.Close)
		sess.handler = nil
	}
}

// safe runs f, logging (not propagating) a panic.
func (sess *session) safe(what string, f func()) {
	var err error
	defer sess.recoverPanic(what, &err)
	f()
}

// recoverPanic turns a handler panic into ER_UNKNOWN_ERROR so that one bad
// statement cannot take the server down.
func (sess *session) recoverPanic(what string, errp *error) {
	if v := recover(); v != nil {
		sess.log.Error("panic in handler", "in", what, "panic", v, "stack", string(debug.Stack()))
		*errp = mysqlerr.New(mysqlerr.ErUnknownError, "internal error in %s: %v", what, v)
	}
}

func (sess *session) status() uint16 {
	if sess.handler == nil {
		return StatusAutocommit
	}
	var (
		autocommit, inTxn, noBackslash bool
		err                            error
	)
	func() {
		defer sess.recoverPanic("Status", &err)
		autocommit, inTxn = sess.handler.Status()
		if e, ok := sess.handler.(EscapesReporter); ok {
			noBackslash = e.NoBackslashEscapes()
		}
	}()
	if err != nil {
		return StatusAutocommit
	}
	var st uint16
	if autocommit {
		st |= StatusAutocommit
	}
	if inTxn {
		st |= StatusInTrans
	}
	if noBackslash {
		st |= StatusNoBackslashEscapes
	}
	return st
}

// loop reads and dispatches commands until the client quits, I/O fails or a
// timeout ends the session.
func (sess *session) loop() {
	c := sess.conn
	for !sess.closing {
		c.ResetSequence()
		wait, netRead, netWrite := sess.timeouts()
		c.writeTimeout = netWrite
		payload, err := c.readCommand(wait, netRead)
		if err != nil {
			sess.endOnReadError(err)
			return
		}
		if len(payload) == 0 {
			if werr := c.WriteError(malformed("empty command")); werr == nil {
				_ = c.Flush()
			}
			sess.srv.countAbortedClient()
			lingerClose(sess.nc)
			return
		}
		sess.srv.countQuestion()
		large := len(payload) >= largeCommand
		if large {
			sess.srv.large.begin()
		}
		err = sess.serveCommand(payload)
		if large {
			payload = nil // what the command read goes back to the system too
			sess.srv.large.end()
		}
		if err != nil {
			sess.log.Debug("write response", "err", err)
			sess.srv.countAbortedClient()
			sess.nc.Close()
			return
		}
	}
	sess.nc.Close()
}

// serveCommand runs one command and sends its response. The error is a write
// failure.
func (sess *session) serveCommand(payload []byte) error {
	if err := sess.runCommand(payload[0], payload[1:]); err != nil {
		return err
	}
	return sess.conn.Flush()
}

// endOnReadError ends the session after a failed command read: a protocol error
// and an idle session past wait_timeout are told why (MySQL 8.0.24 and later send
// ER_CLIENT_INTERACTION_TIMEOUT before closing), a stalled packet and a vanished
// client are not.
func (sess *session) endOnReadError(err error) {
	c := sess.conn
	var me *mysqlerr.Error
	switch {
	case errors.As(err, &me):
		sess.log.Debug("bad packet", "err", err)
	case errors.Is(err, errIdleTimeout):
		sess.log.Debug("closing idle session", "err", err)
		me = mysqlerr.New(mysqlerr.ErClientInteractionTimeout,
			"The client was disconnected by the server because of inactivity. See wait_timeout and interactive_timeout for configuring this behavior.")
	case errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed):
		// The client hung up without COM_QUIT.
	default:
		sess.log.Debug("read command", "err", err)
	}
	sess.srv.countAbortedClient()
	if me == nil {
		sess.nc.Close()
		return
	}
	if c.writeTimeout <= 0 {
		_ = sess.nc.SetWriteDeadline(time.Now().Add(time.Second))
	}
	if werr := c.WriteError(me); werr == nil {
		_ = c.Flush()
	}
	lingerClose(sess.nc)
}

// timeouts are the session's wait_timeout, net_read_timeout and net_write_timeout:
// the handler's session variables when it has them, else the server's limits.
func (sess *session) timeouts() (wait, netRead, netWrite time.Duration) {
	if st, ok := sess.handler.(SessionTimeouts); ok {
		return st.Timeouts()
	}
	lim := sess.srv.limits()
	wait = lim.WaitTimeout
	if sess.conn.capabilities&ClientInteractive != 0 {
		wait = lim.InteractiveTimeout
	}
	return wait, lim.NetReadTimeout, lim.NetWriteTimeout
}

// runCommand dispatches one command, converting a handler panic into an ERR
// packet that replaces whatever part of the response was still buffered. The
// returned error is an I/O failure that ends the connection.
func (sess *session) runCommand(cmd byte, data []byte) (ioErr error) {
	seq := sess.conn.seq
	defer func() {
		if v := recover(); v != nil {
			sess.log.Error("panic in command", "cmd", cmd, "panic", v, "stack", string(debug.Stack()))
			sess.conn.discardOutput()
			sess.conn.seq = seq
			ioErr = sess.conn.WriteError(mysqlerr.New(mysqlerr.ErUnknownError, "internal error: %v", v))
		}
	}()
	return sess.dispatch(cmd, data)
}

// hostOf returns the client IP of addr (or its string form for non-IP addresses).
func hostOf(addr net.Addr) string {
	switch a := addr.(type) {
	case *net.TCPAddr:
		return a.IP.String()
	case nil:
		return ""
	}
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return addr.String()
	}
	return host
}

// errUnknownStmt reports a statement id the session does not have.
func errUnknownStmt(id uint32, where string) error {
	return mysqlerr.New(mysqlerr.ErUnknownStmtHandler,
		"Unknown prepared statement handler (%d) given to %s", id, where)
}
