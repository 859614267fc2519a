package engine

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlitec"
	"github.com/binlite/binlite/u64"
)

// MySQL's aggregate functions SQLite lacks or answers differently (manual
// 14.19.1): GROUP_CONCAT with its separator, DISTINCT and group_concat_max_len,
// the bit aggregates over 64 unsigned bits, and the standard deviations and
// variances. SQLite passes the rows in the aggregate's ORDER BY order.

// groupConcatMaxLen is MySQL's group_concat_max_len default: a longer result is
// cut with warning 1260.
const groupConcatMaxLen = 1024

func registerAggregates(c *sqlite3.SQLiteConn, st *stmtState) error {
	aggs := []struct {
		name  string
		nargs int
		new   func() sqlitec.Aggregate
	}{
		{"binlite_group_concat", -1, func() sqlitec.Aggregate { return &groupConcat{st: st} }},
		{"binlite_bit_and", 1, func() sqlitec.Aggregate { return &bitAgg{op: '&', acc: math.MaxUint64} }},
		{"binlite_bit_or", 1, func() sqlitec.Aggregate { return &bitAgg{op: '|'} }},
		{"binlite_bit_xor", 1, func() sqlitec.Aggregate { return &bitAgg{op: '^'} }},
		{"binlite_var_pop", 1, func() sqlitec.Aggregate { return &variance{} }},
		{"binlite_var_samp", 1, func() sqlitec.Aggregate { return &variance{sample: true} }},
		{"binlite_std_pop", 1, func() sqlitec.Aggregate { return &variance{root: true} }},
		{"binlite_std_samp", 1, func() sqlitec.Aggregate { return &variance{root: true, sample: true} }},
	}
	for _, a := range aggs {
		if err := sqlitec.RegisterAggregate(c, a.name, a.nargs, a.new); err != nil {
			return fmt.Errorf("register %s: %w", a.name, err)
		}
	}
	return nil
}

// groupConcat is binlite_group_concat(distinct, separator, value...): each
// row's values concatenated (a row with a NULL left out), the rows joined by
// the separator, a row equal to an earlier one left out when distinct is 1.
// The result is a binary string when a value is one.
type groupConcat struct {
	st        *stmtState
	buf       scratch
	out, row  []byte
	seen      map[string]bool
	rows, cut int
	binary    bool
}

func (g *groupConcat) Step(c sqlitec.Context, args []sqlitec.Value) {
	if len(args) < 3 {
		return
	}
	g.row = g.row[:0]
	for i := 2; i < len(args); i++ {
		s, ok := g.buf.text(&args[i])
		if !ok {
			return
		}
		g.binary = g.binary || isBinary(&args[i])
		g.row = append(g.row, s...)
	}
	if args[0].Int() == 1 {
		if g.seen == nil {
			g.seen = map[string]bool{}
		}
		if g.seen[string(g.row)] {
			return
		}
		g.seen[string(g.row)] = true
	}
	g.rows++
	if g.cut > 0 {
		return
	}
	if g.rows > 1 {
		sep, _ := g.buf.text(&args[1])
		g.out = append(g.out, sep...)
	}
	g.out = append(g.out, g.row...)
	if len(g.out) > groupConcatMaxLen {
		g.out = g.out[:cutAt(g.out, groupConcatMaxLen, g.binary)]
		g.cut = g.rows
	}
}

// cutAt is where text cut to n bytes ends on a character boundary.
func cutAt(b []byte, n int, binary bool) int {
	if binary {
		return n
	}
	for n > 0 && n < len(b) && b[n]&0xC0 == 0x80 {
		n--
	}
	return n
}

func (g *groupConcat) Final(c sqlitec.Context) {
	if g.rows == 0 {
		return
	}
	if g.cut > 0 {
		g.st.warnf(mysqlerr.ErCutValueGroupConcat, "Row %d was cut by GROUP_CONCAT()", g.cut)
	}
	result(c, g.out, g.binary)
}

// bitAgg is BIT_AND, BIT_OR or BIT_XOR over 64 unsigned bits (NULLs left out;
// no rows: all bits set for BIT_AND, none for the others), given as a BIGINT
// UNSIGNED's stored form (package u64).
type bitAgg struct {
	op  byte
	acc uint64
}

func (a *bitAgg) Step(c sqlitec.Context, args []sqlitec.Value) {
	v := &args[0]
	var n uint64
	switch v.Type() {
	case sqlitec.TypeNull:
		return
	case sqlitec.TypeInteger:
		n = uint64(v.Int())
	case sqlitec.TypeFloat:
		n = floatToUint64(v.Float())
	case sqlitec.TypeBlob:
		if b := v.Bytes(); len(b) == u64.Size && b[0] >= 0x80 {
			n = binary.BigEndian.Uint64(b)
		} else {
			n = uint64(stringToInt(b))
		}
	default:
		s := string(v.Bytes())
		if u, err := strconv.ParseUint(s, 10, 64); err == nil {
			n = u
		} else {
			n = uint64(stringToInt(v.Bytes()))
		}
	}
	switch a.op {
	case '&':
		a.acc &= n
	case '|':
		a.acc |= n
	default:
		a.acc ^= n
	}
}

func (a *bitAgg) Final(c sqlitec.Context) {
	if a.acc <= math.MaxInt64 {
		c.ResultInt(int64(a.acc))
		return
	}
	c.ResultBlob(u64.Blob(a.acc))
}

// floatToUint64 is a double as MySQL converts it to a 64-bit integer: rounded
// half to even, a negative one as its two's complement.
func floatToUint64(f float64) uint64 {
	r := math.RoundToEven(f)
	switch {
	case r >= math.MaxUint64:
		return math.MaxUint64
	case r >= 0:
		return uint64(r)
	}
	return uint64(roundToInt(r))
}

// variance is VAR_POP, VAR_SAMP and their square roots STDDEV_POP,
// STDDEV_SAMP as doubles (Welford's running mean); NULL for no rows, and a
// sample's for one row.
type variance struct {
	root, sample bool
	n            int64
	mean, m2     float64
}

func (v *variance) Step(c sqlitec.Context, args []sqlitec.Value) {
	x, ok := floatArg(&args[0])
	if !ok {
		return
	}
	v.n++
	d := x - v.mean
	v.mean += d / float64(v.n)
	v.m2 += d * (x - v.mean)
}

func (v *variance) Final(c sqlitec.Context) {
	div := v.n
	if v.sample {
		div--
	}
	if div <= 0 {
		return
	}
	r := v.m2 / float64(div)
	if v.root {
		r = math.Sqrt(r)
	}
	c.ResultFloat(r)
}
