package gtid

import (
	"fmt"
	"strings"
)

// Parse reads MySQL's GTID set text form, e.g.
// "3E11FA47-71CA-11E1-9E33-C80AA9429562:1-77:80,uuid2:5". Case is ignored and
// whitespace (including newlines, as SHOW output wraps) may surround any token.
// An empty or blank string is the empty set.
func Parse(s string) (Set, error) {
	var set Set
	if strings.TrimSpace(s) == "" {
		return set, nil
	}
	for item := range strings.SplitSeq(s, ",") {
		parts := strings.Split(item, ":")
		if len(parts) < 2 {
			return Set{}, fmt.Errorf("gtid: parse %q: %q has no intervals", s, strings.TrimSpace(item))
		}
		u, err := ParseUUID(parts[0])
		if err != nil {
			return Set{}, fmt.Errorf("gtid: parse %q: %w", s, err)
		}
		for _, p := range parts[1:] {
			los, his, isRange := strings.Cut(p, "-")
			lo, err := parseSeq(los)
			if err != nil {
				return Set{}, fmt.Errorf("gtid: parse %q: %w", s, err)
			}
			hi := lo
			if isRange {
				if hi, err = parseSeq(his); err != nil {
					return Set{}, fmt.Errorf("gtid: parse %q: %w", s, err)
				}
				if hi < lo {
					return Set{}, fmt.Errorf("gtid: parse %q: interval %q is reversed", s, strings.TrimSpace(p))
				}
			}
			set.AddRange(u, lo, hi)
		}
	}
	return set, nil
}

// MustParse is Parse for constants in tests and examples; it panics on error.
func MustParse(s string) Set {
	set, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return set
}
