package catalog

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/charset"

	"github.com/binlite/binlite/collation"
	"github.com/binlite/binlite/mysqlerr"
)

// SQLiteCollation is the collation SQLite compares the type's values by, named
// in the column's SQLite declaration (COLLATE ...): its MySQL collation, so that
// comparisons, keys, ORDER BY, GROUP BY and DISTINCT follow MySQL's. "" for types
// that are not text, which SQLite compares as stored (bytes, numbers).
func (ty Type) SQLiteCollation() string {
	if !ty.IsTextual() || ty.Collation == "" {
		return ""
	}
	if c, ok := collation.Lookup(ty.Collation); ok {
		return c.SQLiteName()
	}
	return ""
}

// DefaultCollationOf is a character set's default collation ("" if binlite does
// not know the character set).
func DefaultCollationOf(charset string) string { return primaryCollation[normCharset(charset)] }

// CheckCollation refuses a collation name binlite cannot compare by: 1273 if
// MySQL does not know it either, else 1235.
func CheckCollation(name string) error { return checkCollation(collation.Canonical(name), "") }

// checkCollation refuses a collation that binlite cannot compare by (1235, or
// 1273 for a name MySQL does not know either) or that is not of charset (1253;
// charset "" checks nothing).
func checkCollation(name, charset string) error {
	if name == "" || name == "binary" {
		return nil
	}
	c, ok := collation.Lookup(name)
	if !ok {
		if !mysqlKnows(name) {
			return mysqlerr.New(mysqlerr.ErUnknownCollation, "Unknown collation: '%s'", name)
		}
		return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'COLLATE %s'", name)
	}
	if charset != "" && normCharset(charset) != c.Charset {
		return mysqlerr.New(mysqlerr.ErCollationCharsetMismatch, "COLLATION '%s' is not valid for CHARACTER SET '%s'", c.Name, normCharset(charset))
	}
	return nil
}

// mysqlKnows reports whether MySQL has a collation of that name (MySQL's grammar,
// TiDB's parser, lists them; it spells utf8mb3 as utf8).
func mysqlKnows(name string) bool {
	if _, err := charset.GetCollationByName(name); err == nil {
		return true
	}
	if rest, ok := strings.CutPrefix(name, "utf8mb3_"); ok {
		_, err := charset.GetCollationByName("utf8_" + rest)
		return err == nil
	}
	return false
}

// CharsetOf is the character set of collation name.
func CharsetOf(name string) string { return charsetOf(name) }
