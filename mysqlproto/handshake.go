package mysqlproto

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/binlite/binlite/mysqlerr"
)

// handshakeResponse is the parsed HandshakeResponse41.
type handshakeResponse struct {
	capabilities uint32
	maxPacket    uint32
	charset      byte
	user         string
	authResponse []byte
	db           string
	plugin       string
	attrs        map[string]string
}

// writeGreeting sends the Initial Handshake Packet (protocol v10).
func (c *Conn) writeGreeting(version string, connID uint32, scramble []byte, status uint16, caps uint32, plugin string) error {
	b := make([]byte, 0, 128)
	b = append(b, 10)
	b = append(b, version...)
	b = append(b, 0)
	b = appendUint32(b, connID)
	b = append(b, scramble[:8]...)
	b = append(b, 0)
	b = appendUint16(b, uint16(caps&0xffff))
	b = append(b, byte(CharsetUTF8MB4))
	b = appendUint16(b, status)
	b = appendUint16(b, uint16(caps>>16))
	b = append(b, scrambleLen+1)
	b = append(b, make([]byte, 10)...)
	b = append(b, scramble[8:]...)
	b = append(b, 0)
	b = append(b, plugin...)
	b = append(b, 0)
	return c.WritePacket(b)
}

var errProtocol320 = mysqlerr.New(mysqlerr.ErHandshakeError,
	"Bad handshake: the pre-4.1 client protocol is not supported")

// parseHandshakeResponse decodes HandshakeResponse41; the 320 format is rejected,
// and so is an SSLRequest where none was offered.
func parseHandshakeResponse(payload []byte) (*handshakeResponse, error) {
	r := &reader{buf: payload}
	if len(payload) < 4 {
		return nil, malformed("handshake response too short")
	}
	caps := uint32(r.uint16())
	if caps&ClientProtocol41 == 0 {
		return nil, errProtocol320
	}
	caps |= uint32(r.uint16()) << 16
	hr := &handshakeResponse{capabilities: caps}
	hr.maxPacket = r.uint32()
	hr.charset = r.byte1()
	r.bytes(23)
	if r.err != nil {
		return nil, malformed("handshake response too short")
	}
	if caps&ClientSSL != 0 && r.remaining() == 0 {
		return nil, mysqlerr.New(mysqlerr.ErHandshakeError, "Bad handshake: SSL is not supported")
	}
	hr.user = r.nulString()
	switch {
	case caps&ClientPluginAuthLenencClientData != 0:
		hr.authResponse = r.lenEncBytes()
	case caps&ClientSecureConnection != 0:
		hr.authResponse = r.bytes(int(r.byte1()))
	default:
		hr.authResponse = []byte(r.nulString())
	}
	if r.err != nil {
		return nil, malformed("bad auth response in handshake")
	}
	// Trailing fields are optional in practice: clients stop early when they have
	// nothing to say, so each is read only if bytes remain.
	if caps&ClientConnectWithDB != 0 && r.remaining() > 0 {
		hr.db = r.nulString()
	}
	if caps&ClientPluginAuth != 0 && r.remaining() > 0 {
		hr.plugin = r.nulString()
	}
	if caps&ClientConnectAttrs != 0 && r.remaining() > 0 {
		attrs := &reader{buf: r.lenEncBytes()}
		if r.err != nil {
			return nil, malformed("bad connection attributes in handshake")
		}
		hr.attrs = map[string]string{}
		for attrs.remaining() > 0 {
			k := attrs.lenEncBytes()
			v := attrs.lenEncBytes()
			if attrs.err != nil {
				return nil, malformed("bad connection attributes in handshake")
			}
			hr.attrs[string(k)] = string(v)
		}
	}
	return hr, nil
}

// malformed builds ER_MALFORMED_PACKET with the connection-level SQLSTATE.
func malformed(format string, args ...any) *mysqlerr.Error {
	e := mysqlerr.New(mysqlerr.ErMalformedPacket, "Malformed communication packet: "+format, args...)
	e.State = "08S01"
	return e
}

// handshake runs the connection phase and returns the authenticated response and
// the account it matched. On failure it has already tried to send an ERR packet.
func (s *Server) handshake(c *Conn, connID uint32, host string) (*handshakeResponse, Account, error) {
	sec := s.security()
	scramble, err := newScramble()
	if err != nil {
		return nil, Account{}, err
	}
	caps := serverCapabilities
	if sec.TLS != nil {
		caps |= ClientSSL
	}
	if err := c.writeGreeting(s.cfg.ServerVersion, connID, scramble, StatusAutocommit, caps, s.defaultPlugin()); err != nil {
		return nil, Account{}, err
	}
	if err := c.Flush(); err != nil {
		return nil, Account{}, err
	}
	payload, err := c.ReadPacket()
	if err != nil {
		return nil, Account{}, s.failHandshake(c, err)
	}
	if isSSLRequest(payload) && sec.TLS != nil {
		// The handshake's deadline (connect_timeout) bounds the TLS handshake too.
		if err := c.startTLS(context.Background(), sec.TLS, true); err != nil {
			return nil, Account{}, fmt.Errorf("handshake: %w", err)
		}
		if payload, err = c.ReadPacket(); err != nil {
			return nil, Account{}, s.failHandshake(c, err)
		}
	}
	hr, err := parseHandshakeResponse(payload)
	if err != nil {
		return nil, Account{}, s.failHandshake(c, err)
	}
	c.capabilities = hr.capabilities & caps
	if sec.RequireSecureTransport && !c.Secure() {
		return nil, Account{}, s.failHandshake(c, mysqlerr.New(mysqlerr.ErSecureTransportRequired,
			"Connections using insecure transport are prohibited while --require_secure_transport=ON."))
	}
	acct, found := s.lookup(hr.user, host)
	ok := false
	if found {
		if ok, err = s.authenticate(c, hr, acct, scramble, sec); err != nil {
			return nil, Account{}, s.failHandshake(c, err)
		}
	}
	// An account that REQUIRE SSL or X509 is refused like a wrong password, as in MySQL.
	if ok && (acct.SSL >= RequireSSL && !c.Secure() || acct.SSL == RequireX509 && !c.hasVerifiedClientCert()) {
		ok = false
	}
	if !ok {
		using := "NO"
		if len(hr.authResponse) > 0 {
			using = "YES"
		}
		return nil, Account{}, s.failHandshake(c, mysqlerr.New(mysqlerr.ErAccessDenied,
			"Access denied for user '%s'@'%s' (using password: %s)", hr.user, host, using))
	}
	return hr, acct, nil
}

// isSSLRequest recognises the SSLRequest packet: a HandshakeResponse cut after its
// fixed 32-byte part, with CLIENT_SSL set.
func isSSLRequest(p []byte) bool {
	return len(p) == 32 && binary.LittleEndian.Uint32(p)&ClientSSL != 0
}

func (c *Conn) hasVerifiedClientCert() bool {
	st := c.TLSState()
	return st != nil && len(st.VerifiedChains) > 0
}

// defaultPlugin is the plugin the greeting proposes (MySQL 8.4: caching_sha2_password).
func (s *Server) defaultPlugin() string {
	if s.cfg.DefaultAuthPlugin != "" {
		return s.cfg.DefaultAuthPlugin
	}
	return PluginCachingSHA2
}

// authenticate runs the account's plugin. A client that answered the greeting with
// another plugin (or none: pre-plugin clients speak mysql_native_password) is sent
// an AuthSwitchRequest with a fresh scramble, as MySQL does.
func (s *Server) authenticate(c *Conn, hr *handshakeResponse, acct Account, scramble []byte, sec Security) (bool, error) {
	want := acct.Plugin
	if want == "" {
		want = PluginNativePassword
	}
	if want != PluginNativePassword && want != PluginCachingSHA2 {
		return false, mysqlerr.New(mysqlerr.ErPluginIsNotLoaded, "Plugin '%s' is not loaded", want)
	}
	clientPlugin := hr.plugin
	if hr.capabilities&ClientPluginAuth == 0 || clientPlugin == "" {
		clientPlugin = PluginNativePassword
	}
	resp := hr.authResponse
	if clientPlugin != want {
		if hr.capabilities&ClientPluginAuth == 0 {
			// The client cannot switch plugins.
			return false, nil
		}
		var err error
		if scramble, err = newScramble(); err != nil {
			return false, err
		}
		b := []byte{headerEOF}
		b = append(b, want...)
		b = append(b, 0)
		b = append(b, scramble...)
		b = append(b, 0)
		if err := c.WritePacket(b); err != nil {
			return false, err
		}
		if err := c.Flush(); err != nil {
			return false, err
		}
		if resp, err = c.ReadPacket(); err != nil {
			return false, err
		}
		hr.authResponse = resp
	}
	if want == PluginCachingSHA2 {
		return s.authSHA2(c, acct, resp, scramble, sec)
	}
	return verifyNativePassword(resp, scramble, acct.Stage2), nil
}

// lookup finds the account user@host logs in as.
func (s *Server) lookup(user, host string) (Account, bool) {
	switch a := s.cfg.Auth.(type) {
	case nil:
		// No authenticator: every user, empty password only.
		return Account{Name: user}, true
	case AccountAuthenticator:
		return a.LookupAccount(user, host)
	default:
		stage2, found := a.Lookup(user, host)
		return Account{Stage2: stage2, Name: user}, found
	}
}

// failHandshake reports err to the client when it is a protocol-level failure
// (not an I/O error) and returns it wrapped.
func (s *Server) failHandshake(c *Conn, err error) error {
	var me *mysqlerr.Error
	if errors.As(err, &me) {
		if werr := c.WriteError(me); werr == nil {
			_ = c.Flush()
		}
	}
	return fmt.Errorf("handshake: %w", err)
}
