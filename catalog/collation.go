package catalog

import (
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

// checkCollation refuses a collation that binlite cannot compare by (1235, or
// 1273 for a name MySQL does not know either) or that is not of charset (1253;
// charset "" checks nothing).
func checkCollation(name, charset string) error {
	if name == "" || name == "binary" {
		return nil
	}
	c, ok := collation.Lookup(name)
	if !ok {
		if _, known := primaryCollation[charsetOf(name)]; !known {
			return mysqlerr.New(mysqlerr.ErUnknownCollation, "Unknown collation: '%s'", name)
		}
		return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'COLLATE %s'", name)
	}
	if charset != "" && normCharset(charset) != c.Charset {
		return mysqlerr.New(mysqlerr.ErCollationCharsetMismatch, "COLLATION '%s' is not valid for CHARACTER SET '%s'", c.Name, normCharset(charset))
	}
	return nil
}
