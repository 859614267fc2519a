package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/binlite/binlite/gtid"
)

// The claim set must behave as a plain set of GTIDs whatever the order of claims
// and releases, including numbers far outside the window and several UUIDs.
func TestClaimsMatchSet(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	uuids := []gtid.UUID{gtid.NewUUID(), gtid.NewUUID()}
	var c claims
	model := map[gtid.GTID]bool{}
	var held []gtid.GTID
	next := uint64(1)
	for step := range 200000 {
		var g gtid.GTID
		switch k := r.IntN(10); {
		case k < 5: // the applier's next transaction
			g = gtid.GTID{UUID: uuids[r.IntN(2)], Seq: next}
			next += uint64(r.IntN(3))
		case k < 6: // another channel, behind or ahead
			g = gtid.GTID{UUID: uuids[r.IntN(2)], Seq: max(1, next-uint64(r.IntN(5000))) + uint64(r.IntN(100))}
		case k < 7: // far away
			g = gtid.GTID{UUID: uuids[r.IntN(2)], Seq: uint64(r.Int64N(gtid.MaxSeq)) + 1}
		default: // release a held one, mostly old ones
			if len(held) == 0 {
				continue
			}
			i := r.IntN(min(len(held), 64))
			g = held[i]
			held[i] = held[len(held)-1]
			held = held[:len(held)-1]
			c.remove(g)
			delete(model, g)
			if c.has(g) {
				t.Fatalf("step %d: %v still claimed after release", step, g)
			}
			continue
		}
		if got, want := !c.has(g), !model[g]; got != want {
			t.Fatalf("step %d: claimable(%v) = %v, want %v", step, g, got, want)
		}
		if !model[g] {
			c.add(g)
			model[g] = true
			held = append(held, g)
		}
		if !c.has(g) {
			t.Fatalf("step %d: %v not claimed after add", step, g)
		}
	}
	for g := range model {
		if !c.has(g) {
			t.Fatalf("%v lost", g)
		}
		c.remove(g)
	}
	for _, w := range c.wins {
		if w.n != 0 || len(w.words) != 0 {
			t.Fatalf("window not empty after releasing everything: n=%d words=%d", w.n, len(w.words))
		}
	}
	if len(c.far) != 0 {
		t.Fatalf("%d far claims left", len(c.far))
	}
}
