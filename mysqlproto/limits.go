package mysqlproto

import (
	"net"
	"time"

	"github.com/binlite/binlite/mysqlerr"
)

// Limits bound what clients may hold of the server: connections, descriptors and
// time. The server reads them through Config.Limits whenever it needs one (at every
// accept, login and, for handlers without SessionTimeouts, every command), so a
// SET GLOBAL takes effect for the next connection without a restart. Zero means no
// limit everywhere.
type Limits struct {
	// MaxConnections is max_connections: a connection beyond it is refused with
	// ER_CON_COUNT_ERROR (1040) in place of the greeting, except that one more is
	// accepted and kept, after login, for an account that is a connection
	// administrator (CONNECTION_ADMIN or SUPER), as MySQL does. Connections that
	// have not logged in count, as they do in MySQL: this is what caps them, with
	// ConnectTimeout bounding how long each may stay.
	MaxConnections int
	// MaxUserConnections is max_user_connections: logins of one account beyond it
	// get ER_TOO_MANY_USER_CONNECTIONS (1203).
	MaxUserConnections int
	// MaxClients is how many client connections the process's descriptors allow
	// once those kept for storage and logs are set aside; a connection beyond it is
	// refused with 1040 (and counted in Connection_errors_internal).
	MaxClients int

	// ConnectTimeout is connect_timeout: the whole handshake must end within it.
	ConnectTimeout time.Duration
	// WaitTimeout and InteractiveTimeout are how long a logged-in connection may sit
	// idle between commands (CLIENT_INTERACTIVE clients take InteractiveTimeout);
	// used only when the handler does not implement SessionTimeouts.
	WaitTimeout, InteractiveTimeout time.Duration
	// NetReadTimeout bounds each wait for more of a packet that has begun to arrive;
	// NetWriteTimeout each wait for the client to take more of a response. Used only
	// when the handler does not implement SessionTimeouts.
	NetReadTimeout, NetWriteTimeout time.Duration
}

// SessionTimeouts is implemented by a Handler whose session variables decide its
// timeouts (MySQL's session wait_timeout, net_read_timeout and net_write_timeout).
// The server asks before every command, so SET SESSION applies from the next one.
type SessionTimeouts interface {
	Timeouts() (wait, netRead, netWrite time.Duration)
}

// Account is what an AccountAuthenticator knows of a login.
type Account struct {
	// Plugin is the account's authentication plugin: PluginNativePassword (also
	// when empty) or PluginCachingSHA2.
	Plugin string
	Stage2 []byte // mysql_native_password: SHA1(SHA1(password)); nil for no password
	// AuthString is caching_sha2_password's stored form ("$A$005$...", "" for no
	// password).
	AuthString string
	// SSL is the account's REQUIRE clause.
	SSL SSLRequirement
	// Name identifies the account the login matched (user@host pattern):
	// max_user_connections counts connections per account, as MySQL does.
	Name string
	// ConnectionAdmin says the account may take the connection kept beyond
	// max_connections (MySQL: CONNECTION_ADMIN or SUPER).
	ConnectionAdmin bool
}

// AccountAuthenticator is an Authenticator that also names the account a login
// resolves to and its connection privileges. Without it, accounts are counted by
// user name and none is a connection administrator.
type AccountAuthenticator interface {
	Authenticator
	LookupAccount(user, host string) (Account, bool)
}

// connState is what the server tracks of one accepted connection.
type connState struct {
	pending bool   // has not finished the handshake
	account string // set at login; counted in Server.perAccount
}

// ConnStats are the connection counters SHOW GLOBAL STATUS reports, under the
// names of MySQL's status variables.
type ConnStats struct {
	Connections          uint64    // Connections: connections accepted
	Connected            int       // Threads_connected: open client connections
	Pending              int       // of those, not logged in yet
	MaxUsed              int       // Max_used_connections
	MaxUsedTime          time.Time // Max_used_connections_time
	AbortedConnects      uint64    // Aborted_connects: failed handshakes and logins
	AbortedClients       uint64    // Aborted_clients: sessions ended without COM_QUIT
	ErrorsAccept         uint64    // Connection_errors_accept: accept() failed
	ErrorsInternal       uint64    // Connection_errors_internal: no descriptors left for clients
	ErrorsMaxConnections uint64    // Connection_errors_max_connections
}

// Stats returns the connection counters.
func (s *Server) Stats() ConnStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stats
	st.Connected = len(s.conns)
	st.Pending = s.pending
	return st
}

func (s *Server) limits() Limits {
	if s.cfg.Limits == nil {
		return Limits{}
	}
	return s.cfg.Limits()
}

// admission is what the accept loop does with a new connection.
type admission int

const (
	admitted admission = iota
	refusedMaxConnections
	refusedDescriptors
	serverClosed
)

// admit decides on a freshly accepted connection and, when it is admitted, tracks
// it as pending. Called with s.mu held.
func (s *Server) admit(nc net.Conn, lim Limits, now time.Time) admission {
	switch {
	case s.closed:
		return serverClosed
	case lim.MaxClients > 0 && len(s.conns) >= lim.MaxClients:
		s.stats.ErrorsInternal++
		return refusedDescriptors
	case lim.MaxConnections > 0 && len(s.conns) > lim.MaxConnections:
		// One connection beyond max_connections gets as far as login, where only
		// a connection administrator may keep it.
		s.stats.ErrorsMaxConnections++
		return refusedMaxConnections
	}
	s.conns[nc] = &connState{pending: true}
	s.pending++
	s.wg.Add(1)
	if n := len(s.conns); n > s.stats.MaxUsed {
		s.stats.MaxUsed, s.stats.MaxUsedTime = n, now
	}
	return admitted
}

// endPending counts a connection whose handshake failed (it stays tracked until
// its goroutine ends) and frees its pending slot.
func (s *Server) endPending(nc net.Conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.AbortedConnects++
	if st := s.conns[nc]; st != nil && st.pending {
		st.pending = false
		s.pending--
	}
}

// countAbortedClient counts a session that ended without COM_QUIT.
func (s *Server) countAbortedClient() {
	s.mu.Lock()
	s.stats.AbortedClients++
	s.mu.Unlock()
}

// login admits an authenticated connection as a session: max_connections for all
// but connection administrators, then max_user_connections for the account.
func (s *Server) login(nc net.Conn, acct Account, user string) error {
	lim := s.limits()
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.conns[nc]
	if st == nil || !st.pending {
		// Closed meanwhile (the server is shutting down).
		return mysqlerr.New(mysqlerr.ErServerShutdown, "Server shutdown in progress")
	}
	if lim.MaxConnections > 0 && !acct.ConnectionAdmin && len(s.conns) > lim.MaxConnections {
		return mysqlerr.New(mysqlerr.ErConCountError, "Too many connections")
	}
	if lim.MaxUserConnections > 0 && s.perAccount[acct.Name] >= lim.MaxUserConnections {
		return mysqlerr.New(mysqlerr.ErTooManyUserConnections,
			"User %s already has more than 'max_user_connections' active connections", user)
	}
	st.pending = false
	s.pending--
	st.account = acct.Name
	s.perAccount[acct.Name]++
	return nil
}

// tooManyConnections answers a refused connection in place of the greeting, as
// MySQL does, and closes it. The ERR packet goes into an empty socket buffer, so
// the write does not wait for the client; the deadline is for a peer already gone.
func tooManyConnections(nc net.Conn) {
	c := newConn(nc, nc, nc, 0)
	_ = nc.SetWriteDeadline(time.Now().Add(time.Second))
	if err := c.WriteError(mysqlerr.New(mysqlerr.ErConCountError, "Too many connections")); err == nil {
		_ = c.Flush()
	}
	nc.Close()
}
