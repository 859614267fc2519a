package engine

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	sqlite3 "github.com/mattn/go-sqlite3"

	mysqlcatalog "github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/collation"
)

// registerEnum registers what ENUM and SET columns need at run time: their
// index and bit mask (numeric contexts, ORDER BY), the value a computed or bound
// value stores as, FIND_IN_SET, and binlite_lenient() for the value checks.
// The compiler passes a column's members as a JSON array of strings.
func registerEnum(c *sqlite3.SQLiteConn, st *stmtState) error {
	if err := c.RegisterFunc("binlite_lenient", st.lenient, false); err != nil {
		return fmt.Errorf("register binlite_lenient: %w", err)
	}
	if err := c.RegisterFunc("binlite_zero_ok", st.zeroDateOK, false); err != nil {
		return fmt.Errorf("register binlite_zero_ok: %w", err)
	}
	if err := c.RegisterFunc("binlite_zero_date", st.zeroDate, false); err != nil {
		return fmt.Errorf("register binlite_zero_date: %w", err)
	}
	fns := map[string]any{
		"binlite_enum_index": enumIndex,
		"binlite_set_mask":   setMask,
		"binlite_enum_store": enumStore,
		"find_in_set":        findInSet,
	}
	for name, fn := range fns {
		if err := c.RegisterFunc(name, fn, true); err != nil {
			return fmt.Errorf("register %s: %w", name, err)
		}
	}
	return nil
}

// lenient is binlite_lenient(): whether the running statement may store the
// ENUM empty error value, which MySQL stores under IGNORE with a warning. A
// replayed row change (a replica's apply, recovery) and DDL that copies rows
// carry values the source already stored.
func (st *stmtState) lenient() bool { return st.ignoring || st.replaying.Load() }

// ignoreStatement reports whether a write is an IGNORE statement: SQLite's own
// OR IGNORE, which both the compiler and the text translation give it.
func ignoreStatement(sql string) bool {
	s := strings.TrimLeft(sql, " \t\r\n")
	if len(s) < 16 {
		return false
	}
	return strings.EqualFold(s[:16], "INSERT OR IGNORE") || strings.EqualFold(s[:16], "UPDATE OR IGNORE")
}

var memberLists sync.Map // JSON text → []string

// members reads the compiler's member list.
func members(list string) []string {
	if v, ok := memberLists.Load(list); ok {
		return v.([]string)
	}
	var m []string
	_ = json.Unmarshal([]byte(list), &m) // the compiler wrote it
	memberLists.Store(list, m)
	return m
}

// enumIndex is binlite_enum_index(value, members): an ENUM value's index.
func enumIndex(v any, list string) any {
	if isNull(v) {
		return nil
	}
	return int64(mysqlcatalog.EnumIndex(members(list), toText(v)))
}

// setMask is binlite_set_mask(value, members): a SET value's bit mask.
func setMask(v any, list string) any {
	if isNull(v) {
		return nil
	}
	m := mysqlcatalog.SetMask(members(list), toText(v))
	if m > math.MaxInt64 {
		return strconv.FormatUint(m, 10)
	}
	return int64(m)
}

// enumStore is binlite_enum_store(value, members, collation, kind, ignore): what
// an ENUM or SET column (kind) keeps of a value a statement computes or binds:
// a number is an index or a mask, a string names members under the collation.
// A value MySQL truncates stays as given for the value check to refuse (1265),
// unless the statement is an IGNORE one (ignore=1): then it is what MySQL keeps.
func enumStore(v any, list, coll, kind string, ignore int64) any {
	if isNull(v) {
		return nil
	}
	ty := mysqlcatalog.Type{Base: kind, Elems: members(list), Collation: coll}
	var out string
	var truncated bool
	switch x := v.(type) {
	case int64:
		out, truncated = ty.EnumStoreNumber(x)
	case float64:
		out, truncated = ty.EnumStoreNumber(int64(math.Round(x)))
	default:
		out, truncated = ty.EnumStoreText(toText(v))
	}
	if truncated && ignore == 0 {
		return v
	}
	return out
}

// findInSet is FIND_IN_SET(str, list[, collation]): the position of str among
// list's comma-separated items by the collation (the server's by default), 0 if
// it is not one of them or holds a comma, NULL if an argument is NULL.
func findInSet(args ...any) any {
	if len(args) < 2 || isNull(args[0]) || isNull(args[1]) {
		return nil
	}
	name := "utf8mb4_general_ci"
	if len(args) > 2 {
		name = toText(args[2])
	}
	c, ok := collation.Lookup(name)
	s, list := toText(args[0]), toText(args[1])
	if strings.IndexByte(s, ',') >= 0 || list == "" {
		return int64(0)
	}
	for i, item := range strings.Split(list, ",") {
		if ok && c.Compare(item, s) == 0 || !ok && item == s {
			return int64(i + 1)
		}
	}
	return int64(0)
}
