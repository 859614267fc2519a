package collation

import (
	"bytes"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"

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
		return func(a, b string) int {
			if a == b {
				return 0
			}
			if pad {
				a, b = trimPad(a), trimPad(b)
			}
			if level == ucaPrimary {
				var ok bool
				if ba, bb, ok = primaryKeys(ba[:0], bb[:0], a, b, pad); ok {
					return bytes.Compare(ba, bb)
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

func keyed(r rune) bool { return r < keyedLimit && r != '·' }

var runeKeys = sync.OnceValue(func() *[keyedLimit][]byte {
	c := collate.New(language.Und, collate.Loose)
	var t [keyedLimit][]byte
	var buf collate.Buffer
	for r := range rune(keyedLimit) {
		buf.Reset()
		t[r] = slices.Clone(c.KeyFromString(&buf, string(r)))
	}
	return &t
})

// primaryKeys builds the primary-level sort keys of a and b past their common
// prefix (PAD SPACE: with a space appended) from the cached keys of
// their characters; ok=false if either holds a character that is not cached.
func primaryKeys(ka, kb []byte, a, b string, pad bool) (_, _ []byte, ok bool) {
	k := samePrefix(a, b)
	t := runeKeys()
	appendKeys := func(dst []byte, s string) ([]byte, bool) {
		for _, r := range s {
			if !keyed(r) {
				return dst, false // also utf8.RuneError, for bytes that are not UTF-8
			}
			dst = append(dst, t[r]...)
		}
		if pad {
			dst = append(dst, t[' ']...)
		}
		return dst, true
	}
	if ka, ok = appendKeys(ka, a[k:]); !ok {
		return ka, kb, false
	}
	kb, ok = appendKeys(kb, b[k:])
	return ka, kb, ok
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
