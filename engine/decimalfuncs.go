package engine

import (
	"fmt"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/binlite/binlite/decimal"
)

// registerDecimal registers exact DECIMAL arithmetic (package decimal) on a
// connection: the collation a DECIMAL column's text is ordered by, the functions
// the compiler emits for decimal arithmetic, comparison and CAST, the value check,
// and SUM/AVG over decimals.
func registerDecimal(c *sqlite3.SQLiteConn) error {
	if err := c.RegisterCollation("binlite_decimal", decimal.Compare); err != nil {
		return fmt.Errorf("register collation binlite_decimal: %w", err)
	}
	fns := []struct {
		name string
		impl any
	}{
		{"binlite_dec_add", decimal.Add},
		{"binlite_dec_sub", decimal.Sub},
		{"binlite_dec_mul", decimal.Mul},
		{"binlite_dec_div", decimal.Div},
		{"binlite_dec_neg", decimal.Neg},
		{"binlite_dec_cmp", decimal.Cmp},
		{"binlite_dec_store", decimal.Store},
		{"binlite_int_store", decimal.ToInt},
		{"binlite_dec_round", decimal.RoundTo},
		{"binlite_dec_truncate", decimal.TruncateTo},
		{"binlite_dec_is_number", decimal.IsNumber},
		{"binlite_dec_in_range", decimal.InRange},
		{"binlite_dec_is_canonical", decimal.IsCanonical},
	}
	for _, f := range fns {
		if err := c.RegisterFunc(f.name, f.impl, true); err != nil {
			return fmt.Errorf("register %s: %w", f.name, err)
		}
	}
	if err := c.RegisterAggregator("binlite_dec_sum", decimal.NewSum, true); err != nil {
		return fmt.Errorf("register binlite_dec_sum: %w", err)
	}
	if err := c.RegisterAggregator("binlite_dec_avg", decimal.NewAvg, true); err != nil {
		return fmt.Errorf("register binlite_dec_avg: %w", err)
	}
	return nil
}
