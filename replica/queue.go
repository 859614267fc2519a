package replica

// queue is a FIFO ring of the applier's in-flight transactions. Taking from the
// front of a plain slice and appending at its back reallocates and copies the
// whole window (tens of thousands of entries) every time the slice reaches the
// end of its array; a ring reuses one array.
type queue struct {
	buf     []inflight
	head, n int
}

func (q *queue) len() int { return q.n }

func (q *queue) push(in inflight) {
	if q.n == len(q.buf) {
		grown := make([]inflight, max(16, 2*len(q.buf)))
		for i := range q.n {
			grown[i] = q.buf[(q.head+i)%len(q.buf)]
		}
		q.buf, q.head = grown, 0
	}
	q.buf[(q.head+q.n)%len(q.buf)] = in
	q.n++
}

// front and back are the oldest and newest entries; the queue must not be empty.
func (q *queue) front() *inflight { return &q.buf[q.head] }
func (q *queue) back() *inflight  { return &q.buf[(q.head+q.n-1)%len(q.buf)] }

// pop removes the oldest entry, dropping the ring's reference to it.
func (q *queue) pop() inflight {
	in := q.buf[q.head]
	q.buf[q.head] = inflight{}
	q.head = (q.head + 1) % len(q.buf)
	q.n--
	return in
}
