package mysqljson

import "unicode/utf8"

// Search is JSON_SEARCH: the paths of the strings in doc that match LIKE pattern
// pat (% and _, escape esc), by their bytes, in document order; all=false stops at
// the first. With paths, only strings at or under one of them count.
func Search(doc *Value, pat string, esc rune, all bool, paths []Path) []string {
	var out []string
	var steps []step
	var walk func(v *Value) bool
	walk = func(v *Value) bool {
		switch v.Kind {
		case KindString:
			if inPaths(paths, steps) && like(v.Str, pat, esc) {
				out = append(out, pathText(steps))
				return all
			}
		case KindArray:
			for i := range v.Arr {
				steps = append(steps, step{idx: i})
				more := walk(&v.Arr[i])
				steps = steps[:len(steps)-1]
				if !more {
					return false
				}
			}
		case KindObject:
			for i := range v.Obj {
				steps = append(steps, step{member: true, key: v.Obj[i].Key})
				more := walk(&v.Obj[i].Value)
				steps = steps[:len(steps)-1]
				if !more {
					return false
				}
			}
		}
		return true
	}
	walk(doc)
	return out
}

// inPaths: no paths given, or one of them names steps or a container of it.
func inPaths(paths []Path, steps []step) bool {
	if len(paths) == 0 {
		return true
	}
	for _, p := range paths {
		if prefixMatch(p.legs, steps) {
			return true
		}
	}
	return false
}

// prefixMatch: legs name the location steps leads to, or one that contains it.
func prefixMatch(legs []leg, steps []step) bool {
	if len(legs) == 0 {
		return true
	}
	l := legs[0]
	if l.kind == legEllipsis {
		for i := 0; i <= len(steps); i++ {
			if prefixMatch(legs[1:], steps[i:]) {
				return true
			}
		}
		return false
	}
	if len(steps) == 0 {
		return false
	}
	s := steps[0]
	switch l.kind {
	case legMember:
		if !s.member || s.key != l.key {
			return false
		}
	case legMemberWildcard:
		if !s.member {
			return false
		}
	case legCellWildcard:
		if s.member {
			return false
		}
	case legCell, legRange:
		// Only positions from the start can be told without the array's size.
		if s.member || l.from.fromEnd || l.kind == legCell && s.idx != l.from.n ||
			l.kind == legRange && (s.idx < l.from.n || !l.to.fromEnd && s.idx > l.to.n) {
			return false
		}
	}
	return prefixMatch(legs[1:], steps[1:])
}

// like matches s against a LIKE pattern character by character.
func like(s, pat string, esc rune) bool {
	for len(pat) > 0 {
		p, n := utf8.DecodeRuneInString(pat)
		switch {
		case p == '%':
			rest := pat[n:]
			for len(rest) > 0 && rest[0] == '%' {
				rest = rest[1:]
			}
			if rest == "" {
				return true
			}
			for i := 0; i <= len(s); {
				if like(s[i:], rest, esc) {
					return true
				}
				if i == len(s) {
					break
				}
				_, m := utf8.DecodeRuneInString(s[i:])
				i += m
			}
			return false
		case p == '_':
			if s == "" {
				return false
			}
			_, m := utf8.DecodeRuneInString(s)
			s, pat = s[m:], pat[n:]
		default:
			if p == esc && len(pat) > n {
				pat = pat[n:]
				p, n = utf8.DecodeRuneInString(pat)
			}
			c, m := utf8.DecodeRuneInString(s)
			if s == "" || c != p {
				return false
			}
			s, pat = s[m:], pat[n:]
		}
	}
	return s == ""
}
