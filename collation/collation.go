package collation

import (
	"sort"
	"strings"
)

// Collation is one MySQL collation binlite compares by.
type Collation struct {
	Name    string // MySQL's name, and the SQLite collation's
	Charset string
	// PadSpace: trailing spaces do not count ('a' = 'a '); false is NO PAD.
	PadSpace bool
	// newCompare makes a comparison function for one user at a time (a SQLite
	// connection); UCA comparisons keep state between calls.
	newCompare func() func(a, b string) int
	pool       chan func(a, b string) int
}

// Compare compares a and b (-1, 0, +1). It may be called from any goroutine.
func (c *Collation) Compare(a, b string) int {
	var cmp func(a, b string) int
	select {
	case cmp = <-c.pool:
	default:
		cmp = c.newCompare()
	}
	r := cmp(a, b)
	select {
	case c.pool <- cmp:
	default:
	}
	return r
}

// NewCompare returns a comparison function for a single goroutine at a time,
// cheaper than Compare.
func (c *Collation) NewCompare() func(a, b string) int { return c.newCompare() }

// SQLiteName is the collation a SQLite column of this collation declares.
func (c *Collation) SQLiteName() string {
	if c.Name == "utf8mb4_0900_bin" {
		return "BINARY" // memcmp: the same order, without a call into Go
	}
	return c.Name
}

var registry = map[string]*Collation{}

func add(name, charset string, pad bool, newCompare func() func(a, b string) int) {
	registry[name] = &Collation{Name: name, Charset: charset, PadSpace: pad, newCompare: newCompare, pool: make(chan func(a, b string) int, 8)}
}

// stateless wraps a comparison that keeps no state.
func stateless(f func(a, b string) int) func() func(a, b string) int {
	return func() func(a, b string) int { return f }
}

func init() {
	add("utf8mb4_general_ci", "utf8mb4", true, stateless(compareGeneral))
	add("utf8mb4_bin", "utf8mb4", true, stateless(compareBinPad))
	add("utf8mb4_unicode_ci", "utf8mb4", true, stateless(compareUnicode400))
	add("utf8mb4_unicode_520_ci", "utf8mb4", true, newUCA(ucaPrimary, true))
	add("utf8mb4_0900_ai_ci", "utf8mb4", false, newUCA(ucaPrimary, false))
	add("utf8mb4_0900_as_ci", "utf8mb4", false, newUCA(ucaSecondary, false))
	add("utf8mb4_0900_as_cs", "utf8mb4", false, newUCA(ucaTertiary, false))
	add("utf8mb4_0900_bin", "utf8mb4", false, stateless(strings.Compare))
	add("utf8mb3_general_ci", "utf8mb3", true, stateless(compareGeneral))
	add("utf8mb3_bin", "utf8mb3", true, stateless(compareBinPad))
	add("utf8mb3_unicode_ci", "utf8mb3", true, stateless(compareUnicode400))
	add("utf8mb3_unicode_520_ci", "utf8mb3", true, newUCA(ucaPrimary, true))
	for name, t := range latin1Tables {
		add(name, "latin1", true, stateless(t.compare))
	}
	add("ascii_general_ci", "ascii", true, stateless(asciiGeneral.compare))
	add("ascii_bin", "ascii", true, stateless(asciiBin.compare))
}

// Lookup finds a collation by MySQL name, in any letter case; utf8_ names are
// utf8mb3_ ones, as in MySQL.
func Lookup(name string) (*Collation, bool) {
	c, ok := registry[Canonical(name)]
	return c, ok
}

// Canonical is the name MySQL 8.4 reports for a collation name: lower case,
// utf8_ spelled utf8mb3_.
func Canonical(name string) string {
	name = strings.ToLower(name)
	if rest, ok := strings.CutPrefix(name, "utf8_"); ok {
		return "utf8mb3_" + rest
	}
	return name
}

// All lists the collations by name.
func All() []*Collation {
	out := make([]*Collation, 0, len(registry))
	for _, c := range registry {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Register registers every collation through register (on one SQLite connection:
// sqlitec.RegisterCollation, or the driver's RegisterCollation): each gets a
// comparison function of its own, used only by that connection.
func Register(register func(name string, cmp func(a, b string) int) error) error {
	for _, c := range All() {
		if err := register(c.Name, c.newCompare()); err != nil {
			return err
		}
	}
	return nil
}
