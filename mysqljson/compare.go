package mysqljson

import (
	"cmp"
	"math/big"
	"strings"
)

// rank orders values of different types as MySQL does (manual 13.5, Comparison
// and Ordering of JSON Values): null < numbers < strings < objects < arrays <
// booleans.
func rank(k Kind) int {
	switch k {
	case KindNull:
		return 0
	case KindInt, KindUint, KindDouble, KindDecimal:
		return 1
	case KindString:
		return 2
	case KindObject:
		return 3
	case KindArray:
		return 4
	}
	return 5 // boolean
}

// Compare orders two JSON values: numbers by value whatever their kind, strings
// by their bytes, arrays element by element (a prefix first), false before true.
// Objects are equal when they hold the same keys with equal values; unequal ones
// are ordered by size, then member by member.
func Compare(a, b *Value) int {
	ra, rb := rank(a.Kind), rank(b.Kind)
	if ra != rb {
		return cmp.Compare(ra, rb)
	}
	switch a.Kind {
	case KindNull:
		return 0
	case KindBool:
		return cmp.Compare(boolInt(a.Bool), boolInt(b.Bool))
	case KindString:
		return strings.Compare(a.Str, b.Str)
	case KindArray:
		for i := 0; i < len(a.Arr) && i < len(b.Arr); i++ {
			if c := Compare(&a.Arr[i], &b.Arr[i]); c != 0 {
				return c
			}
		}
		return cmp.Compare(len(a.Arr), len(b.Arr))
	case KindObject:
		if c := cmp.Compare(len(a.Obj), len(b.Obj)); c != 0 {
			return c
		}
		for i := range a.Obj {
			if c := strings.Compare(a.Obj[i].Key, b.Obj[i].Key); c != 0 {
				return c
			}
			if c := Compare(&a.Obj[i].Value, &b.Obj[i].Value); c != 0 {
				return c
			}
		}
		return 0
	}
	return compareNumbers(a, b)
}

func compareNumbers(a, b *Value) int {
	switch {
	case a.Kind == KindInt && b.Kind == KindInt:
		return cmp.Compare(a.Int, b.Int)
	case a.Kind == KindUint && b.Kind == KindUint:
		return cmp.Compare(a.Uint, b.Uint)
	case a.Kind == KindDouble && b.Kind == KindDouble:
		switch {
		case a.Float < b.Float:
			return -1
		case a.Float > b.Float:
			return 1
		}
		return 0
	}
	return a.rat().Cmp(b.rat())
}

// rat is a number's exact value.
func (v *Value) rat() *big.Rat {
	r := new(big.Rat)
	switch v.Kind {
	case KindInt:
		r.SetInt64(v.Int)
	case KindUint:
		r.SetInt(new(big.Int).SetUint64(v.Uint))
	case KindDouble:
		r.SetFloat64(v.Float)
	case KindDecimal:
		r.SetString(v.Str)
	}
	return r
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Contains is JSON_CONTAINS(target, candidate): a scalar contains what equals it;
// an array contains each element of a candidate array (or the candidate itself)
// when one of its own elements does (a scalar among its scalars, a container in a
// container of the same kind); an object contains an object whose every key it
// has with a value that contains the candidate's.
func Contains(target, candidate *Value) bool {
	switch target.Kind {
	case KindObject:
		if candidate.Kind != KindObject {
			return false
		}
		for i := range candidate.Obj {
			t := target.Get(candidate.Obj[i].Key)
			if t == nil || !Contains(t, &candidate.Obj[i].Value) {
				return false
			}
		}
		return true
	case KindArray:
		want := []Value{*candidate}
		if candidate.Kind == KindArray {
			want = candidate.Arr
		}
		for i := range want {
			if !arrayHas(target, &want[i]) {
				return false
			}
		}
		return true
	}
	return candidate.IsScalar() && Compare(target, candidate) == 0
}

func arrayHas(arr, c *Value) bool {
	for i := range arr.Arr {
		e := &arr.Arr[i]
		switch {
		case c.IsScalar():
			if e.IsScalar() && Compare(e, c) == 0 {
				return true
			}
		case e.Kind == c.Kind:
			if Contains(e, c) {
				return true
			}
		}
	}
	return false
}

// Overlaps is JSON_OVERLAPS: two arrays share an element, two objects a key with
// equal values, a scalar equals the other value or one of its elements.
func Overlaps(a, b *Value) bool {
	switch {
	case a.Kind == KindArray && b.Kind == KindArray:
		for i := range a.Arr {
			for j := range b.Arr {
				if Compare(&a.Arr[i], &b.Arr[j]) == 0 {
					return true
				}
			}
		}
		return false
	case a.Kind == KindObject && b.Kind == KindObject:
		for i := range a.Obj {
			if v := b.Get(a.Obj[i].Key); v != nil && Compare(v, &a.Obj[i].Value) == 0 {
				return true
			}
		}
		return false
	case a.Kind == KindArray:
		return MemberOf(b, a)
	case b.Kind == KindArray:
		return MemberOf(a, b)
	}
	return Compare(a, b) == 0
}

// MemberOf is value MEMBER OF(array): an element of the array equals the value;
// a non-array is a one-element array.
func MemberOf(v, arr *Value) bool {
	if arr.Kind != KindArray {
		return Compare(v, arr) == 0
	}
	for i := range arr.Arr {
		if Compare(v, &arr.Arr[i]) == 0 {
			return true
		}
	}
	return false
}
