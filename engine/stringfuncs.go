package engine

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/binlite/binlite/collation"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlitec"
)

// MySQL's string functions (manual 14.8) as SQL functions, with MySQL's NULL
// handling (NULL in, NULL out, unless MySQL says otherwise) and positions and
// lengths in characters of text, in bytes of a binary string (a BLOB). The
// compiler (compiler/emitstring.go) passes a collation name where MySQL
// compares by one (LOCATE, STRCMP, FIELD).

// maxAllowedPacket is MySQL's default max_allowed_packet: a string function
// whose result would be longer gives NULL with warning 1301.
const maxAllowedPacket = 64 << 20

// stringFuncs are one connection's string functions.
type stringFuncs struct {
	st        *stmtState
	buf       scratch
	collators collators
}

// collators are a connection's comparison functions by collation name, made
// once each (a UCA comparison keeps state for one user at a time).
type collators map[string]func(a, b string) int

// get is the comparison of collation name; nil for "binary" or a name binlite
// does not know (compared as bytes).
func (cs collators) get(name []byte) func(a, b string) int {
	if cmp, ok := cs[string(name)]; ok {
		return cmp
	}
	var cmp func(a, b string) int
	if c, ok := collation.Lookup(string(name)); ok {
		cmp = c.NewCompare()
	}
	cs[string(name)] = cmp
	return cmp
}

func registerStrings(c *sqlite3.SQLiteConn, st *stmtState) error {
	f := &stringFuncs{st: st, collators: collators{}}
	return registerFast(c, []fastFunc{
		{"binlite_upper", 1, true, f.upper},
		{"binlite_lower", 1, true, f.lower},
		{"ucase", 1, true, f.upper},
		{"lcase", 1, true, f.lower},
		{"char_length", 1, true, f.charLength},
		{"reverse", 1, true, f.reverse},
		{"binlite_substr", 2, true, f.substr},
		{"binlite_substr", 3, true, f.substr},
		{"left", 2, true, f.left},
		{"right", 2, true, f.right},
		{"lpad", 3, false, f.lpad},
		{"rpad", 3, false, f.rpad},
		{"repeat", 2, false, f.repeat},
		{"space", 1, false, f.space},
		{"binlite_locate", 3, true, f.locate},
		{"binlite_locate", 4, true, f.locate},
		{"binlite_strcmp", 3, true, f.strcmp},
		{"binlite_substring_index", 3, true, f.substringIndex},
		{"binlite_trim", 3, true, f.trim},
		{"binlite_insert", 4, false, f.insert},
		{"binlite_elt", -1, true, f.elt},
		{"binlite_quote", 1, true, f.quote},
		{"binlite_ascii", 1, true, f.ascii},
		{"binlite_ord", 1, true, f.ord},
		{"binlite_char", -1, false, f.char},
		{"concat", -1, true, f.concat},
		{"concat_ws", -1, true, f.concatWS},
	})
}

// tooLong answers a result longer than max_allowed_packet as MySQL does: NULL
// with warning 1301.
func (f *stringFuncs) tooLong(c sqlitec.Context, fn string) {
	f.st.warnf(mysqlerr.ErWarnAllowedPacketOverflowed, "Result of %s() was larger than max_allowed_packet (%d) - truncated", fn, maxAllowedPacket)
	c.ResultNull()
}

func (f *stringFuncs) upper(c sqlitec.Context, args []sqlitec.Value) {
	f.mapCase(c, &args[0], unicode.ToUpper)
}

func (f *stringFuncs) lower(c sqlitec.Context, args []sqlitec.Value) {
	f.mapCase(c, &args[0], unicode.ToLower)
}

// mapCase maps each character of a text (a binary string stays as it is).
func (f *stringFuncs) mapCase(c sqlitec.Context, v *sqlitec.Value, to func(rune) rune) {
	s, ok := f.buf.text(v)
	if !ok {
		return
	}
	if isBinary(v) {
		c.ResultBlob(s)
		return
	}
	out := f.buf.reset()
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			out = append(out, byte(to(rune(s[i]))))
			i++
			continue
		}
		r, n := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && n == 1 {
			out = append(out, s[i])
		} else {
			out = utf8.AppendRune(out, to(r))
		}
		i += n
	}
	c.ResultText(f.buf.keep(out))
}

// charCount counts a string's characters (a binary string's bytes).
func charCount(s []byte, binary bool) int {
	if binary {
		return len(s)
	}
	return utf8.RuneCount(s)
}

func (f *stringFuncs) charLength(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := f.buf.text(&args[0])
	if !ok {
		return
	}
	c.ResultInt(int64(charCount(s, isBinary(&args[0]))))
}

func (f *stringFuncs) reverse(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := f.buf.text(&args[0])
	if !ok {
		return
	}
	out := append(f.buf.reset(), s...)
	if isBinary(&args[0]) {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
		c.ResultBlob(f.buf.keep(out))
		return
	}
	for i := 0; i < len(s); {
		_, n := utf8.DecodeRune(s[i:])
		copy(out[len(s)-i-n:], s[i:i+n])
		i += n
	}
	c.ResultText(f.buf.keep(out))
}

// byteOffset is where the character at 0-based index i starts (len(s) past
// the end).
func byteOffset(s []byte, i int, binary bool) int {
	if binary {
		return min(i, len(s))
	}
	off := 0
	for ; i > 0 && off < len(s); i-- {
		_, n := utf8.DecodeRune(s[off:])
		off += n
	}
	return off
}

// substr is MySQL's SUBSTRING(s, pos[, len]): pos counts from 1, or from the
// end when negative; pos 0, a pos beyond the string and a len below 1 give
// the empty string.
func (f *stringFuncs) substr(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := f.buf.text(&args[0])
	pos, ok2 := intArg(&args[1])
	length, ok3 := int64(1<<62), true
	if len(args) == 3 {
		length, ok3 = intArg(&args[2])
	}
	if !ok || !ok2 || !ok3 {
		return
	}
	bin := isBinary(&args[0])
	n := int64(charCount(s, bin))
	switch {
	case pos == 0 || length <= 0 || pos > n || -pos > n:
		result(c, nil, bin)
		return
	case pos < 0:
		pos = n + pos
	default:
		pos--
	}
	end := min(pos+length, n)
	from := byteOffset(s, int(pos), bin)
	to := from + byteOffset(s[from:], int(end-pos), bin)
	result(c, s[from:to], bin)
}

func (f *stringFuncs) left(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := f.buf.text(&args[0])
	n, ok2 := intArg(&args[1])
	if !ok || !ok2 {
		return
	}
	bin := isBinary(&args[0])
	result(c, s[:byteOffset(s, int(max(min(n, 1<<40), 0)), bin)], bin)
}

func (f *stringFuncs) right(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := f.buf.text(&args[0])
	n, ok2 := intArg(&args[1])
	if !ok || !ok2 {
		return
	}
	bin := isBinary(&args[0])
	count := int64(charCount(s, bin))
	n = max(min(n, count), 0)
	result(c, s[byteOffset(s, int(count-n), bin):], bin)
}

func (f *stringFuncs) lpad(c sqlitec.Context, args []sqlitec.Value) { f.pad(c, args, true) }

func (f *stringFuncs) rpad(c sqlitec.Context, args []sqlitec.Value) { f.pad(c, args, false) }

// pad is LPAD/RPAD: s cut to n characters, or filled to n with pad repeated;
// NULL for a negative n, or when there is something to fill and pad is empty.
func (f *stringFuncs) pad(c sqlitec.Context, args []sqlitec.Value, left bool) {
	s, ok := textCopy(&args[0])
	n, ok2 := intArg(&args[1])
	p, ok3 := f.buf.text(&args[2])
	if !ok || !ok2 || !ok3 || n < 0 {
		return
	}
	bin := isBinary(&args[0]) || isBinary(&args[2])
	count := int64(charCount(s, bin))
	if n <= count {
		result(c, s[:byteOffset(s, int(n), bin)], bin)
		return
	}
	pcount := int64(charCount(p, bin))
	if pcount == 0 {
		return
	}
	fill := n - count
	if int64(len(s))+fill*int64(len(p))/pcount > maxAllowedPacket {
		f.tooLong(c, map[bool]string{true: "lpad", false: "rpad"}[left])
		return
	}
	out := f.buf.reset()
	if !left {
		out = append(out, s...)
	}
	for ; fill >= pcount; fill -= pcount {
		out = append(out, p...)
	}
	out = append(out, p[:byteOffset(p, int(fill), bin)]...)
	if left {
		out = append(out, s...)
	}
	result(c, f.buf.keep(out), bin)
}

func (f *stringFuncs) repeat(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := f.buf.text(&args[0])
	n, ok2 := intArg(&args[1])
	if !ok || !ok2 {
		return
	}
	bin := isBinary(&args[0])
	if n <= 0 || len(s) == 0 {
		result(c, nil, bin)
		return
	}
	if n > maxAllowedPacket/int64(len(s)) {
		f.tooLong(c, "repeat")
		return
	}
	result(c, f.buf.keep(bytes.Repeat(s, int(n))), bin)
}

func (f *stringFuncs) space(c sqlitec.Context, args []sqlitec.Value) {
	n, ok := intArg(&args[0])
	if !ok {
		return
	}
	if n > maxAllowedPacket {
		f.tooLong(c, "space")
		return
	}
	out := f.buf.reset()
	for ; n > 0; n-- {
		out = append(out, ' ')
	}
	c.ResultText(f.buf.keep(out))
}

// locate is binlite_locate(sub, s[, pos], collation): MySQL's LOCATE, the
// character position of sub's first match in s at or after pos by the
// collation, 0 for none.
func (f *stringFuncs) locate(c sqlitec.Context, args []sqlitec.Value) {
	sub, ok := textCopy(&args[0])
	s, ok2 := f.buf.text(&args[1])
	if !ok || !ok2 {
		return
	}
	bin := isBinary(&args[0]) || isBinary(&args[1])
	coll := args[len(args)-1].Bytes()
	start := int64(0)
	if len(args) == 4 {
		p, ok := intArg(&args[2])
		if !ok {
			return
		}
		start = p - 1
		// MySQL compares the character position with the length in bytes.
		if start < 0 || start > int64(len(s)) {
			c.ResultInt(0)
			return
		}
	}
	from := byteOffset(s, int(start), bin)
	if len(sub) == 0 {
		c.ResultInt(start + 1)
		return
	}
	var cmp func(a, b string) int
	if !bin {
		cmp = f.collators.get(coll)
	}
	if i := find(s[from:], sub, bin, cmp); i >= 0 {
		c.ResultInt(start + int64(i) + 1)
		return
	}
	c.ResultInt(0)
}

// find is the character index of sub's first match in s: bytes for binary
// strings or without a collation, else windows of sub's length in characters
// compared by cmp. -1 when there is none.
func find(s, sub []byte, binary bool, cmp func(a, b string) int) int {
	if binary || cmp == nil {
		i := bytes.Index(s, sub)
		if i < 0 || binary {
			return i
		}
		return utf8.RuneCount(s[:i])
	}
	k := utf8.RuneCount(sub)
	want := string(sub)
	for i, off := 0, 0; off < len(s); i++ {
		end := off + byteOffset(s[off:], k, false)
		if cmp(string(s[off:end]), want) == 0 {
			return i
		}
		if end == len(s) && utf8.RuneCount(s[off:]) < k {
			break
		}
		_, n := utf8.DecodeRune(s[off:])
		off += n
	}
	return -1
}

// strcmp is binlite_strcmp(a, b, collation): -1, 0 or 1.
func (f *stringFuncs) strcmp(c sqlitec.Context, args []sqlitec.Value) {
	a, ok := textCopy(&args[0])
	b, ok2 := f.buf.text(&args[1])
	if !ok || !ok2 {
		return
	}
	var r int
	if cmp := f.collators.get(args[2].Bytes()); cmp != nil && !isBinary(&args[0]) && !isBinary(&args[1]) {
		r = cmp(string(a), string(b))
	} else {
		r = bytes.Compare(a, b)
	}
	c.ResultInt(int64(max(min(r, 1), -1)))
}

// substringIndex is SUBSTRING_INDEX(s, delim, count): what is left of the
// count-th delim (right of it counting from the end when count is negative),
// the delimiter matched byte by byte.
func (f *stringFuncs) substringIndex(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := textCopy(&args[0])
	d, ok2 := f.buf.text(&args[1])
	n, ok3 := intArg(&args[2])
	if !ok || !ok2 || !ok3 {
		return
	}
	bin := isBinary(&args[0])
	if len(d) == 0 || n == 0 {
		result(c, nil, bin)
		return
	}
	if n > 0 {
		off := 0
		for ; n > 0; n-- {
			i := bytes.Index(s[off:], d)
			if i < 0 {
				result(c, s, bin)
				return
			}
			off += i + len(d)
		}
		result(c, s[:off-len(d)], bin)
		return
	}
	end := len(s)
	for ; n < 0; n++ {
		i := bytes.LastIndex(s[:end], d)
		if i < 0 {
			result(c, s, bin)
			return
		}
		end = i
	}
	result(c, s[end+len(d):], bin)
}

// trim is binlite_trim(s, remstr, mode): TRIM([BOTH | LEADING | TRAILING]
// remstr FROM s) for mode 0, 1, 2: every whole remstr removed from that end,
// byte for byte.
func (f *stringFuncs) trim(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := textCopy(&args[0])
	r, ok2 := f.buf.text(&args[1])
	mode, ok3 := intArg(&args[2])
	if !ok || !ok2 || !ok3 {
		return
	}
	bin := isBinary(&args[0])
	if len(r) > 0 {
		if mode != 2 {
			for bytes.HasPrefix(s, r) {
				s = s[len(r):]
			}
		}
		if mode != 1 {
			for bytes.HasSuffix(s, r) {
				s = s[:len(s)-len(r)]
			}
		}
	}
	result(c, s, bin)
}

// insert is INSERT(s, pos, len, new): s with len characters from pos replaced
// by new; s itself when pos is outside it.
func (f *stringFuncs) insert(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := textCopy(&args[0])
	pos, ok2 := intArg(&args[1])
	length, ok3 := intArg(&args[2])
	n, ok4 := f.buf.text(&args[3])
	if !ok || !ok2 || !ok3 || !ok4 {
		return
	}
	bin := isBinary(&args[0]) || isBinary(&args[3])
	count := int64(charCount(s, bin))
	if pos < 1 || pos > count {
		result(c, s, bin)
		return
	}
	pos--
	if length < 0 || length > count-pos {
		length = count - pos
	}
	from := byteOffset(s, int(pos), bin)
	to := from + byteOffset(s[from:], int(length), bin)
	if len(s)-(to-from)+len(n) > maxAllowedPacket {
		f.tooLong(c, "insert")
		return
	}
	out := append(append(append(f.buf.reset(), s[:from]...), n...), s[to:]...)
	result(c, f.buf.keep(out), bin)
}

// elt is ELT(n, s1, s2, ...): the n-th string, NULL when there is none.
func (f *stringFuncs) elt(c sqlitec.Context, args []sqlitec.Value) {
	if len(args) == 0 {
		return
	}
	n, ok := intArg(&args[0])
	if !ok || n < 1 || n >= int64(len(args)) {
		return
	}
	v := &args[n]
	if s, ok := f.buf.text(v); ok {
		result(c, s, isBinary(v))
	}
}

// quote is QUOTE(s): s in single quotes with \, ', NUL and Control+Z escaped;
// the word NULL for NULL.
func (f *stringFuncs) quote(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := f.buf.text(&args[0])
	if !ok {
		c.ResultString("NULL")
		return
	}
	out := append(f.buf.reset(), '\'')
	for _, b := range s {
		switch b {
		case '\\', '\'':
			out = append(out, '\\', b)
		case 0:
			out = append(out, '\\', '0')
		case 26:
			out = append(out, '\\', 'Z')
		default:
			out = append(out, b)
		}
	}
	out = append(out, '\'')
	result(c, f.buf.keep(out), isBinary(&args[0]))
}

// ascii is ASCII(s): the first byte, 0 for the empty string.
func (f *stringFuncs) ascii(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := f.buf.text(&args[0])
	if !ok {
		return
	}
	if len(s) == 0 {
		c.ResultInt(0)
		return
	}
	c.ResultInt(int64(s[0]))
}

// ord is ORD(s): the first character's bytes as a big-endian number.
func (f *stringFuncs) ord(c sqlitec.Context, args []sqlitec.Value) {
	s, ok := f.buf.text(&args[0])
	if !ok {
		return
	}
	if len(s) == 0 {
		c.ResultInt(0)
		return
	}
	n := 1
	if !isBinary(&args[0]) {
		if _, size := utf8.DecodeRune(s); size > 1 {
			n = size
		}
	}
	var r int64
	for _, b := range s[:n] {
		r = r<<8 | int64(b)
	}
	c.ResultInt(r)
}

// char is binlite_char(charset, n...): CHAR(n, ... [USING charset]), each
// number's bytes (of its low 32 bits, without leading zero bytes; NULLs
// skipped), a binary string without USING. Text that is not valid in its
// character set is NULL with warning 1300.
func (f *stringFuncs) char(c sqlitec.Context, args []sqlitec.Value) {
	if len(args) == 0 {
		return
	}
	out := f.buf.reset()
	for i := 1; i < len(args); i++ {
		n, ok := intArg(&args[i])
		if !ok {
			continue
		}
		u := uint32(n)
		switch {
		case u > 0xffffff:
			out = append(out, byte(u>>24), byte(u>>16), byte(u>>8), byte(u))
		case u > 0xffff:
			out = append(out, byte(u>>16), byte(u>>8), byte(u))
		case u > 0xff:
			out = append(out, byte(u>>8), byte(u))
		default:
			out = append(out, byte(u))
		}
	}
	out = f.buf.keep(out)
	cs := args[0].Bytes()
	if len(cs) == 0 || string(cs) == "binary" {
		c.ResultBlob(out)
		return
	}
	if !utf8.Valid(out) {
		f.st.warnf(mysqlerr.ErInvalidCharacterString, "Invalid %s character string: '%X'", cs, out)
		return
	}
	c.ResultText(out)
}

// concat is MySQL's CONCAT: NULL if any argument is NULL; a binary string if
// any argument is one.
func (f *stringFuncs) concat(c sqlitec.Context, args []sqlitec.Value) {
	out := f.buf.reset()
	bin := false
	for i := range args {
		s, ok := f.buf.text(&args[i])
		if !ok {
			f.buf.keep(out)
			return
		}
		bin = bin || isBinary(&args[i])
		out = append(out, s...)
	}
	result(c, f.buf.keep(out), bin)
}

// concatWS is MySQL's CONCAT_WS: the arguments that are not NULL joined by the
// separator; NULL only for a NULL separator.
func (f *stringFuncs) concatWS(c sqlitec.Context, args []sqlitec.Value) {
	if len(args) == 0 {
		return
	}
	sep, ok := textCopy(&args[0])
	if !ok {
		return
	}
	out := f.buf.reset()
	bin, first := isBinary(&args[0]), true
	for i := 1; i < len(args); i++ {
		s, ok := f.buf.text(&args[i])
		if !ok {
			continue
		}
		if !first {
			out = append(out, sep...)
		}
		first = false
		bin = bin || isBinary(&args[i])
		out = append(out, s...)
	}
	result(c, f.buf.keep(out), bin)
}
