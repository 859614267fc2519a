package decimal

// Exact is a DECIMAL value held outside a column, as its canonical text: a user
// variable set from a decimal expression (SET @d = 1.50) keeps MySQL's DECIMAL
// type, which a float64 would lose.
type Exact string
