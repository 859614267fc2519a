package engine

import (
	"sync"

	"github.com/binlite/binlite/gtid"
)

// claims keeps the GTIDs being applied so that two channels delivering the same
// transaction (diamond topologies) apply it once. An applier claims its
// transactions in relay-log order and releases them as they commit, so the
// claimed numbers of a UUID sit in a narrow moving range: a bitmap over that
// range keeps them on a few cache lines, where a hash set of 65,536 in-flight
// GTIDs missed the cache on every lookup. Numbers too far from the range go to
// a map.
type claims struct {
	mu   sync.Mutex
	wins map[gtid.UUID]*claimWindow
	far  map[gtid.GTID]struct{}
}

// maxClaimWords bounds a window to 2^22 sequence numbers (512 KiB).
const maxClaimWords = 1 << 16

// claimWindow is a bitmap of claimed sequence numbers from base (a multiple of 64).
type claimWindow struct {
	base  uint64
	words []uint64
	n     int
}

// add claims g, which must not be claimed already (see has).
func (c *claims) add(g gtid.GTID) {
	if c.wins == nil {
		c.wins = map[gtid.UUID]*claimWindow{}
	}
	w := c.wins[g.UUID]
	if w == nil {
		w = &claimWindow{}
		c.wins[g.UUID] = w
	}
	if !w.set(g.Seq) {
		if c.far == nil {
			c.far = map[gtid.GTID]struct{}{}
		}
		c.far[g] = struct{}{}
	}
}

func (c *claims) has(g gtid.GTID) bool {
	if w := c.wins[g.UUID]; w != nil && w.has(g.Seq) {
		return true
	}
	_, ok := c.far[g]
	return ok
}

func (c *claims) remove(g gtid.GTID) {
	if w := c.wins[g.UUID]; w != nil && w.clear(g.Seq) {
		return
	}
	delete(c.far, g)
}

func (w *claimWindow) has(q uint64) bool {
	if q < w.base {
		return false
	}
	i := (q - w.base) / 64
	return i < uint64(len(w.words)) && w.words[i]&(1<<(q%64)) != 0
}

// set marks q, moving or widening the window as needed; false means q is too far
// from the claims already held.
func (w *claimWindow) set(q uint64) bool {
	lo := q &^ 63
	switch {
	case w.n == 0:
		w.base, w.words = lo, append(w.words[:0], 0)
	case q < w.base:
		grow := (w.base - lo) / 64
		if grow+uint64(len(w.words)) > maxClaimWords {
			return false
		}
		w.words = append(make([]uint64, grow, grow+uint64(len(w.words))), w.words...)
		w.base = lo
	default:
		i := (q - w.base) / 64
		if i >= maxClaimWords {
			return false
		}
		for uint64(len(w.words)) <= i {
			w.words = append(w.words, 0)
		}
	}
	w.words[(q-w.base)/64] |= 1 << (q % 64)
	w.n++
	return true
}

// clear releases q; false means q was not in the window.
func (w *claimWindow) clear(q uint64) bool {
	if !w.has(q) {
		return false
	}
	w.words[(q-w.base)/64] &^= 1 << (q % 64)
	w.n--
	// Slide the window past released words at its start.
	k := 0
	for k < len(w.words) && w.words[k] == 0 {
		k++
	}
	if k == len(w.words) {
		w.words = w.words[:0]
		return true
	}
	if k > 0 {
		w.base += 64 * uint64(k)
		w.words = w.words[k:]
	}
	return true
}
