package collation

import (
	_ "embed"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// unicode400 is utf8mb4_unicode_ci's table: MySQL's UCA 4.0.0 primary weights.
//
//go:embed unicode400.txt
var unicode400 string

// ucaTable holds a character's primary weights: 0 for an ignored character, a
// weight below 1<<16, expansionFlag|i for weights expansions[i], or implicitWeight.
type ucaTable struct {
	bmp        [0x10000]uint32
	expansions [][]uint16
	ascii      [128]uint32
}

const (
	expansionFlag  = 1 << 31
	implicitWeight = 1<<32 - 1
	ucaSpace       = 0x0209 // the weight of U+0020
)

var unicode400Table = sync.OnceValue(func() *ucaTable {
	t := &ucaTable{}
	for i := range t.bmp {
		t.bmp[i] = implicitWeight
	}
	for line := range strings.Lines(unicode400) {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Fields(line)
		first, last, _ := strings.Cut(f[0], "-")
		lo, hi := mustHex(first), mustHex(first)
		if last != "" {
			hi = mustHex(last)
		}
		ws := make([]uint16, len(f)-1)
		for k, w := range f[1:] {
			ws[k] = uint16(mustHex(w))
		}
		for r := lo; r <= hi; r++ {
			switch len(ws) {
			case 0:
				t.bmp[r] = 0
			case 1:
				t.bmp[r] = uint32(ws[0]) + (r - lo)
			default:
				t.bmp[r] = expansionFlag | uint32(len(t.expansions))
				t.expansions = append(t.expansions, ws)
			}
		}
	}
	for i := range t.ascii {
		t.ascii[i] = t.bmp[i]
	}
	return t
})

func mustHex(s string) uint32 {
	v, err := strconv.ParseUint(s, 16, 32)
	if err != nil {
		panic("collation: bad weight table: " + err.Error())
	}
	return uint32(v)
}

// implicit is UCA's pair of weights for a character without weights of its own:
// CJK ideographs first, then the rest, in code point order.
func implicit(r rune) (uint32, uint32) {
	base := uint32(0xFBC0)
	switch {
	case r >= 0x4E00 && r <= 0x9FA5:
		base = 0xFB40
	case r >= 0x3400 && r <= 0x4DB5:
		base = 0xFB80
	}
	return base + uint32(r>>15), uint32(r&0x7FFF) | 0x8000
}

// ucaIter yields the primary weights of a string, skipping ignored characters.
type ucaIter struct {
	t       *ucaTable
	s       string
	pending []uint16 // the rest of an expansion
	second  uint32   // the second implicit weight, or 0
}

func (it *ucaIter) next() (uint32, bool) {
	for {
		if it.second != 0 {
			w := it.second
			it.second = 0
			return w, true
		}
		if len(it.pending) > 0 {
			w := it.pending[0]
			it.pending = it.pending[1:]
			return uint32(w), true
		}
		if it.s == "" {
			return 0, false
		}
		c := it.s[0]
		if c < utf8.RuneSelf {
			it.s = it.s[1:]
			if w := it.t.ascii[c]; w != 0 {
				return w, true
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(it.s)
		it.s = it.s[n:]
		if r == utf8.RuneError && n == 1 {
			return invalidWeight(c), true
		}
		if r > 0xFFFF {
			return 0xFFFD, true // UCA 4.0.0 collations weigh every supplementary character so
		}
		switch w := it.t.bmp[r]; {
		case w == 0:
			continue
		case w == implicitWeight:
			first, second := implicit(r)
			it.second = second
			return first, true
		case w&expansionFlag != 0:
			e := it.t.expansions[w&^expansionFlag]
			it.pending = e[1:]
			return uint32(e[0]), true
		default:
			return w, true
		}
	}
}

// compareUnicode400 is utf8mb4_unicode_ci: primary weights, PAD SPACE.
func compareUnicode400(a, b string) int {
	if a == b {
		return 0
	}
	t := unicode400Table()
	k := samePrefix(a, b)
	x := ucaIter{t: t, s: a[k:]}
	y := ucaIter{t: t, s: b[k:]}
	for {
		wa, oka := x.next()
		wb, okb := y.next()
		switch {
		case oka && okb:
			if wa != wb {
				return cmpWeight(wa, wb)
			}
		case oka:
			return padUCA(wa, &x)
		case okb:
			return -padUCA(wb, &y)
		default:
			return 0
		}
	}
}

// padUCA compares the rest of the longer string (w, then the iterator's) with
// the spaces that pad the shorter one.
func padUCA(w uint32, it *ucaIter) int {
	for ok := true; ok; w, ok = it.next() {
		if w != ucaSpace {
			return cmpWeight(w, ucaSpace)
		}
	}
	return 0
}
