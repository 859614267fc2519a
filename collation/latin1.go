package collation

import (
	"encoding/hex"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// byteTable is a collation of a single-byte character set (latin1, ascii): each
// character's byte in the set weighs what the table says. SQLite holds the text
// as UTF-8, so characters are first mapped to their byte; a character the set
// cannot hold (MySQL would have stored '?') weighs above every byte, by code point.
type byteTable struct {
	weight [256]uint32
	toByte func(r rune) (byte, bool)
}

var (
	latin1Tables = map[string]*byteTable{
		"latin1_swedish_ci": newByteTable(weightsLatin1SwedishCI, latin1Byte),
		"latin1_general_ci": newByteTable(weightsLatin1GeneralCI, latin1Byte),
		"latin1_general_cs": newByteTable(weightsLatin1GeneralCS, latin1Byte),
		"latin1_bin":        newByteTable("", latin1Byte),
	}
	asciiGeneral = newByteTable(weightsASCIIGeneralCI, asciiByte)
	asciiBin     = newByteTable("", asciiByte)
)

// newByteTable reads weights in hex; "" is the identity (a _bin collation).
func newByteTable(weights string, toByte func(rune) (byte, bool)) *byteTable {
	t := &byteTable{toByte: toByte}
	w, err := hex.DecodeString(weights)
	if err != nil {
		panic("collation: bad weight table: " + err.Error())
	}
	for i := range t.weight {
		t.weight[i] = uint32(i)
		if i < len(w) {
			t.weight[i] = uint32(w[i])
		}
	}
	return t
}

// latin1Unicode maps latin1 bytes 0x80-0x9F to characters: MySQL's latin1 is
// Windows-1252, whose five unassigned bytes stand for the C1 controls.
var latin1Unicode = func() map[rune]byte {
	m := map[rune]byte{}
	for b := 0x80; b < 0xA0; b++ {
		r := charmap.Windows1252.DecodeByte(byte(b))
		if r == utf8.RuneError {
			r = rune(b)
		}
		m[r] = byte(b)
	}
	return m
}()

func latin1Byte(r rune) (byte, bool) {
	if r < 0x80 || r >= 0xA0 && r <= 0xFF {
		return byte(r), true
	}
	b, ok := latin1Unicode[r]
	return b, ok
}

func asciiByte(r rune) (byte, bool) {
	if r < 0x80 {
		return byte(r), true
	}
	return 0, false
}

func (t *byteTable) next(s string) (uint32, int) {
	if s[0] < utf8.RuneSelf {
		if b, ok := t.toByte(rune(s[0])); ok {
			return t.weight[b], 1
		}
		return 0x100 + uint32(s[0]), 1
	}
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && n == 1 {
		return invalidWeight(s[0]), 1
	}
	if b, ok := t.toByte(r); ok {
		return t.weight[b], n
	}
	return 0x100 + uint32(r), n
}

// compare is PAD SPACE, as every latin1 and ascii collation.
func (t *byteTable) compare(a, b string) int {
	i := samePrefix(a, b)
	j := i
	for i < len(a) && j < len(b) {
		if a[i] == b[j] && a[i] < utf8.RuneSelf {
			i++
			j++
			continue
		}
		wa, na := t.next(a[i:])
		wb, nb := t.next(b[j:])
		if wa != wb {
			return cmpWeight(wa, wb)
		}
		i += na
		j += nb
	}
	switch {
	case i < len(a):
		return t.pad(a[i:])
	case j < len(b):
		return -t.pad(b[j:])
	}
	return 0
}

func (t *byteTable) pad(s string) int {
	space := t.weight[' ']
	for k := 0; k < len(s); {
		w, n := t.next(s[k:])
		if w != space {
			return cmpWeight(w, space)
		}
		k += n
	}
	return 0
}
