// Package decimal owns binlite's exact DECIMAL values: a DECIMAL column keeps its
// values as canonical decimal text (the column's scale, no exponent, "-" for
// negatives) in a SQLite TEXT column ordered by the Collation here, and the
// arithmetic MySQL does on decimals in exact decimal arithmetic
// (github.com/cockroachdb/apd), never in float64. The functions take and return
// SQLite values (int64, float64, string, []byte, nil) so the engine can register
// them as SQL functions.
package decimal
