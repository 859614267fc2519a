package catalog

import (
	"math"
	"strconv"
	"strings"

	"github.com/binlite/binlite/collation"
)

// ENUM and SET values as MySQL stores and reads them. A column keeps the member
// text (a SET's members in definition order, comma-separated); MySQL keeps the
// index (from 1; 0 is the empty error value) or the bit mask (member i is bit
// i), which is what the value is in a numeric context and how it sorts.

// EnumIndex is an ENUM value's index: its member's position from 1, 0 for the
// empty error value (or anything that is not a member).
func EnumIndex(elems []string, v string) int {
	for i, m := range elems {
		if m == v {
			return i + 1
		}
	}
	return 0
}

// SetMask is a SET value's bit mask (members not in the list count nothing).
func SetMask(elems []string, v string) uint64 {
	var mask uint64
	if v == "" {
		return 0
	}
	for _, part := range strings.Split(v, ",") {
		for i, m := range elems {
			if m == part {
				mask |= 1 << uint(i)
				break
			}
		}
	}
	return mask
}

// setText is the SET value of a bit mask: its members in definition order.
func setText(elems []string, mask uint64) string {
	var out []string
	for i, m := range elems {
		if mask&(1<<uint(i)) != 0 {
			out = append(out, m)
		}
	}
	return strings.Join(out, ",")
}

// setLimit is the largest mask of a SET's members.
func setLimit(n int) uint64 {
	if n >= 64 {
		return math.MaxUint64
	}
	return 1<<uint(n) - 1
}

// EnumStoreNumber is what an ENUM or SET column keeps of number n, as MySQL
// stores it: the member of that index (an ENUM) or the members of that mask (a
// SET). truncated says MySQL warns (1265, an error in strict mode); the value is
// then the one IGNORE stores (the empty error value, the mask cut to the members).
func (ty Type) EnumStoreNumber(n int64) (v string, truncated bool) {
	if ty.Base == "set" {
		limit := setLimit(len(ty.Elems))
		if uint64(n) > limit {
			return setText(ty.Elems, uint64(n)&limit), true
		}
		return setText(ty.Elems, uint64(n)), false
	}
	if n <= 0 || n > int64(len(ty.Elems)) {
		return "", true
	}
	return ty.Elems[n-1], false
}

// EnumStoreText is what an ENUM or SET column keeps of string s: the member(s)
// it names under the column's collation, else a number written as a string (an
// index or a mask), else the empty error value (an ENUM) or the members it does
// name (a SET) with truncated set (1265).
func (ty Type) EnumStoreText(s string) (v string, truncated bool) {
	c, ok := collation.Lookup(ty.Collation)
	if !ok {
		c, _ = collation.Lookup("utf8mb4_general_ci")
	}
	find := func(part string) int {
		for i, m := range ty.Elems {
			if c.Compare(m, part) == 0 {
				return i
			}
		}
		return -1
	}
	if ty.Base == "enum" {
		if i := find(s); i >= 0 {
			return ty.Elems[i], false
		}
		// MySQL reads a short string of digits as an index (for LOAD DATA).
		if len(s) < 6 {
			if n, err := strconv.ParseUint(s, 10, 64); err == nil && n <= uint64(len(ty.Elems)) {
				if n == 0 {
					return "", false
				}
				return ty.Elems[n-1], false
			}
		}
		return "", true
	}
	if s == "" {
		return "", false
	}
	var mask uint64
	bad := false
	for _, part := range strings.Split(s, ",") {
		if i := find(part); i >= 0 {
			mask |= 1 << uint(i)
		} else {
			bad = true
		}
	}
	if mask == 0 && len(s) < 22 {
		if n, err := strconv.ParseUint(s, 10, 64); err == nil {
			if n > setLimit(len(ty.Elems)) {
				return "", true
			}
			return setText(ty.Elems, n), false
		}
	}
	return setText(ty.Elems, mask), bad
}

// ImplicitEnumDefault is the default MySQL gives a NOT NULL ENUM column declared
// without one: its first member.
func (c *Column) ImplicitEnumDefault() (string, bool) {
	if c.Type.Base == "enum" && !c.Nullable && c.Generated == nil && len(c.Type.Elems) > 0 {
		return c.Type.Elems[0], true
	}
	return "", false
}
