package engine

import (
	"fmt"
	"math"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// registerMath registers the numeric functions whose MySQL rules SQLite's
// namesakes do not follow.
func registerMath(c *sqlite3.SQLiteConn) error {
	if err := c.RegisterFunc("binlite_round_double", roundDouble, true); err != nil {
		return fmt.Errorf("register binlite_round_double: %w", err)
	}
	return nil
}

// roundDouble is MySQL's ROUND(x, d) of a double: x scaled by 10^d, rounded half
// to even as rint does, scaled back; NULL for NULL.
func roundDouble(v any, d int64) any {
	if isNull(v) {
		return nil
	}
	x := toFloat(v)
	scale := math.Pow(10, float64(d))
	if d >= 0 {
		return math.RoundToEven(x*scale) / scale
	}
	return math.RoundToEven(x/math.Pow(10, float64(-d))) * math.Pow(10, float64(-d))
}
