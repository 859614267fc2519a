package engine

import (
	"bytes"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"hash/crc32"
	"math"
	"net/netip"
	"strconv"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlitec"
)

// MySQL's hashing, encoding, network address and UUID functions, and FIELD
// (manual 14.8, 14.13, 14.14, 14.24).

// miscFuncs are one connection's functions of this file.
type miscFuncs struct {
	st        *stmtState
	buf       scratch
	collators collators
	// shortLast is UUID_SHORT's last value on this connection, shortSalt the
	// connection's random low bits (see uuidShort).
	shortLast, shortSalt uint64
	// uuid makes UUID()'s version 1 values.
	uuid uuidV1
}

func registerMisc(c *sqlite3.SQLiteConn, st *stmtState) error {
	var salt [2]byte
	_, _ = rand.Read(salt[:])
	f := &miscFuncs{st: st, collators: collators{}, shortSalt: uint64(binary.BigEndian.Uint16(salt[:])) & 1023, uuid: newUUIDV1()}
	return registerFast(c, []fastFunc{
		{"md5", 1, true, f.digest(md5.New)},
		{"sha1", 1, true, f.digest(sha1.New)},
		{"binlite_sha2", 2, true, f.sha2},
		{"binlite_crc32", 1, true, f.crc32},
		{"binlite_to_base64", 1, true, f.toBase64},
		{"binlite_from_base64", 1, true, f.fromBase64},
		{"binlite_unhex", 1, true, f.unhex},
		{"binlite_soundex", 1, true, f.soundex},
		{"binlite_make_set", -1, true, f.makeSet},
		{"binlite_export_set", -1, true, f.exportSet},
		{"binlite_field", -1, true, f.field},
		{"binlite_inet_aton", 1, true, f.inetAton},
		{"binlite_inet_ntoa", 1, true, inetNtoa},
		{"binlite_inet6_aton", 1, true, f.inet6Aton},
		{"binlite_inet6_ntoa", 1, true, inet6Ntoa},
		{"binlite_is_ipv4", 1, true, f.isIPv4},
		{"binlite_is_ipv6", 1, true, f.isIPv6},
		{"binlite_is_ipv4_compat", 1, true, isIPv4Compat},
		{"binlite_is_ipv4_mapped", 1, true, isIPv4Mapped},
		{"binlite_is_uuid", 1, true, f.isUUID},
		{"binlite_uuid_to_bin", 1, true, f.uuidToBin},
		{"binlite_uuid_to_bin", 2, true, f.uuidToBin},
		{"binlite_bin_to_uuid", 1, true, f.binToUUID},
		{"binlite_bin_to_uuid", 2, true, f.binToUUID},
		{"binlite_uuid_short", 0, false, f.uuidShort},
		{"binlite_random_bytes", 1, false, randomBytes},
		{"binlite_sleep", 1, false, sleep},
		{"uuid", 0, false, f.newUUID},
	})
}

// digest is MD5 or SHA1: the digest of a value's bytes in lowercase hex.
func (f *miscFuncs) digest(newHash func() hash.Hash) sqlitec.Func {
	h := newHash()
	return func(c sqlitec.Context, args []sqlitec.Value) {
		s, ok := f.buf.text(&args[0])
		if !ok {
			return
		}
		h.Reset()
		h.Write(s)
		f.hexResult(c, h.Sum(f.buf.num[:0]))
	}
}

// hexResult gives sum in lowercase hex.
func (f *miscFuncs) hexResult(c sqlitec.Context, sum []byte) {
	out := f.buf.reset()
	out = hex.AppendEncode(out, sum)
	c.ResultText(f.buf.keep(out))
}

// sha2 is SHA2(s, bits): SHA-224, -256, -384 or -512 (0 is 256) in hex; NULL
// with warning 1583 for another length.
func (f *miscFuncs) sha2(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := textCopy(&args[0])
	n, ok2 := intArg(&args[1])
	if !ok || !ok2 {
		return
	}
	var sum []byte
	switch n {
	case 224:
		h := sha256.Sum224(s)
		sum = h[:]
	case 0, 256:
		h := sha256.Sum256(s)
		sum = h[:]
	case 384:
		h := sha512.Sum384(s)
		sum = h[:]
	case 512:
		h := sha512.Sum512(s)
		sum = h[:]
	default:
		f.st.warnf(mysqlerr.ErWrongParametersToNativeFct, "Incorrect parameters in the call to native function 'sha2'")
		return
	}
	f.hexResult(c, sum)
}

func (f *miscFuncs) crc32(c sqlitec.Context, args []sqlitec.Value) {
	if s, ok := f.buf.text(&args[0]); ok {
		c.ResultInt(int64(crc32.ChecksumIEEE(s)))
	}
}

// toBase64 is TO_BASE64: base64 with padding, a newline after every 76
// characters.
func (f *miscFuncs) toBase64(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := f.buf.text(&args[0])
	if !ok {
		return
	}
	enc := base64.StdEncoding.AppendEncode(nil, s)
	out := f.buf.reset()
	for i := 0; i < len(enc); i += 76 {
		if i > 0 {
			out = append(out, '\n')
		}
		out = append(out, enc[i:min(i+76, len(enc))]...)
	}
	c.ResultText(f.buf.keep(out))
}

// fromBase64 is FROM_BASE64: the bytes base64 text (whitespace ignored) spells,
// NULL for what is no base64.
func (f *miscFuncs) fromBase64(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := f.buf.text(&args[0])
	if !ok {
		return
	}
	clean := f.buf.reset()
	for _, b := range s {
		if b != ' ' && b != '\n' && b != '\r' && b != '\t' {
			clean = append(clean, b)
		}
	}
	f.buf.keep(clean)
	out, err := base64.StdEncoding.AppendDecode(nil, clean)
	if err != nil {
		return
	}
	c.ResultBlob(out)
}

// unhex is UNHEX: the bytes pairs of hex digits spell (an odd count starts
// with an implied 0); NULL for a character that is no hex digit.
func (f *miscFuncs) unhex(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := f.buf.text(&args[0])
	if !ok {
		return
	}
	out := make([]byte, 0, (len(s)+1)/2)
	i := 0
	if len(s)%2 == 1 {
		d := digitValue(s[0])
		if d > 15 {
			return
		}
		out = append(out, byte(d))
		i = 1
	}
	for ; i < len(s); i += 2 {
		hi, lo := digitValue(s[i]), digitValue(s[i+1])
		if hi > 15 || lo > 15 {
			return
		}
		out = append(out, byte(hi<<4|lo))
	}
	c.ResultBlob(out)
}

// soundexCodes are SOUNDEX's digits of the letters A to Z ('0': not coded).
const soundexCodes = "01230120022455012623010202"

// soundex is MySQL's SOUNDEX: the first letter, then the codes of the letters
// after it with repeats and uncoded letters left out, at least four
// characters (padded with 0); characters that are no letter are skipped.
func (f *miscFuncs) soundex(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := f.buf.text(&args[0])
	if !ok {
		return
	}
	out := f.buf.reset()
	var last byte
	for _, b := range s {
		if b >= 'a' && b <= 'z' {
			b -= 'a' - 'A'
		}
		if b < 'A' || b > 'Z' {
			continue
		}
		code := soundexCodes[b-'A']
		if len(out) == 0 {
			out = append(out, b)
			last = code
			continue
		}
		if code != '0' && code != last {
			out = append(out, code)
			last = code
		}
	}
	for len(out) > 0 && len(out) < 4 {
		out = append(out, '0')
	}
	c.ResultText(f.buf.keep(out))
}

// makeSet is MAKE_SET(bits, s1, s2, ...): the strings whose bit is set (NULLs
// left out), joined by commas.
func (f *miscFuncs) makeSet(c sqlitec.Context, args []sqlitec.Value) {
	if len(args) < 2 {
		return
	}
	n, ok := intArg(&args[0])
	if !ok {
		return
	}
	out := f.buf.reset()
	first := true
	for i := 1; i < len(args) && i <= 64; i++ {
		if uint64(n)&(1<<(i-1)) == 0 {
			continue
		}
		s, ok := f.buf.text(&args[i])
		if !ok {
			continue
		}
		if !first {
			out = append(out, ',')
		}
		first = false
		out = append(out, s...)
	}
	c.ResultText(f.buf.keep(out))
}

// exportSet is EXPORT_SET(bits, on, off[, separator[, n]]): for each of the
// first n bits (64 at most) from the lowest, on or off, joined by separator
// (a comma by default).
func (f *miscFuncs) exportSet(c sqlitec.Context, args []sqlitec.Value) {
	if len(args) < 3 {
		return
	}
	n, ok := intArg(&args[0])
	on, ok2 := textCopy(&args[1])
	off, ok3 := textCopy(&args[2])
	sep, count := []byte(","), int64(64)
	ok4, ok5 := true, true
	if len(args) > 3 {
		sep, ok4 = textCopy(&args[3])
	}
	if len(args) > 4 {
		count, ok5 = intArg(&args[4])
		if count < 0 || count > 64 {
			count = 64
		}
	}
	if !ok || !ok2 || !ok3 || !ok4 || !ok5 {
		return
	}
	out := f.buf.reset()
	for i := int64(0); i < count; i++ {
		if i > 0 {
			out = append(out, sep...)
		}
		if uint64(n)&(1<<i) != 0 {
			out = append(out, on...)
		} else {
			out = append(out, off...)
		}
	}
	c.ResultText(f.buf.keep(out))
}

// field is binlite_field(mode, collation, x, a, b, ...): FIELD(x, a, b, ...),
// the position of the first of a, b, ... equal to x (0 for none or a NULL x),
// compared as strings by the collation (mode 's') or as doubles ('n').
func (f *miscFuncs) field(c sqlitec.Context, args []sqlitec.Value) {
	if len(args) < 3 {
		return
	}
	x := &args[2]
	if x.IsNull() {
		c.ResultInt(0)
		return
	}
	if m := args[0].Bytes(); len(m) == 1 && m[0] == 's' {
		xs, _ := textCopy(x)
		cmp := f.collators.get(args[1].Bytes())
		for i := 3; i < len(args); i++ {
			s, ok := f.buf.text(&args[i])
			if !ok {
				continue
			}
			if cmp != nil && cmp(string(s), string(xs)) == 0 || cmp == nil && bytes.Equal(s, xs) {
				c.ResultInt(int64(i - 2))
				return
			}
		}
		c.ResultInt(0)
		return
	}
	xf, _ := floatArg(x)
	for i := 3; i < len(args); i++ {
		if v, ok := floatArg(&args[i]); ok && v == xf {
			c.ResultInt(int64(i - 2))
			return
		}
	}
	c.ResultInt(0)
}

// inetAton is INET_ATON: a dotted IPv4 address as a number ('127.1' is
// 127.0.0.1); NULL for what is none.
func (f *miscFuncs) inetAton(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := f.buf.text(&args[0])
	if !ok || len(s) == 0 {
		return
	}
	var result, part uint64
	dots := 0
	for _, ch := range s {
		switch {
		case ch >= '0' && ch <= '9':
			part = part*10 + uint64(ch-'0')
			if part > 255 {
				return
			}
		case ch == '.':
			dots++
			if dots > 3 {
				return
			}
			result = result<<8 + part
			part = 0
		default:
			return
		}
	}
	if s[len(s)-1] == '.' {
		return
	}
	switch dots {
	case 1:
		result <<= 16
	case 2:
		result <<= 8
	}
	c.ResultInt(int64(result<<8 + part))
}

// inetNtoa is INET_NTOA: a number below 2^32 as a dotted IPv4 address.
func inetNtoa(c sqlitec.Context, args []sqlitec.Value) {
	n, ok := intArg(&args[0])
	if !ok || n < 0 || n > math.MaxUint32 {
		return
	}
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], uint32(n))
	c.ResultString(netip.AddrFrom4(b).String())
}

// parseIP reads an IPv4 or IPv6 address as MySQL's INET6_ATON accepts it (no
// zone).
func parseIP(s []byte) (netip.Addr, bool) {
	a, err := netip.ParseAddr(string(s))
	if err != nil || a.Zone() != "" {
		return netip.Addr{}, false
	}
	return a, true
}

// inet6Aton is INET6_ATON: an address's 4 or 16 bytes; NULL for what is none.
func (f *miscFuncs) inet6Aton(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := f.buf.text(&args[0])
	if !ok {
		return
	}
	a, ok := parseIP(s)
	if !ok {
		return
	}
	if a.Is4() {
		b := a.As4()
		c.ResultBlob(b[:])
		return
	}
	b := a.As16()
	c.ResultBlob(b[:])
}

// inet6Ntoa is INET6_NTOA: 4 or 16 bytes as the address's text (an IPv4
// address within IPv6 with its dotted tail); NULL for other values.
func inet6Ntoa(c sqlitec.Context, args []sqlitec.Value) {
	v := &args[0]
	if v.Type() != sqlitec.TypeBlob {
		return
	}
	b := v.Bytes()
	switch len(b) {
	case 4:
		c.ResultString(netip.AddrFrom4([4]byte(b)).String())
	case 16:
		a := netip.AddrFrom16([16]byte(b))
		if v4Compat(b) {
			c.ResultString("::" + netip.AddrFrom4([4]byte(b[12:])).String())
			return
		}
		c.ResultString(a.String())
	}
}

// v4Compat: 16 bytes are an IPv4-compatible IPv6 address (::a.b.c.d, not ::
// or ::1).
func v4Compat(b []byte) bool {
	for _, x := range b[:12] {
		if x != 0 {
			return false
		}
	}
	return binary.BigEndian.Uint32(b[12:]) > 1
}

func (f *miscFuncs) isIPv4(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := f.buf.text(&args[0])
	if !ok {
		c.ResultInt(0)
		return
	}
	a, ok := parseIP(s)
	c.ResultInt(b2i(ok && a.Is4()))
}

func (f *miscFuncs) isIPv6(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := f.buf.text(&args[0])
	if !ok {
		c.ResultInt(0)
		return
	}
	a, ok := parseIP(s)
	c.ResultInt(b2i(ok && a.Is6()))
}

func isIPv4Compat(c sqlitec.Context, args []sqlitec.Value) {
	b := args[0].Bytes()
	c.ResultInt(b2i(args[0].Type() == sqlitec.TypeBlob && len(b) == 16 && v4Compat(b)))
}

func isIPv4Mapped(c sqlitec.Context, args []sqlitec.Value) {
	b := args[0].Bytes()
	ok := args[0].Type() == sqlitec.TypeBlob && len(b) == 16 && netip.AddrFrom16([16]byte(b)).Is4In6()
	c.ResultInt(b2i(ok))
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// parseUUID reads a UUID as MySQL's UUID functions accept it: 32 hex digits,
// bare, in the 8-4-4-4-12 groups, or those in braces.
func parseUUID(s []byte) ([16]byte, bool) {
	var out [16]byte
	if len(s) == 38 && s[0] == '{' && s[37] == '}' {
		s = s[1:37]
	}
	switch len(s) {
	case 36:
		if s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
			return out, false
		}
		var compact [32]byte
		n := 0
		for i, b := range s {
			if i == 8 || i == 13 || i == 18 || i == 23 {
				continue
			}
			compact[n] = b
			n++
		}
		s = compact[:]
		fallthrough
	case 32:
		if _, err := hex.Decode(out[:], s); err != nil {
			return out, false
		}
		return out, true
	}
	return out, false
}

func (f *miscFuncs) isUUID(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := f.buf.text(&args[0])
	if !ok {
		return
	}
	_, valid := parseUUID(s)
	c.ResultInt(b2i(valid))
}

// uuidToBin is UUID_TO_BIN(uuid[, swap]): the 16 bytes, with the time-low and
// time-high groups swapped when swap is true; a string that is no UUID fails
// with 1411.
func (f *miscFuncs) uuidToBin(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := f.buf.text(&args[0])
	if !ok {
		return
	}
	u, valid := parseUUID(s)
	if !valid {
		c.ResultError(fnErrorText(mysqlerr.ErWrongValueForType, "Incorrect string value: '"+string(s)+"' for function uuid_to_bin"))
		return
	}
	if len(args) == 2 {
		if swap, ok := intArg(&args[1]); ok && swap != 0 {
			var w [16]byte
			copy(w[0:2], u[6:8])
			copy(w[2:4], u[4:6])
			copy(w[4:8], u[0:4])
			copy(w[8:], u[8:])
			u = w
		}
	}
	c.ResultBlob(u[:])
}

// binToUUID is BIN_TO_UUID(bytes[, swap]): 16 bytes as a UUID's text; other
// values fail with 1411.
func (f *miscFuncs) binToUUID(c sqlitec.Context, args []sqlitec.Value) {
	b, ok := f.buf.text(&args[0])
	if !ok {
		return
	}
	if len(b) != 16 {
		c.ResultError(fnErrorText(mysqlerr.ErWrongValueForType, "Incorrect string value: '"+string(b)+"' for function bin_to_uuid"))
		return
	}
	u := [16]byte(b)
	if len(args) == 2 {
		if swap, ok := intArg(&args[1]); ok && swap != 0 {
			var w [16]byte
			copy(w[0:4], u[4:8])
			copy(w[4:6], u[2:4])
			copy(w[6:8], u[0:2])
			copy(w[8:], u[8:])
			u = w
		}
	}
	h := hex.EncodeToString(u[:])
	c.ResultString(h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:])
}

// uuidShort is UUID_SHORT: an increasing 63-bit number. MySQL's counts up
// from the server's start time; binlite's connections share no counter, so
// each takes the clock in 1.024 us steps with ten random bits of its own below
// them, never repeating on the connection: two connections give the same
// value only in the same step with the same bits (one chance in 1024).
func (f *miscFuncs) uuidShort(c sqlitec.Context, _ []sqlitec.Value) {
	v := uint64(time.Now().UnixNano())>>10<<10 | f.shortSalt
	if v <= f.shortLast {
		v = f.shortLast + 1024
	}
	f.shortLast = v
	c.ResultInt(int64(v & math.MaxInt64))
}

// randomBytes is RANDOM_BYTES(n): n random bytes, n from 1 to 1024 (else 1690).
func randomBytes(c sqlitec.Context, args []sqlitec.Value) {
	n, ok := intArg(&args[0])
	if !ok {
		return
	}
	if n < 1 || n > 1024 {
		c.ResultError(fnErrorText(mysqlerr.ErDataOutOfRange, "length value is out of range in 'random_bytes'"))
		return
	}
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		c.ResultError(fnErrorText(mysqlerr.ErUnknownError, "random_bytes: "+strconv.Quote(err.Error())))
		return
	}
	c.ResultBlob(b)
}

// maxSleep bounds SLEEP: a statement holds its connection while it sleeps.
const maxSleep = time.Hour

// sleep is SLEEP(seconds): waits, then 0; NULL or a negative duration is 0 at
// once (MySQL warns about neither in a SELECT).
func sleep(c sqlitec.Context, args []sqlitec.Value) {
	if secs, ok := floatArg(&args[0]); ok && secs > 0 {
		time.Sleep(min(time.Duration(secs*float64(time.Second)), maxSleep))
	}
	c.ResultInt(0)
}

// uuidV1 makes version 1 UUIDs, as MySQL's UUID() does (manual 14.24): a
// timestamp in 100 ns steps since 1582-10-15 (never repeating on the
// connection), a clock sequence and a node, random per connection (the node
// with its multicast bit set, as RFC 4122 asks of a node that is no address).
type uuidV1 struct {
	node     [6]byte
	clockSeq uint16
	last     uint64
}

func newUUIDV1() uuidV1 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	g := uuidV1{clockSeq: binary.BigEndian.Uint16(b[6:]) & 0x3fff}
	copy(g.node[:], b[:6])
	g.node[0] |= 0x01
	return g
}

// gregorianOffset is 1582-10-15 00:00 UTC to 1970-01-01 in 100 ns steps.
const gregorianOffset = 0x01B21DD213814000

func (g *uuidV1) next() string {
	t := uint64(time.Now().UnixNano()/100) + gregorianOffset
	if t <= g.last {
		t = g.last + 1
	}
	g.last = t
	var u [16]byte
	binary.BigEndian.PutUint32(u[0:], uint32(t))
	binary.BigEndian.PutUint16(u[4:], uint16(t>>32))
	binary.BigEndian.PutUint16(u[6:], uint16(t>>48)&0x0fff|0x1000)
	binary.BigEndian.PutUint16(u[8:], g.clockSeq|0x8000)
	copy(u[10:], g.node[:])
	h := hex.EncodeToString(u[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// newUUID is UUID().
func (f *miscFuncs) newUUID(c sqlitec.Context, _ []sqlitec.Value) { c.ResultString(f.uuid.next()) }
