package binlog

import "encoding/binary"

// names shares the strings and column lists that recur across the events one reader
// decodes: a replica reads the same schema, table and columns in every rows event, and
// allocating them again for each is most of what decoding a small event costs. Shared
// slices are full (len == cap), so an append by a caller copies instead of writing
// into another event's list.
type names struct {
	strs    map[string]string
	heads   map[string]rowsHead
	schemas map[string][]string // one-schema lists of GTID events
}

// rowsHead is the part of a rows event before its rows.
type rowsHead struct {
	schema, table string
	cols          []string
	pk            []int
}

// maxNames bounds each table; a reader seeing more distinct names starts afresh.
const maxNames = 4096

func (n *names) intern(b []byte) string {
	if s, ok := n.strs[string(b)]; ok {
		return s
	}
	if n.strs == nil || len(n.strs) >= maxNames {
		n.strs = make(map[string]string)
	}
	s := string(b)
	n.strs[s] = s
	return s
}

func (n *names) oneSchema(b []byte) []string {
	if l, ok := n.schemas[string(b)]; ok {
		return l
	}
	if n.schemas == nil || len(n.schemas) >= maxNames {
		n.schemas = make(map[string][]string)
	}
	s := n.intern(b)
	l := []string{s}
	n.schemas[s] = l
	return l
}

// rowsHeadLen returns the length of the head (schema, table, columns, primary key)
// at the start of a rows event payload, or -1 when it is malformed (the full decode
// then reports why).
func rowsHeadLen(b []byte) int {
	off := 0
	uv := func() (uint64, bool) {
		v, n := binary.Uvarint(b[off:])
		if n <= 0 {
			return 0, false
		}
		off += n
		return v, true
	}
	str := func() bool {
		l, ok := uv()
		if !ok || l > uint64(len(b)-off) {
			return false
		}
		off += int(l)
		return true
	}
	for range 2 { // schema, table
		if !str() {
			return -1
		}
	}
	nc, ok := uv()
	if !ok || nc > uint64(len(b)-off) {
		return -1
	}
	for i := uint64(0); i < nc; i++ {
		if !str() {
			return -1
		}
	}
	npk, ok := uv()
	if !ok || npk > uint64(len(b)-off) {
		return -1
	}
	for i := uint64(0); i < npk; i++ {
		if _, ok := uv(); !ok {
			return -1
		}
	}
	return off
}
