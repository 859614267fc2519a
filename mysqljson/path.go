package mysqljson

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Path is a MySQL JSON path expression: $ followed by legs .key, ."key", .*,
// [n], [last], [last-n], [m to n], [*] and **.
type Path struct {
	legs []leg
}

type legKind uint8

const (
	legMember legKind = iota
	legMemberWildcard
	legCell
	legRange
	legCellWildcard
	legEllipsis
)

type leg struct {
	kind     legKind
	key      string
	from, to index // a cell's index, a range's ends
}

// index is an array position: n from the start, or last-n from the end.
type index struct {
	n       int
	fromEnd bool
}

// PathError is a path MySQL cannot read (3143), at a character position.
type PathError struct{ Pos int }

func (e *PathError) Error() string {
	return "Invalid JSON path expression. The error is around character position " + strconv.Itoa(e.Pos) + "."
}

// ParsePath reads a path expression.
func ParsePath(s string) (Path, error) {
	p := &pathParser{s: s}
	p.space()
	if !p.eat("$") {
		return Path{}, p.fail()
	}
	var path Path
	for {
		p.space()
		if p.i == len(p.s) {
			break
		}
		var l leg
		var ok bool
		switch {
		case p.eat("**"):
			l, ok = leg{kind: legEllipsis}, true
		case p.eat("."):
			l, ok = p.member()
		case p.eat("["):
			l, ok = p.cell()
		}
		if !ok {
			return Path{}, p.fail()
		}
		path.legs = append(path.legs, l)
	}
	if n := len(path.legs); n > 0 && path.legs[n-1].kind == legEllipsis {
		return Path{}, p.fail() // ** must be followed by a leg
	}
	return path, nil
}

// Wildcard reports whether the path may name several values (*, ** or a range).
func (p Path) Wildcard() bool {
	for _, l := range p.legs {
		switch l.kind {
		case legMemberWildcard, legCellWildcard, legRange, legEllipsis:
			return true
		}
	}
	return false
}

// Root reports whether the path is $ alone.
func (p Path) Root() bool { return len(p.legs) == 0 }

type pathParser struct {
	s string
	i int
}

func (p *pathParser) fail() error { return &PathError{Pos: p.i + 1} }

func (p *pathParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\n\r", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *pathParser) eat(tok string) bool {
	if strings.HasPrefix(p.s[p.i:], tok) {
		p.i += len(tok)
		return true
	}
	return false
}

func (p *pathParser) member() (leg, bool) {
	p.space()
	switch {
	case p.eat("*"):
		return leg{kind: legMemberWildcard}, true
	case p.i < len(p.s) && p.s[p.i] == '"':
		jp := &parser{s: p.s, i: p.i}
		key, err := jp.str()
		if err != nil {
			return leg{}, false
		}
		p.i = jp.i
		return leg{kind: legMember, key: key}, true
	}
	start := p.i
	for p.i < len(p.s) {
		r, n := utf8.DecodeRuneInString(p.s[p.i:])
		if !identRune(r, p.i == start) {
			break
		}
		p.i += n
	}
	if p.i == start {
		return leg{}, false
	}
	return leg{kind: legMember, key: p.s[start:p.i]}, true
}

// identRune: r may be in an ECMAScript identifier (first: may start one).
func identRune(r rune, first bool) bool {
	switch {
	case r == '$' || r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r):
		return true
	case first:
		return false
	}
	return unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc) || r == 0x200c || r == 0x200d
}

func (p *pathParser) cell() (leg, bool) {
	p.space()
	if p.eat("*") {
		p.space()
		return leg{kind: legCellWildcard}, p.eat("]")
	}
	from, ok := p.index()
	if !ok {
		return leg{}, false
	}
	p.space()
	if p.eat("]") {
		return leg{kind: legCell, from: from}, true
	}
	if !p.eat("to") {
		return leg{}, false
	}
	to, ok := p.index()
	if !ok {
		return leg{}, false
	}
	p.space()
	if !p.eat("]") {
		return leg{}, false
	}
	// [m to n] needs m <= n where both count from the same end.
	if from.fromEnd == to.fromEnd && (from.fromEnd && from.n < to.n || !from.fromEnd && from.n > to.n) {
		return leg{}, false
	}
	return leg{kind: legRange, from: from, to: to}, true
}

func (p *pathParser) index() (index, bool) {
	p.space()
	if p.eat("last") {
		p.space()
		if !p.eat("-") {
			return index{fromEnd: true}, true
		}
		p.space()
		n, ok := p.number()
		return index{n: n, fromEnd: true}, ok
	}
	n, ok := p.number()
	return index{n: n}, ok
}

func (p *pathParser) number() (int, bool) {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	if p.i == start {
		return 0, false
	}
	n, err := strconv.Atoi(p.s[start:p.i])
	return n, err == nil && n <= 1<<31
}

// position resolves an index in an array of size n: where it points (0 for a
// position before the start) and whether an element is there.
func (x index) position(n int) (int, bool) {
	if x.fromEnd {
		if x.n < n {
			return n - 1 - x.n, true
		}
		return 0, false
	}
	return x.n, x.n < n
}

// span is the elements [begin, end) a range leg selects of an array of size n.
func (l leg) span(n int) (int, int) {
	b, _ := l.from.position(n)
	if b >= n {
		return 0, 0
	}
	e, ok := l.to.position(n)
	switch {
	case !l.to.fromEnd && !ok:
		e = n - 1
	case l.to.fromEnd && !ok:
		return 0, 0
	}
	if e < b {
		return 0, 0
	}
	return b, e + 1
}

// autowrap: an array leg that a non-array matches as a one-element array.
func (l leg) autowrap() bool {
	switch l.kind {
	case legCell:
		_, ok := l.from.position(1)
		return ok
	case legRange:
		b, e := l.span(1)
		return b == 0 && e == 1
	}
	return false
}

// Seek finds the values path names in v, in document order; autowrap lets an
// array leg match a non-array as a one-element array (MySQL does for reads).
func Seek(v *Value, path Path, autowrap bool) []*Value {
	var out []*Value
	var seen map[*Value]bool
	if ellipses(path.legs) {
		seen = map[*Value]bool{}
	}
	seek(v, path.legs, autowrap, seen, &out)
	return out
}

func ellipses(legs []leg) bool {
	for i, l := range legs {
		if l.kind == legEllipsis {
			for _, m := range legs[i+1:] {
				if m.kind == legEllipsis || m.kind == legCell || m.kind == legRange {
					return true
				}
			}
			return false
		}
	}
	return false
}

func seek(v *Value, legs []leg, autowrap bool, seen map[*Value]bool, out *[]*Value) {
	if len(legs) == 0 {
		if seen != nil {
			if seen[v] {
				return
			}
			seen[v] = true
		}
		*out = append(*out, v)
		return
	}
	l, rest := legs[0], legs[1:]
	switch l.kind {
	case legMember:
		if c := v.Get(l.key); c != nil {
			seek(c, rest, autowrap, seen, out)
		}
	case legMemberWildcard:
		if v.Kind == KindObject {
			for i := range v.Obj {
				seek(&v.Obj[i].Value, rest, autowrap, seen, out)
			}
		}
	case legCell, legRange, legCellWildcard:
		if v.Kind != KindArray {
			if autowrap && l.autowrap() {
				seek(v, rest, autowrap, seen, out)
			}
			return
		}
		b, e := 0, len(v.Arr)
		switch l.kind {
		case legCell:
			p, ok := l.from.position(len(v.Arr))
			if !ok {
				return
			}
			b, e = p, p+1
		case legRange:
			b, e = l.span(len(v.Arr))
		}
		for i := b; i < e; i++ {
			seek(&v.Arr[i], rest, autowrap, seen, out)
		}
	case legEllipsis:
		seek(v, rest, autowrap, seen, out)
		switch v.Kind {
		case KindArray:
			for i := range v.Arr {
				seek(&v.Arr[i], legs, autowrap, seen, out)
			}
		case KindObject:
			for i := range v.Obj {
				seek(&v.Obj[i].Value, legs, autowrap, seen, out)
			}
		}
	}
}

// Exists reports whether path names at least one value in v.
func Exists(v *Value, path Path) bool { return len(Seek(v, path, true)) > 0 }

// parent splits a path into the path to its last leg's container and that leg.
func (p Path) parent() (Path, leg) {
	n := len(p.legs)
	return Path{legs: p.legs[:n-1]}, p.legs[n-1]
}

// pathText spells the path of a value JSON_SEARCH found: $, then .key (quoted
// when it is not an identifier) and [n].
func pathText(steps []step) string {
	var b strings.Builder
	b.WriteByte('$')
	for _, s := range steps {
		if s.member {
			b.WriteByte('.')
			if plainKey(s.key) {
				b.WriteString(s.key)
			} else {
				Quote(&b, s.key)
			}
			continue
		}
		b.WriteString("[" + strconv.Itoa(s.idx) + "]")
	}
	return b.String()
}

type step struct {
	member bool
	key    string
	idx    int
}

func plainKey(k string) bool {
	if k == "" {
		return false
	}
	first := true
	for _, r := range k {
		if !identRune(r, first) {
			return false
		}
		first = false
	}
	return true
}
