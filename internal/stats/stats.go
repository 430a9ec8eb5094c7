// Package stats holds the one definition of median and quantile that
// every table of the project uses.
package stats

import (
	"math"
	"slices"
)

// Quantile is the q-quantile (0 <= q <= 1) of xs by linear interpolation
// between the closest ranks (R's default, type 7): the median of an even
// number of values is the mean of the two middle ones, Quantile(xs, 1) is
// the maximum. It is NaN for no values. xs is not changed.
func Quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	q = min(max(q, 0), 1)
	h := q * float64(len(s)-1)
	lo := int(math.Floor(h))
	if lo+1 >= len(s) || h == float64(lo) {
		// on a rank (no interpolation: an infinite neighbour would
		// make 0·Inf)
		return s[lo]
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
}

// Median is Quantile(xs, 0.5).
func Median(xs []float64) float64 { return Quantile(xs, 0.5) }
