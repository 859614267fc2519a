package gtid

import (
	"math/rand/v2"
	"slices"
	"testing"
)

const (
	ua = "3e11fa47-71ca-11e1-9e33-c80aa9429562"
	ub = "4e11fa47-71ca-11e1-9e33-c80aa9429562"
)

func TestParseString(t *testing.T) {
	tests := []struct {
		in, want string
		bad      bool
	}{
		{in: "", want: ""},
		{in: "  \n ", want: ""},
		{in: ua + ":1-77:80", want: ua + ":1-77:80"},
		{in: "3E11FA47-71CA-11E1-9E33-C80AA9429562:1-77:80", want: ua + ":1-77:80"},
		{in: ub + ":5," + ua + ":1", want: ua + ":1," + ub + ":5"},
		{in: ua + ":1-3:4-6:8,\n " + ua + ":7", want: ua + ":1-8"},
		{in: ua + ":5-5", want: ua + ":5"},
		{in: " " + ua + " : 1 - 3 ,\n" + ub + ":2 ", want: ua + ":1-3," + ub + ":2"},
		{in: ua + ":3-1", bad: true},
		{in: ua + ":0", bad: true},
		{in: ua, bad: true},
		{in: ua + ":", bad: true},
		{in: ua + ":1,", bad: true},
		{in: ua + ":1-", bad: true},
		{in: ua + ":a", bad: true},
		{in: "zz:1", bad: true},
		{in: ua + ":1-2-3", bad: true},
	}
	for _, tt := range tests {
		s, err := Parse(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("Parse(%q) = %q, want error", tt.in, s)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got := s.String(); got != tt.want {
			t.Errorf("Parse(%q).String() = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestAlgebra(t *testing.T) {
	tests := []struct {
		a, b                string
		union, sub, inter   string
		aSubB, bSubA, equal bool
	}{
		{a: "", b: "", union: "", sub: "", inter: "", aSubB: true, bSubA: true, equal: true},
		{a: ua + ":1-10", b: ua + ":3-5", union: ua + ":1-10", sub: ua + ":1-2:6-10", inter: ua + ":3-5", bSubA: true},
		{a: ua + ":1-10", b: ua + ":11-20", union: ua + ":1-20", sub: ua + ":1-10", inter: ""},
		{a: ua + ":1-5:10-15", b: ua + ":4-11," + ub + ":1", union: ua + ":1-15," + ub + ":1",
			sub: ua + ":1-3:12-15", inter: ua + ":4-5:10-11"},
		{a: ua + ":1-3", b: ua + ":1-3", union: ua + ":1-3", sub: "", inter: ua + ":1-3", aSubB: true, bSubA: true, equal: true},
		{a: ua + ":2", b: ua + ":1-3:5", union: ua + ":1-3:5", sub: "", inter: ua + ":2", aSubB: true},
		{a: ua + ":1-100", b: ua + ":1:3:5:100", union: ua + ":1-100", sub: ua + ":2:4:6-99", inter: ua + ":1:3:5:100", bSubA: true},
	}
	for _, tt := range tests {
		a, b := MustParse(tt.a), MustParse(tt.b)
		aStr, bStr := a.String(), b.String()
		check := func(op string, got Set, want string) {
			t.Helper()
			if got.String() != want {
				t.Errorf("%q %s %q = %q, want %q", tt.a, op, tt.b, got, want)
			}
		}
		check("∪", a.Union(b), tt.union)
		check("∪'", b.Union(a), tt.union)
		check("\\", a.Subtract(b), tt.sub)
		check("∩", a.Intersect(b), tt.inter)
		check("∩'", b.Intersect(a), tt.inter)
		if a.IsSubset(b) != tt.aSubB || b.IsSubset(a) != tt.bSubA || a.Equal(b) != tt.equal {
			t.Errorf("%q vs %q: subset %v %v equal %v", tt.a, tt.b, a.IsSubset(b), b.IsSubset(a), a.Equal(b))
		}
		if a.String() != aStr || b.String() != bStr {
			t.Errorf("operands modified: %q %q", a, b)
		}
	}
}

func TestAddContainsLast(t *testing.T) {
	u, _ := ParseUUID(ua)
	var s Set
	if !s.IsEmpty() || s.Count() != 0 || s.Last(u) != 0 || s.String() != "" || len(s.UUIDs()) != 0 {
		t.Fatal("zero set not empty")
	}
	for i := uint64(1); i <= 1000; i++ {
		s.Add(GTID{u, i})
	}
	s.Add(GTID{u, 1005})
	s.Add(GTID{u, 1003})
	s.Add(GTID{u, 1004})
	s.Add(GTID{u, 0})
	if got := s.String(); got != ua+":1-1000:1003-1005" {
		t.Fatalf("got %q", got)
	}
	if s.Count() != 1003 || s.Last(u) != 1005 {
		t.Fatalf("count %d last %d", s.Count(), s.Last(u))
	}
	for _, c := range []struct {
		seq uint64
		in  bool
	}{{0, false}, {1, true}, {1000, true}, {1001, false}, {1002, false}, {1003, true}, {1005, true}, {1006, false}} {
		if s.Contains(GTID{u, c.seq}) != c.in {
			t.Errorf("Contains(%d) != %v", c.seq, c.in)
		}
	}
	s.Add(GTID{u, 1001})
	s.Add(GTID{u, 1002})
	if got := s.String(); got != ua+":1-1005" {
		t.Fatalf("got %q", got)
	}
	c := s.Clone()
	c.Add(GTID{u, 2000})
	if s.Contains(GTID{u, 2000}) {
		t.Fatal("Clone aliases")
	}
	s.AddRange(u, MaxSeq-1, ^uint64(0))
	if s.Last(u) != MaxSeq {
		t.Fatalf("last %d", s.Last(u))
	}
}

// TestRandomAgainstModel checks the interval algebra against a map model.
func TestRandomAgainstModel(t *testing.T) {
	u1, _ := ParseUUID(ua)
	u2, _ := ParseUUID(ub)
	r := rand.New(rand.NewPCG(1, 2))
	gen := func() (Set, map[GTID]bool) {
		var s Set
		m := map[GTID]bool{}
		for range r.IntN(30) {
			u := u1
			if r.IntN(3) == 0 {
				u = u2
			}
			lo := uint64(r.IntN(60) + 1)
			hi := lo + uint64(r.IntN(5))
			if r.IntN(2) == 0 {
				s.Add(GTID{u, lo})
				hi = lo
			} else {
				s.AddRange(u, lo, hi)
			}
			for q := lo; q <= hi; q++ {
				m[GTID{u, q}] = true
			}
		}
		return s, m
	}
	for range 300 {
		a, am := gen()
		b, bm := gen()
		un, sub, in := a.Union(b), a.Subtract(b), a.Intersect(b)
		for _, u := range []UUID{u1, u2} {
			for q := uint64(0); q <= 70; q++ {
				g := GTID{u, q}
				if a.Contains(g) != am[g] || un.Contains(g) != (am[g] || bm[g]) ||
					sub.Contains(g) != (am[g] && !bm[g]) || in.Contains(g) != (am[g] && bm[g]) {
					t.Fatalf("mismatch at %v: a=%q b=%q", g, a, b)
				}
			}
		}
		if uint64(len(am)) != a.Count() {
			t.Fatalf("count %d vs %d", a.Count(), len(am))
		}
		re, err := Parse(a.String())
		if err != nil || !re.Equal(a) {
			t.Fatalf("reparse %q: %v", a, err)
		}
		if sub.IsSubset(b) && !sub.IsEmpty() {
			t.Fatalf("a\\b ⊆ b: %q", sub)
		}
		if !in.IsSubset(a) || !in.IsSubset(b) || !a.IsSubset(un) {
			t.Fatal("subset laws")
		}
	}
}

// AddAll must equal adding one by one, whatever the order, duplicates, seq 0
// and the set it merges into.
func TestAddAllMatchesAdd(t *testing.T) {
	u1, _ := ParseUUID(ua)
	u2, _ := ParseUUID(ub)
	r := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		var base Set
		for range r.IntN(20) {
			lo := uint64(r.IntN(80))
			base.AddRange([]UUID{u1, u2}[r.IntN(2)], lo, lo+uint64(r.IntN(4)))
		}
		us := []UUID{u1, u2}[:1+r.IntN(2)] // one UUID takes a path of its own
		gs := make([]GTID, r.IntN(40))
		for i := range gs {
			gs[i] = GTID{us[r.IntN(len(us))], uint64(r.IntN(90))}
		}
		orig := slices.Clone(gs)
		one, all := base.Clone(), base.Clone()
		for _, g := range gs {
			one.Add(g)
		}
		all.AddAll(gs)
		if !one.Equal(all) || one.String() != all.String() {
			t.Fatalf("AddAll(%v) onto %q: got %q, want %q", gs, base, all, one)
		}
		if !slices.Equal(gs, orig) {
			t.Fatal("AddAll reordered its argument")
		}
	}
}

// FirstContained finds the first number the set holds, like a search per number.
func TestFirstContained(t *testing.T) {
	u, _ := ParseUUID(ua)
	r := rand.New(rand.NewPCG(9, 10))
	for range 2000 {
		var s Set
		for range r.IntN(10) {
			lo := uint64(r.IntN(200) + 1)
			s.AddRange(u, lo, lo+uint64(r.IntN(10)))
		}
		var seqs []uint64
		for q := uint64(1 + r.IntN(5)); q < 220; q += uint64(1 + r.IntN(30)) {
			seqs = append(seqs, q)
		}
		var want uint64
		for _, q := range seqs {
			if s.Contains(GTID{u, q}) {
				want = q
				break
			}
		}
		if got, ok := s.FirstContained(u, seqs); got != want || ok != (want != 0) {
			t.Fatalf("FirstContained(%v) in %q = %d %v, want %d", seqs, s, got, ok, want)
		}
	}
}

// A parallel replica adds interleaved sequence numbers to a fragmented set.
func BenchmarkAddAllInterleaved(b *testing.B) {
	u := NewUUID()
	for range b.N {
		var s Set
		for w := range uint64(10) {
			gs := make([]GTID, 0, 10000)
			for q := w + 1; q <= 100000; q += 10 {
				gs = append(gs, GTID{u, q})
			}
			s.AddAll(gs)
		}
		if s.Count() != 100000 {
			b.Fatal(s.Count())
		}
	}
}

func BenchmarkAddNext(b *testing.B) {
	u := NewUUID()
	var s Set
	for i := range b.N {
		s.Add(GTID{u, uint64(i + 1)})
	}
}
