package gtid

import (
	"bytes"
	"cmp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Interval is an inclusive range of sequence numbers, Lo <= Hi.
type Interval struct {
	Lo, Hi uint64
}

// Set is a GTID set: per UUID, sorted, non-overlapping, non-adjacent inclusive
// intervals. The zero value is an empty set ready to use. Like a map, copying a
// Set by assignment shares storage; use Clone for an independent copy. Methods
// that return a Set never share storage with their receiver or argument.
type Set struct {
	m map[UUID][]Interval
}

// Add inserts one GTID. Appending the next sequence number of a UUID is O(1);
// anything else is a binary search plus a slice insert. Seq 0 is ignored.
func (s *Set) Add(g GTID) {
	if g.Seq == 0 {
		return
	}
	iv := s.m[g.UUID]
	if n := len(iv); n > 0 && iv[n-1].Hi+1 == g.Seq {
		iv[n-1].Hi = g.Seq // common case: next transaction of this server
		return
	}
	s.AddRange(g.UUID, g.Seq, g.Seq)
}

// AddRange inserts lo..hi inclusive. Empty ranges (lo > hi) and seq 0 are ignored.
func (s *Set) AddRange(u UUID, lo, hi uint64) {
	if lo == 0 {
		lo = 1
	}
	hi = min(hi, MaxSeq) // keeps hi+1 below overflow
	if lo > hi {
		return
	}
	if s.m == nil {
		s.m = make(map[UUID][]Interval)
	}
	iv := s.m[u]
	// First interval that could touch [lo,hi]: its Hi+1 >= lo.
	i := sort.Search(len(iv), func(k int) bool { return iv[k].Hi >= lo-1 })
	j := i
	for j < len(iv) && iv[j].Lo <= hi+1 {
		lo = min(lo, iv[j].Lo)
		hi = max(hi, iv[j].Hi)
		j++
	}
	s.m[u] = slices.Replace(iv, i, j, Interval{lo, hi})
}

// AddAll inserts every GTID of gs (which it does not modify). A batch costs a
// sort and one merge pass per UUID instead of a slice insert per GTID: a
// parallel replica commits interleaved sequence numbers, so the set it adds
// to is fragmented and single inserts would move most of it each time.
func (s *Set) AddAll(gs []GTID) {
	if len(gs) < 8 {
		for _, g := range gs {
			s.Add(g)
		}
		return
	}
	if u := gs[0].UUID; !slices.ContainsFunc(gs, func(g GTID) bool { return g.UUID != u }) {
		// One UUID (the common case): sorting plain numbers is several times faster.
		seqs := make([]uint64, len(gs))
		for i, g := range gs {
			seqs[i] = g.Seq
		}
		slices.Sort(seqs)
		s.merge(u, seqIntervals(nil, seqs))
		return
	}
	sorted := slices.Clone(gs)
	slices.SortFunc(sorted, func(a, b GTID) int {
		if c := bytes.Compare(a.UUID[:], b.UUID[:]); c != 0 {
			return c
		}
		return cmp.Compare(a.Seq, b.Seq)
	})
	var add []Interval
	var seqs []uint64
	for i := 0; i < len(sorted); {
		u := sorted[i].UUID
		seqs = seqs[:0]
		for ; i < len(sorted) && sorted[i].UUID == u; i++ {
			seqs = append(seqs, sorted[i].Seq)
		}
		add = seqIntervals(add[:0], seqs)
		s.merge(u, add)
	}
}

// seqIntervals appends to iv the intervals covering sorted sequence numbers,
// skipping 0 and numbers above MaxSeq.
func seqIntervals(iv []Interval, seqs []uint64) []Interval {
	for _, q := range seqs {
		if q == 0 || q > MaxSeq {
			continue
		}
		if n := len(iv); n > 0 && iv[n-1].Hi+1 >= q {
			iv[n-1].Hi = max(iv[n-1].Hi, q)
			continue
		}
		iv = append(iv, Interval{q, q})
	}
	return iv
}

// FirstContained returns the first of seqs (strictly increasing) that s holds for
// u: a binary search for the first, then one pass over both lists, instead of a
// search per number.
func (s Set) FirstContained(u UUID, seqs []uint64) (uint64, bool) {
	if len(seqs) == 0 {
		return 0, false
	}
	iv := s.m[u]
	i := sort.Search(len(iv), func(k int) bool { return iv[k].Hi >= seqs[0] })
	for _, q := range seqs {
		for i < len(iv) && iv[i].Hi < q {
			i++
		}
		if i == len(iv) {
			return 0, false
		}
		if iv[i].Lo <= q && q != 0 {
			return q, true
		}
	}
	return 0, false
}

// merge replaces u's intervals by their union with add (sorted, normalized).
func (s *Set) merge(u UUID, add []Interval) {
	if len(add) == 0 {
		return
	}
	if s.m == nil {
		s.m = make(map[UUID][]Interval)
	}
	cur := s.m[u]
	out := make([]Interval, 0, len(cur)+len(add))
	for i, j := 0, 0; i < len(cur) || j < len(add); {
		var x Interval
		if j == len(add) || (i < len(cur) && cur[i].Lo <= add[j].Lo) {
			x, i = cur[i], i+1
		} else {
			x, j = add[j], j+1
		}
		if n := len(out); n > 0 && out[n-1].Hi+1 >= x.Lo {
			out[n-1].Hi = max(out[n-1].Hi, x.Hi)
		} else {
			out = append(out, x)
		}
	}
	s.m[u] = out
}

// Contains reports whether g is in the set.
func (s Set) Contains(g GTID) bool {
	iv := s.m[g.UUID]
	i := sort.Search(len(iv), func(k int) bool { return iv[k].Hi >= g.Seq })
	return i < len(iv) && iv[i].Lo <= g.Seq && g.Seq != 0
}

// IsEmpty reports whether the set holds no GTID.
func (s Set) IsEmpty() bool {
	for _, iv := range s.m {
		if len(iv) > 0 {
			return false
		}
	}
	return true
}

// Clone returns a deep copy.
func (s Set) Clone() Set {
	var c Set
	for u, iv := range s.m {
		if len(iv) == 0 {
			continue
		}
		if c.m == nil {
			c.m = make(map[UUID][]Interval, len(s.m))
		}
		c.m[u] = slices.Clone(iv)
	}
	return c
}

// Last returns the highest sequence number of u in the set, 0 if none.
func (s Set) Last(u UUID) uint64 {
	iv := s.m[u]
	if len(iv) == 0 {
		return 0
	}
	return iv[len(iv)-1].Hi
}

// Intervals returns a copy of u's intervals in ascending order.
func (s Set) Intervals(u UUID) []Interval {
	return slices.Clone(s.m[u])
}

// UUIDs returns the UUIDs present in the set, sorted by their text form.
func (s Set) UUIDs() []UUID {
	us := make([]UUID, 0, len(s.m))
	for u, iv := range s.m {
		if len(iv) > 0 {
			us = append(us, u)
		}
	}
	// Byte order equals lowercase text order, so no formatting is needed.
	slices.SortFunc(us, func(a, b UUID) int { return strings.Compare(string(a[:]), string(b[:])) })
	return us
}

// Count returns the number of GTIDs in the set (wrapping on overflow, which
// needs more than 2^64 transactions).
func (s Set) Count() uint64 {
	var n uint64
	for _, iv := range s.m {
		for _, r := range iv {
			n += r.Hi - r.Lo + 1
		}
	}
	return n
}

// String prints MySQL's text form: UUIDs sorted, intervals "a-b" or "a",
// everything joined with ","; the empty set prints as "".
func (s Set) String() string {
	var b []byte
	for k, u := range s.UUIDs() {
		if k > 0 {
			b = append(b, ',')
		}
		b = u.appendText(b)
		for _, r := range s.m[u] {
			b = append(b, ':')
			b = strconv.AppendUint(b, r.Lo, 10)
			if r.Hi != r.Lo {
				b = append(b, '-')
				b = strconv.AppendUint(b, r.Hi, 10)
			}
		}
	}
	return string(b)
}

// Equal reports whether both sets hold exactly the same GTIDs.
func (s Set) Equal(o Set) bool {
	for u, iv := range s.m {
		if !slices.Equal(iv, o.m[u]) {
			return false
		}
	}
	for u, iv := range o.m {
		if len(iv) > 0 && len(s.m[u]) == 0 {
			return false
		}
	}
	return true
}

// IsSubset reports whether every GTID of s is also in of.
func (s Set) IsSubset(of Set) bool {
	for u, iv := range s.m {
		if len(subtract(iv, of.m[u])) > 0 {
			return false
		}
	}
	return true
}

// Union returns s ∪ o.
func (s Set) Union(o Set) Set {
	r := s.Clone()
	for u, iv := range o.m {
		for _, x := range iv {
			r.AddRange(u, x.Lo, x.Hi)
		}
	}
	return r
}

// Subtract returns s \ o.
func (s Set) Subtract(o Set) Set {
	var r Set
	for u, iv := range s.m {
		r.put(u, subtract(iv, o.m[u]))
	}
	return r
}

// Intersect returns s ∩ o.
func (s Set) Intersect(o Set) Set {
	var r Set
	for u, a := range s.m {
		b := o.m[u]
		var out []Interval
		for i, j := 0, 0; i < len(a) && j < len(b); {
			lo, hi := max(a[i].Lo, b[j].Lo), min(a[i].Hi, b[j].Hi)
			if lo <= hi {
				out = append(out, Interval{lo, hi})
			}
			if a[i].Hi < b[j].Hi {
				i++
			} else {
				j++
			}
		}
		r.put(u, out)
	}
	return r
}

func (s *Set) put(u UUID, iv []Interval) {
	if len(iv) == 0 {
		return
	}
	if s.m == nil {
		s.m = make(map[UUID][]Interval)
	}
	s.m[u] = iv
}

// subtract returns a fresh slice holding a \ b; both inputs are normalized.
func subtract(a, b []Interval) []Interval {
	var out []Interval
	j := 0
	for _, x := range a {
		lo, hi := x.Lo, x.Hi
		for j < len(b) && b[j].Hi < lo {
			j++
		}
		k := j
		for k < len(b) && b[k].Lo <= hi {
			if b[k].Lo > lo {
				out = append(out, Interval{lo, b[k].Lo - 1})
			}
			if b[k].Hi >= hi {
				lo = hi + 1 // consumed entirely
				break
			}
			lo = b[k].Hi + 1
			k++
		}
		if lo <= hi && lo != 0 {
			out = append(out, Interval{lo, hi})
		}
	}
	return out
}
