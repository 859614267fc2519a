package mysqlproto

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"syscall"
	"time"
)

// Config configures a Server.
type Config struct {
	ServerVersion    string // e.g. "8.4.0-binlite"
	MaxAllowedPacket int    // default 64 MiB; larger commands get ER_NET_PACKET_TOO_LARGE and a close
	Auth             Authenticator
	NewHandler       func(c *ConnInfo) (Handler, error)
	Logger           *slog.Logger
	// Limits, when set, returns the connection limits and timeouts in force (see
	// Limits); without it nothing is limited and idle connections stay.
	Limits func() Limits
	// ReleaseMemory, when set, runs after the last running large command ends
	// (see largeCommands), once the Go heap has been given back: the server
	// returns what its C libraries keep.
	ReleaseMemory func()
	// Security, when set, returns the TLS configuration, require_secure_transport and
	// caching_sha2_password's RSA key in force (read at every connection).
	Security func() *Security
	// DefaultAuthPlugin is the plugin the greeting proposes; default
	// caching_sha2_password, MySQL 8.4's.
	DefaultAuthPlugin string
}

// Server accepts MySQL client connections and runs one session per connection.
type Server struct {
	cfg       Config
	log       *slog.Logger
	startTime time.Time

	mu         sync.Mutex
	closed     bool
	listeners  map[net.Listener]struct{}
	conns      map[net.Conn]*connState
	pending    int            // conns that have not logged in
	perAccount map[string]int // logged-in conns per account (max_user_connections)
	stats      ConnStats
	lastRefuse time.Time // when a refusal for want of descriptors was last logged
	nextID     uint32
	questions  uint64
	sha2       sha2Cache // caching_sha2_password's fast-authentication cache
	wg         sync.WaitGroup
	large      largeCommands
}

// NewServer returns a Server with cfg's zero fields defaulted.
func NewServer(cfg Config) *Server {
	if cfg.ServerVersion == "" {
		cfg.ServerVersion = defaultVersion
	}
	if cfg.MaxAllowedPacket <= 0 {
		cfg.MaxAllowedPacket = defaultMaxPacket
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Server{
		cfg:        cfg,
		log:        log,
		startTime:  time.Now(),
		listeners:  map[net.Listener]struct{}{},
		conns:      map[net.Conn]*connState{},
		perAccount: map[string]int{},
		large:      largeCommands{release: cfg.ReleaseMemory},
	}
}

// Serve accepts connections on l until Close; it then returns nil.
func (s *Server) Serve(l net.Listener) error {
	if s.cfg.NewHandler == nil {
		return errors.New("mysqlproto: Config.NewHandler is nil")
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.listeners[l] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.listeners, l)
		s.mu.Unlock()
	}()

	var backoff time.Duration
	for {
		nc, err := l.Accept()
		if err != nil {
			if s.isClosed() {
				return nil
			}
			if transientAcceptError(err) {
				// Out of descriptors or an aborted handshake: back off and retry.
				// The server never stops listening for want of descriptors.
				s.countAcceptError(err)
				backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
				time.Sleep(backoff)
				continue
			}
			return fmt.Errorf("mysqlproto: accept: %w", err)
		}
		backoff = 0
		if !s.place(nc) {
			return nil
		}
	}
}

// place admits or refuses a new connection; false once the server is closed.
func (s *Server) place(nc net.Conn) bool {
	lim := s.limits()
	now := time.Now()
	s.mu.Lock()
	s.stats.Connections++
	verdict := s.admit(nc, lim, now)
	logRefusal := verdict == refusedDescriptors && now.Sub(s.lastRefuse) >= time.Minute
	if logRefusal {
		s.lastRefuse = now
	}
	s.mu.Unlock()
	switch verdict {
	case admitted:
		go s.serveConn(nc)
	case serverClosed:
		nc.Close()
		return false
	case refusedDescriptors:
		if logRefusal {
			s.log.Warn("refusing client connections: the descriptors left are kept for storage and logs",
				"connections", s.ConnCount(), "max", lim.MaxClients)
		}
		tooManyConnections(nc)
	case refusedMaxConnections:
		tooManyConnections(nc)
	}
	return true
}

func (s *Server) countAcceptError(err error) {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return
	}
	s.mu.Lock()
	s.stats.ErrorsAccept++
	s.mu.Unlock()
}

func transientAcceptError(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout() ||
		errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) ||
		errors.Is(err, syscall.ECONNABORTED)
}

func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// untrack forgets a connection whose goroutine ends.
func (s *Server) untrack(nc net.Conn) {
	s.mu.Lock()
	if st := s.conns[nc]; st != nil {
		if st.pending {
			s.pending--
		}
		if st.account != "" {
			if s.perAccount[st.account]--; s.perAccount[st.account] <= 0 {
				delete(s.perAccount, st.account)
			}
		}
		delete(s.conns, nc)
	}
	s.mu.Unlock()
	s.wg.Done()
}

func (s *Server) newConnID() uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	if s.nextID == 0 {
		s.nextID = 1
	}
	return s.nextID
}

func (s *Server) countQuestion() {
	s.mu.Lock()
	s.questions++
	s.mu.Unlock()
}

// Close stops all listeners, closes every connection and waits for the sessions
// to finish (a handler call in progress finishes first).
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	var errs []error
	for l := range s.listeners {
		if err := l.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			errs = append(errs, err)
		}
	}
	for nc := range s.conns {
		nc.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	return errors.Join(errs...)
}

// ConnCount returns the number of open client connections.
func (s *Server) ConnCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// lingerClose closes a connection after an ERR packet telling the client why,
// first draining unread input briefly: closing a socket with unread data sends
// RST, which can make the client lose the ERR packet.
func lingerClose(nc net.Conn) {
	if tc, ok := nc.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
		_ = nc.SetReadDeadline(time.Now().Add(2 * time.Second))
		_, _ = io.CopyN(io.Discard, nc, 256<<20)
	}
	nc.Close()
}
