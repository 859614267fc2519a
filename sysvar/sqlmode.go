package sysvar

import (
	"math/bits"
	"strconv"
	"strings"

	"github.com/binlite/binlite/mysqlerr"
)

// sqlModes are MySQL 8.4's sql_mode names by bit (sql_mode_names in its source;
// "" for bits it does not use): a value is shown with its names in this order.
var sqlModes = [...]string{
	0: "REAL_AS_FLOAT", 1: "PIPES_AS_CONCAT", 2: "ANSI_QUOTES", 3: "IGNORE_SPACE",
	5: "ONLY_FULL_GROUP_BY", 6: "NO_UNSIGNED_SUBTRACTION", 7: "NO_DIR_IN_CREATE",
	18: "ANSI", 19: "NO_AUTO_VALUE_ON_ZERO", 20: "NO_BACKSLASH_ESCAPES", 21: "STRICT_TRANS_TABLES",
	22: "STRICT_ALL_TABLES", 23: "NO_ZERO_IN_DATE", 24: "NO_ZERO_DATE", 25: "ALLOW_INVALID_DATES",
	26: "ERROR_FOR_DIVISION_BY_ZERO", 27: "TRADITIONAL", 29: "HIGH_NOT_PRECEDENCE",
	30: "NO_ENGINE_SUBSTITUTION", 31: "PAD_CHAR_TO_FULL_LENGTH", 32: "TIME_TRUNCATE_FRACTIONAL",
}

// sqlModeCombos are the combination modes and the modes they stand for.
var sqlModeCombos = map[string][]string{
	"ANSI":        {"REAL_AS_FLOAT", "PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE", "ONLY_FULL_GROUP_BY"},
	"TRADITIONAL": {"STRICT_TRANS_TABLES", "STRICT_ALL_TABLES", "NO_ZERO_IN_DATE", "NO_ZERO_DATE", "ERROR_FOR_DIVISION_BY_ZERO", "NO_ENGINE_SUBSTITUTION"},
}

// sqlModesNotYet change how MySQL reads statements or what it answers in ways
// binlite does not follow: a session that sets one is refused (1235) rather than
// answered differently.
var sqlModesNotYet = map[string]bool{
	"NO_UNSIGNED_SUBTRACTION": true, "ALLOW_INVALID_DATES": true,
	"PAD_CHAR_TO_FULL_LENGTH": true, "TIME_TRUNCATE_FRACTIONAL": true,
}

// SQLMode is sql_mode's value normalization: a comma-separated list of modes
// (any case, empty items skipped) or a number (the modes' bits) becomes MySQL's
// spelling, upper case in MySQL's order with combination modes expanded. An
// unknown mode is 1231, as in MySQL.
func SQLMode(v any) (any, error) {
	wrong := func() error {
		shown := Format(v)
		if v == nil {
			shown = "NULL"
		}
		return mysqlerr.New(mysqlerr.ErWrongValueForVar, "Variable 'sql_mode' can't be set to the value of '%s'", shown)
	}
	var set uint64
	switch x := v.(type) {
	case nil:
		return nil, wrong()
	case int64, uint64:
		n, err := strconv.ParseUint(Format(x), 10, 64)
		if err != nil || n>>len(sqlModes) != 0 {
			return nil, wrong()
		}
		for b := n; b != 0; b &= b - 1 {
			if sqlModes[bits.TrailingZeros64(b)] == "" {
				return nil, wrong()
			}
		}
		set = n
	default:
		for _, name := range strings.Split(Format(x), ",") {
			name = strings.ToUpper(strings.TrimSpace(name))
			if name == "" {
				continue
			}
			bit := modeBit(name)
			if bit < 0 {
				return nil, wrong()
			}
			set |= 1 << bit
		}
	}
	var names []string
	for bit, name := range sqlModes {
		if name == "" || set&(1<<bit) == 0 {
			continue
		}
		for _, m := range sqlModeCombos[name] {
			set |= 1 << modeBit(m)
		}
	}
	for bit, name := range sqlModes {
		if name != "" && set&(1<<bit) != 0 {
			if sqlModesNotYet[name] {
				return nil, mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'sql_mode %s'", name)
			}
			names = append(names, name)
		}
	}
	return strings.Join(names, ","), nil
}

func modeBit(name string) int {
	for bit, n := range sqlModes {
		if n == name {
			return bit
		}
	}
	return -1
}

// HasSQLMode reports whether sql_mode value mode (as SQLMode spells it) has name.
func HasSQLMode(mode, name string) bool {
	for len(mode) > 0 {
		item, rest, _ := strings.Cut(mode, ",")
		if item == name {
			return true
		}
		mode = rest
	}
	return false
}
