package decimal

import (
	"github.com/cockroachdb/apd/v3"
)

// The SQL functions: NULL (or a value that is not a number) in, NULL out, as
// MySQL's arithmetic answers NULL for NULL.

func binary(a, b any, op func(r, x, y *apd.Decimal) (apd.Condition, error)) any {
	x, ok1 := Parse(a)
	y, ok2 := Parse(b)
	if !ok1 || !ok2 {
		return nil
	}
	var r apd.Decimal
	if _, err := op(&r, x, y); err != nil {
		return nil
	}
	return Text(&r)
}

// Add is a + b at the larger of their scales.
func Add(a, b any) any { return binary(a, b, ctx.Add) }

// Sub is a - b at the larger of their scales.
func Sub(a, b any) any { return binary(a, b, ctx.Sub) }

// Mul is a * b at the sum of their scales, as MySQL computes it.
func Mul(a, b any) any { return binary(a, b, ctx.Mul) }

// Div is a / b rounded half away from zero to scale digits (MySQL: the dividend's
// scale plus div_precision_increment); NULL for division by zero, as MySQL's.
func Div(a, b any, scale int64) any {
	x, ok1 := Parse(a)
	y, ok2 := Parse(b)
	if !ok1 || !ok2 || y.IsZero() {
		return nil
	}
	var q apd.Decimal
	if _, err := ctx.Quo(&q, x, y); err != nil {
		return nil
	}
	r, ok := Round(&q, int(scale))
	if !ok {
		return nil
	}
	return Text(r)
}

// Neg is -a.
func Neg(a any) any {
	x, ok := Parse(a)
	if !ok {
		return nil
	}
	var r apd.Decimal
	r.Neg(x)
	return Text(&r)
}

// Cast is a rounded to scale; a value beyond DECIMAL(precision, scale) is the
// largest value of that sign it holds, as MySQL's CAST answers.
func Cast(a any, precision, scale int64) any {
	x, ok := Parse(a)
	if !ok {
		return nil
	}
	r, ok := Round(x, int(scale))
	if !ok {
		return nil
	}
	if !Fits(r, int(precision), int(scale), false) {
		max := apd.New(1, int32(precision-scale))
		var m apd.Decimal
		ctx.Sub(&m, max, apd.New(1, int32(-scale)))
		m.Negative = r.Negative
		r = &m
	}
	return Text(r)
}

// Valid reports (1 or 0) whether a is a number a DECIMAL(precision, scale)
// column stores as given: its canonical text at exactly the column's scale.
func Valid(a any, precision, scale int64, unsigned bool) int64 {
	s, ok := a.(string)
	if !ok {
		return 0
	}
	x, ok := parseText(s)
	if !ok || Text(x) != s || int64(-x.Exponent) != scale {
		return 0
	}
	if !Fits(x, int(precision), int(scale), unsigned) {
		return 0
	}
	return 1
}

// Sum is SUM over decimals (and integers): exact, NULL over no rows.
type Sum struct {
	sum apd.Decimal
	n   int64
}

// NewSum makes a SUM aggregate.
func NewSum() *Sum { return &Sum{} }

// Step adds one value; NULL is skipped.
func (s *Sum) Step(v any) {
	x, ok := Parse(v)
	if !ok {
		return
	}
	ctx.Add(&s.sum, &s.sum, x)
	s.n++
}

// Done is the sum.
func (s *Sum) Done() any {
	if s.n == 0 {
		return nil
	}
	return Text(&s.sum)
}

// Avg is AVG over decimals (and integers): exact, rounded to a scale.
type Avg struct {
	Sum
	scale int64
}

// NewAvg makes an AVG aggregate.
func NewAvg() *Avg { return &Avg{} }

// Step adds one value at the result's scale; NULL is skipped.
func (a *Avg) Step(v any, scale int64) {
	a.scale = scale
	a.Sum.Step(v)
}

// Done is the mean.
func (a *Avg) Done() any {
	if a.n == 0 {
		return nil
	}
	return Div(Text(&a.sum), a.n, a.scale)
}

// Cmp compares a and b as numbers: -1, 0 or 1; NULL if either is not a number.
func Cmp(a, b any) any {
	x, ok1 := Parse(a)
	y, ok2 := Parse(b)
	if !ok1 || !ok2 {
		return nil
	}
	return int64(x.Cmp(y))
}

// Store is what a DECIMAL(precision, scale) column keeps of a computed value: the
// value rounded half away from zero to the scale, as canonical text. A value that
// is not a number, or does not fit, is returned as given: the column's value
// check refuses it (1366, 1264).
func Store(a any, precision, scale int64) any {
	if isNull(a) {
		return nil
	}
	x, ok := Parse(a)
	if !ok {
		return a
	}
	r, ok := Round(x, int(scale))
	if !ok || !Fits(r, int(precision), int(scale), false) {
		return a
	}
	return Text(r)
}

// IsNumber reports (1 or 0) whether a is a number; NULL is.
func IsNumber(a any) int64 {
	if isNull(a) {
		return 1
	}
	if _, ok := Parse(a); ok {
		return 1
	}
	return 0
}

// InRange reports (1 or 0) whether number a fits DECIMAL(precision, scale)
// [UNSIGNED] once rounded to the scale; NULL and what is not a number do (other
// checks answer for those).
func InRange(a any, precision, scale int64, unsigned bool) int64 {
	x, ok := Parse(a)
	if !ok {
		return 1
	}
	r, ok := Round(x, int(scale))
	if ok && Fits(r, int(precision), int(scale), unsigned) {
		return 1
	}
	return 0
}

// IsCanonical reports (1 or 0) whether a is stored as a DECIMAL column with scale
// keeps its values: text with exactly scale digits after the point. NULL and what
// is not a number pass (other checks answer for those).
func IsCanonical(a any, scale int64) int64 {
	x, ok := Parse(a)
	if !ok {
		return 1
	}
	s, isText := a.(string)
	if isText && int64(-x.Exponent) == scale && Text(x) == s {
		return 1
	}
	return 0
}

// ToInt is what an integer column keeps of a computed decimal or real value:
// rounded half away from zero. A value beyond BIGINT, or not a number, is
// returned as given for the column's value check to refuse.
func ToInt(a any) any {
	if isNull(a) {
		return nil
	}
	if _, ok := a.(int64); ok {
		return a
	}
	x, ok := Parse(a)
	if !ok {
		return a
	}
	r, ok := Round(x, 0)
	if !ok {
		return a
	}
	n, err := r.Int64()
	if err != nil {
		return a
	}
	return n
}

// RoundTo is MySQL's ROUND(a, d) of an exact value: half away from zero to d
// digits after the point (d < 0 rounds to tens, hundreds ...), keeping the
// result's scale at max(d, 0).
func RoundTo(a any, d int64) any {
	return roundTo(a, d, apd.RoundHalfUp)
}

// TruncateTo is MySQL's TRUNCATE(a, d) of an exact value: cut toward zero.
func TruncateTo(a any, d int64) any {
	return roundTo(a, d, apd.RoundDown)
}

func roundTo(a any, d int64, mode apd.Rounder) any {
	x, ok := Parse(a)
	if !ok {
		return nil
	}
	c := *ctx
	c.Rounding = mode
	var r apd.Decimal
	if _, err := c.Quantize(&r, x, int32(-d)); err != nil {
		return nil
	}
	if d < 0 {
		// 1234.5678 to -2 is 1200: back to a whole number's spelling
		if _, err := c.Quantize(&r, &r, 0); err != nil {
			return nil
		}
	}
	return Text(&r)
}

// Floor is MySQL's FLOOR of an exact value: the largest whole number not above
// s, as decimal text; ok=false when s is no number.
func Floor(s string) (string, bool) { return whole(s, apd.RoundFloor) }

// Ceil is MySQL's CEILING of an exact value: the smallest whole number not
// below s.
func Ceil(s string) (string, bool) { return whole(s, apd.RoundCeiling) }

func whole(s string, mode apd.Rounder) (string, bool) {
	x, ok := parseText(s)
	if !ok {
		return "", false
	}
	c := *ctx
	c.Rounding = mode
	var r apd.Decimal
	if _, err := c.Quantize(&r, x, 0); err != nil {
		return "", false
	}
	return Text(&r), true
}

// Mod is MySQL's a MOD b of exact values: the remainder of a / b truncated,
// with a's sign, at the larger of their scales; ok=false for no number or a
// zero b.
func Mod(a, b string) (string, bool) {
	x, ok1 := parseText(a)
	y, ok2 := parseText(b)
	if !ok1 || !ok2 || y.IsZero() {
		return "", false
	}
	var r apd.Decimal
	if _, err := ctx.Rem(&r, x, y); err != nil {
		return "", false
	}
	return Text(&r), true
}
