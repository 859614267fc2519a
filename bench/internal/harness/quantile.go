package harness

import (
	"math"
	"slices"
)

// Quantile is the q-quantile (0 ≤ q ≤ 1) of xs by the nearest-rank method: the
// smallest value with at least q of the values at or below it (NaN if xs is empty).
// Quantile(xs, 0.99) is the p99; Quantile(xs, 1) the maximum.
func Quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	rank := int(math.Ceil(q * float64(len(s))))
	return s[min(max(rank, 1), len(s))-1]
}
