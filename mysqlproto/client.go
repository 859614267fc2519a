package mysqlproto

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net"
	"time"

	"github.com/binlite/binlite/mysqlerr"
)

// clientCapabilities are what binlite's own client (the replica's IO thread) asks for.
const clientCapabilities = ClientLongPassword | ClientLongFlag | ClientProtocol41 |
	ClientTransactions | ClientSecureConnection | ClientMultiResults | ClientPluginAuth

// DialOptions say how binlite's client (the replica's IO thread) logs in.
type DialOptions struct {
	User, Password string
	// TLS, when set, upgrades the connection before authenticating (SOURCE_SSL=1);
	// a server that does not offer TLS is then refused (CR_SSL_CONNECTION_ERROR).
	TLS *tls.Config
	// GetPublicKey lets caching_sha2_password's full authentication without TLS ask
	// the server for its RSA public key (GET_SOURCE_PUBLIC_KEY=1). Without it, and
	// without TLS, such a login fails as MySQL's does.
	GetPublicKey bool
}

// Dial opens a client connection and authenticates with mysql_native_password or
// caching_sha2_password, without TLS.
func Dial(ctx context.Context, addr, user, password string) (*Conn, error) {
	return DialWith(ctx, addr, DialOptions{User: user, Password: password})
}

// DialWith opens a client connection as o says. The replica uses it to reach its
// source; it speaks only what that needs.
func DialWith(ctx context.Context, addr string, o DialOptions) (*Conn, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	c := newConn(nc, nc, nc, 1<<30)
	if dl, ok := ctx.Deadline(); ok {
		nc.SetDeadline(dl)
	}
	if err := c.clientHandshake(ctx, o); err != nil {
		c.Close()
		return nil, err
	}
	c.netConn.SetDeadline(time.Time{})
	return c, nil
}

// Close closes the network connection.
func (c *Conn) Close() error {
	if c.netConn == nil {
		return nil
	}
	return c.netConn.Close()
}

// PacketBuffered reports whether a whole packet has already been received, so the
// next ReadPacket returns without waiting for the network. A reader that holds
// work it must not keep while it waits (the replica's unwritten relay batch) asks
// this before every read: bytes being buffered is not enough, since they may be
// only the start of a packet.
func (c *Conn) PacketBuffered() bool {
	n := c.r.Buffered()
	if n < 4 {
		return false
	}
	hdr, err := c.r.Peek(4)
	if err != nil {
		return false
	}
	size := int(uint32(hdr[0]) | uint32(hdr[1])<<8 | uint32(hdr[2])<<16)
	// A maximum-size chunk continues in the next packet: not whole yet.
	return size < maxPacketChunk && n >= 4+size
}

// Client-side error codes (CR_*) of the login.
const (
	crSSLConnectionError = 2026
	crAuthPluginErr      = 2061
)

func (c *Conn) clientHandshake(ctx context.Context, o DialOptions) error {
	greet, err := c.ReadPacket()
	if err != nil {
		return fmt.Errorf("read greeting: %w", err)
	}
	if len(greet) > 0 && greet[0] == headerErr {
		return ParseError(greet)
	}
	r := &reader{buf: greet}
	if r.byte1() != 10 {
		return malformed("unsupported protocol version")
	}
	r.nulString() // server version
	r.uint32()    // connection id
	scramble := append([]byte(nil), r.bytes(8)...)
	r.byte1()
	caps := uint32(r.uint16())
	r.byte1()  // charset
	r.uint16() // status
	caps |= uint32(r.uint16()) << 16
	authLen := int(r.byte1())
	r.bytes(10)
	if n := max(13, authLen-8); r.remaining() >= n {
		part := r.bytes(n)
		scramble = append(scramble, part[:len(part)-1]...) // drop the trailing NUL
	}
	plugin := PluginNativePassword
	if caps&ClientPluginAuth != 0 && r.remaining() > 0 {
		plugin = r.nulString()
	}
	if r.err != nil || caps&ClientProtocol41 == 0 {
		return malformed("malformed greeting")
	}
	if plugin != PluginCachingSHA2 {
		plugin = PluginNativePassword
	}
	want := clientCapabilities
	if o.TLS != nil {
		if caps&ClientSSL == 0 {
			return mysqlerr.New(crSSLConnectionError, "SSL connection error: SSL is required but the server doesn't support it")
		}
		want |= ClientSSL
	}
	c.capabilities = want & caps
	b := make([]byte, 0, 128)
	b = appendUint32(b, c.capabilities)
	b = appendUint32(b, 1<<24)
	b = append(b, byte(CharsetUTF8MB4))
	b = append(b, make([]byte, 23)...)
	if o.TLS != nil {
		// SSLRequest: the fixed part of the response, then the TLS handshake.
		if err := c.WritePacket(b); err != nil {
			return err
		}
		if err := c.Flush(); err != nil {
			return err
		}
		if err := c.startTLS(ctx, o.TLS, false); err != nil {
			return mysqlerr.New(crSSLConnectionError, "SSL connection error: %v", err)
		}
	}
	resp := clientAuthResponse(plugin, o.Password, scramble)
	b = append(b, o.User...)
	b = append(b, 0)
	b = append(b, byte(len(resp)))
	b = append(b, resp...)
	b = append(b, plugin...)
	b = append(b, 0)
	if err := c.WritePacket(b); err != nil {
		return err
	}
	if err := c.Flush(); err != nil {
		return err
	}
	for {
		p, err := c.ReadPacket()
		if err != nil {
			return fmt.Errorf("read auth result: %w", err)
		}
		var reply []byte
		switch {
		case len(p) > 0 && p[0] == headerOK:
			return nil
		case len(p) > 0 && p[0] == headerErr:
			return ParseError(p)
		case len(p) > 0 && p[0] == headerEOF: // AuthSwitchRequest
			ar := &reader{buf: p[1:]}
			plugin = ar.nulString()
			if plugin != PluginNativePassword && plugin != PluginCachingSHA2 {
				return mysqlerr.New(crAuthPluginErr, "server asks for authentication plugin %q, which binlite's client does not speak", plugin)
			}
			scramble = append([]byte(nil), ar.rest()...)
			if n := len(scramble); n > 0 && scramble[n-1] == 0 {
				scramble = scramble[:n-1]
			}
			reply = clientAuthResponse(plugin, o.Password, scramble)
			if reply == nil {
				reply = []byte{}
			}
		case len(p) > 1 && p[0] == authMoreData && plugin == PluginCachingSHA2:
			if reply, err = c.sha2MoreData(p[1:], o, scramble); err != nil {
				return err
			}
		default:
			return malformed("unexpected packet during authentication")
		}
		if reply == nil {
			continue
		}
		if err := c.WritePacket(reply); err != nil {
			return err
		}
		if err := c.Flush(); err != nil {
			return err
		}
	}
}

func clientAuthResponse(plugin, password string, scramble []byte) []byte {
	if plugin == PluginCachingSHA2 {
		return CachingSHA2Response(password, scramble)
	}
	return NativePasswordResponse(password, scramble)
}

// sha2MoreData answers caching_sha2_password's AuthMoreData: nothing after a fast
// authentication, the password for a full one (in clear over TLS, RSA-encrypted
// otherwise), the public key request when the key is to be fetched.
func (c *Conn) sha2MoreData(data []byte, o DialOptions, scramble []byte) ([]byte, error) {
	switch {
	case len(data) == 1 && data[0] == sha2FastAuthSuccess:
		return nil, nil
	case len(data) == 1 && data[0] == sha2PerformFullAuth:
		if c.Secure() {
			return append([]byte(o.Password), 0), nil
		}
		if !o.GetPublicKey {
			return nil, mysqlerr.New(crAuthPluginErr, "Authentication plugin 'caching_sha2_password' reported error: Authentication requires secure connection.")
		}
		return []byte{sha2RequestPublicKey}, nil
	}
	// The server's public key, PEM-encoded.
	blk, _ := pem.Decode(data)
	if blk == nil {
		return nil, malformed("bad caching_sha2_password public key")
	}
	key, err := x509.ParsePKIXPublicKey(blk.Bytes)
	if err != nil {
		return nil, fmt.Errorf("caching_sha2_password public key: %w", err)
	}
	pub, ok := key.(*rsa.PublicKey)
	if !ok {
		return nil, malformed("caching_sha2_password public key is not RSA")
	}
	enc, err := rsa.EncryptOAEP(sha1.New(), rand.Reader, pub, xorScramble(append([]byte(o.Password), 0), scramble), nil)
	if err != nil {
		return nil, fmt.Errorf("caching_sha2_password: encrypt password: %w", err)
	}
	return enc, nil
}

// ParseError decodes an ERR packet into a *mysqlerr.Error.
func ParseError(p []byte) error {
	r := &reader{buf: p}
	r.byte1()
	code := r.uint16()
	state := "HY000"
	if r.remaining() > 6 && r.buf[r.pos] == '#' {
		r.byte1()
		state = string(r.bytes(5))
	}
	msg := string(r.rest())
	if r.err != nil {
		return malformed("malformed error packet")
	}
	return &mysqlerr.Error{Code: code, State: state, Message: msg}
}

// Command sends a command packet (a new exchange).
func (c *Conn) Command(cmd byte, payload []byte) error {
	c.ResetSequence()
	b := make([]byte, 0, 1+len(payload))
	b = append(b, cmd)
	b = append(b, payload...)
	if err := c.WritePacket(b); err != nil {
		return err
	}
	return c.Flush()
}

// Exec runs a statement with COM_QUERY and returns its rows as text (NULL as nil);
// statements without a result set return no rows.
func (c *Conn) Exec(sql string) ([][]*string, error) {
	if err := c.Command(ComQuery, []byte(sql)); err != nil {
		return nil, err
	}
	p, err := c.ReadPacket()
	if err != nil {
		return nil, err
	}
	switch {
	case len(p) == 0:
		return nil, malformed("empty response")
	case p[0] == headerOK:
		return nil, nil
	case p[0] == headerErr:
		return nil, ParseError(p)
	}
	r := &reader{buf: p}
	ncols := int(r.lenEncInt())
	for i := 0; i < ncols; i++ {
		if _, err := c.ReadPacket(); err != nil {
			return nil, err
		}
	}
	if _, err := c.ReadPacket(); err != nil { // EOF after the column definitions
		return nil, err
	}
	var rows [][]*string
	for {
		p, err := c.ReadPacket()
		if err != nil {
			return nil, err
		}
		if len(p) > 0 && p[0] == headerErr {
			return nil, ParseError(p)
		}
		if len(p) < 9 && len(p) > 0 && p[0] == headerEOF {
			return rows, nil
		}
		rr := &reader{buf: p}
		row := make([]*string, ncols)
		for i := range row {
			if rr.remaining() > 0 && rr.buf[rr.pos] == 0xfb {
				rr.byte1()
				continue
			}
			v := string(rr.lenEncBytes())
			row[i] = &v
		}
		if rr.err != nil {
			return nil, malformed("malformed row")
		}
		rows = append(rows, row)
	}
}

// WriteEOFPacket writes an EOF packet and flushes (the end of a non-blocking dump).
func (c *Conn) WriteEOFPacket() error {
	if err := c.writeEOF(c.statusFlags(), 0); err != nil {
		return err
	}
	return c.Flush()
}
