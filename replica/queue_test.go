package replica

import (
	"math/rand/v2"
	"testing"
)

// The ring keeps FIFO order across growth and wrap-around, like a slice would.
func TestQueueIsFIFO(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var q queue
	var model []int64
	next := int64(0)
	for step := range 100000 {
		if r.IntN(3) > 0 || len(model) == 0 {
			q.push(inflight{size: next})
			model = append(model, next)
			next++
		} else {
			if got := q.pop().size; got != model[0] {
				t.Fatalf("step %d: popped %d, want %d", step, got, model[0])
			}
			model = model[1:]
		}
		if q.len() != len(model) {
			t.Fatalf("step %d: len %d, want %d", step, q.len(), len(model))
		}
		if len(model) > 0 && (q.front().size != model[0] || q.back().size != model[len(model)-1]) {
			t.Fatalf("step %d: front/back %d/%d, want %d/%d", step, q.front().size, q.back().size, model[0], model[len(model)-1])
		}
	}
}
