package collation

import (
	"bytes"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// ucaLevel is how many levels of the Unicode Collation Algorithm a collation
// compares: _ai_ci the base letters only, _as_ci accents too, _as_cs case too.
type ucaLevel int

const (
	ucaPrimary ucaLevel = iota
	ucaSecondary
	ucaTertiary
)

func (l ucaLevel) options() []collate.Option {
	switch l {
	case ucaPrimary:
		return []collate.Option{collate.Loose}
	case ucaSecondary:
		return []collate.Option{collate.IgnoreCase}
	}
	return nil
}

// newUCA makes comparisons of a UCA collation (PAD SPACE if pad). A
// collate.Collator keeps state between calls, hence one per comparison function.
//
// PAD SPACE drops trailing spaces (and what weighs as a space or nothing) and
// appends one space, so that the rest of a longer string compares with the space
// the shorter one is padded with: 'a\t' < 'a', since a tab weighs less than a space.
func newUCA(level ucaLevel, pad bool) func() func(a, b string) int {
	return func() func(a, b string) int {
		c := collate.New(language.Und, level.options()...)
		var ba, bb []byte
		var ks keyScratch
		return func(a, b string) int {
			if a == b {
				return 0
			}
			if pad {
				a, b = trimPad(a), trimPad(b)
			}
			if level == ucaPrimary {
				if r, ok := ks.comparePrimary(a, b, pad); ok {
					return r
				}
			}
			if !pad {
				return c.CompareString(a, b)
			}
			ba = append(append(ba[:0], a...), ' ')
			bb = append(append(bb[:0], b...), ' ')
			return c.Compare(ba, bb)
		}
	}
}

// keyedLimit bounds the characters whose primary keys are cached: Latin (ASCII,
// Latin-1, Extended-A and -B), which have no combining marks and, but for the
// middle dot (L· is a contraction), no contractions, so that a string's key is
// its characters' keys one after the other (TestPrimaryKeysContextFree checks it).
const keyedLimit = 0x250

// runeKey is a character's primary sort key (n bytes), small enough to compare
// as a whole; ok is false for a character whose key is not cached.
type runeKey struct {
	n   uint8
	ok  bool
	key [6]byte
}

func (k *runeKey) bytes() []byte { return k.key[:k.n] }

var runeKeys = sync.OnceValue(func() *[keyedLimit]runeKey {
	c := collate.New(language.Und, collate.Loose)
	var t [keyedLimit]runeKey
	var buf collate.Buffer
	for r := range rune(keyedLimit) {
		buf.Reset()
		key := c.KeyFromString(&buf, string(r))
		if r == '·' || len(key) > len(t[r].key) {
			continue
		}
		t[r].n, t[r].ok = uint8(len(key)), true
		copy(t[r].key[:], key)
	}
	return &t
})

func keyed(r rune) bool { return r < keyedLimit && runeKeys()[r].ok }

// keyScratch holds the sort keys of one comparison at a time.
type keyScratch struct{ a, b []byte }

// comparePrimary compares a and b by the cached primary keys of their
// characters, as bytes.Compare of their whole sort keys would (PAD SPACE: with
// a space appended); ok=false if either holds a character that is not cached.
// Characters of equal keys are passed over in step; from the first that
// differ, the keys are compared byte by byte.
func (ks *keyScratch) comparePrimary(a, b string, pad bool) (_ int, ok bool) {
	k := samePrefix(a, b)
	a, b = a[k:], b[k:]
	t := runeKeys()
	if !allKeyed(t, a) || !allKeyed(t, b) {
		return 0, false
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ra, na := rune(a[i]), 1
		if ra >= utf8.RuneSelf {
			ra, na = utf8.DecodeRuneInString(a[i:])
		}
		rb, nb := rune(b[j]), 1
		if rb >= utf8.RuneSelf {
			rb, nb = utf8.DecodeRuneInString(b[j:])
		}
		if t[ra] != t[rb] {
			// Keys that differ within the shorter one decide; otherwise (an
			// expansion, an ignored character) the rest is compared key by key.
			x, y := t[ra].bytes(), t[rb].bytes()
			if n := min(len(x), len(y)); n > 0 {
				if c := bytes.Compare(x[:n], y[:n]); c != 0 {
					return c, true
				}
			}
			break
		}
		i, j = i+na, j+nb
	}
	ka := appendKeys(ks.a[:0], t, a[i:], pad)
	kb := appendKeys(ks.b[:0], t, b[j:], pad)
	ks.a, ks.b = ka, kb
	return bytes.Compare(ka, kb), true
}

func appendKeys(dst []byte, t *[keyedLimit]runeKey, s string, pad bool) []byte {
	for _, r := range s {
		dst = append(dst, t[r].bytes()...)
	}
	if pad {
		dst = append(dst, t[' '].bytes()...)
	}
	return dst
}

func allKeyed(t *[keyedLimit]runeKey, s string) bool {
	i := 0
	for p := unsafe.StringData(s); i+8 <= len(s); i += 8 { // ASCII, eight bytes at a time
		if *(*uint64)(unsafe.Add(unsafe.Pointer(p), i))&0x8080808080808080 != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			for _, r := range s[i:] {
				if r >= keyedLimit || !t[r].ok {
					return false // also utf8.RuneError, for bytes that are not UTF-8
				}
			}
			return true
		}
	}
	return true
}

// trimPad drops the trailing characters that weigh as a space or as nothing at
// the primary level (the PAD SPACE UCA collations are all _ci).
func trimPad(s string) string {
	for len(s) > 0 {
		last := s[len(s)-1]
		if last == ' ' {
			s = s[:len(s)-1]
			continue
		}
		if last >= 0x21 && last < utf8.RuneSelf {
			return s
		}
		r, n := utf8.DecodeLastRuneInString(s)
		if !padRunes()[r] {
			return s
		}
		s = s[:len(s)-n]
	}
	return s
}

// padRunes are the characters other than U+0020 that weigh as a space or as
// nothing at the primary level: separators, controls, format characters and marks
// that the collation ignores.
var padRunes = sync.OnceValue(func() map[rune]bool {
	c := collate.New(language.Und, collate.Loose)
	m := map[rune]bool{}
	for _, tab := range []*unicode.RangeTable{unicode.Zs, unicode.Cc, unicode.Cf, unicode.Mn, unicode.Me} {
		for _, rg := range tab.R16 {
			for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
				if s := string(r); c.CompareString(s, " ") == 0 || c.CompareString(s, "") == 0 {
					m[r] = true
				}
			}
		}
	}
	return m
})
