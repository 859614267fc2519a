package sysvar

import (
	"errors"
	"testing"

	"github.com/binlite/binlite/mysqlerr"
)

// sql_mode values are spelled as MySQL 8.4 shows them; unknown names are 1231,
// modes binlite does not follow 1235.
func TestSQLMode(t *testing.T) {
	for in, want := range map[any]string{
		"":                    "",
		"strict_trans_tables": "STRICT_TRANS_TABLES",
		"no_engine_substitution, STRICT_ALL_TABLES": "STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION",
		",STRICT_TRANS_TABLES,,NO_ZERO_DATE":        "STRICT_TRANS_TABLES,NO_ZERO_DATE",
		"traditional":                               "STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,TRADITIONAL,NO_ENGINE_SUBSTITUTION",
		"NO_AUTO_VALUE_ON_ZERO":                     "NO_AUTO_VALUE_ON_ZERO",
		"ansi":                                      "REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ONLY_FULL_GROUP_BY,ANSI",
		int64(32 | 1<<21):                           "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES",
		int64(0):                                    "",
	} {
		got, err := SQLMode(in)
		if err != nil || got != want {
			t.Errorf("%v: %v, %v; want %q", in, got, err, want)
		}
	}
	for in, code := range map[any]uint16{
		"bogus":                     mysqlerr.ErWrongValueForVar,
		"STRICT_TRANS_TABLES,bogus": mysqlerr.ErWrongValueForVar,
		"NO_AUTO_CREATE_USER":       mysqlerr.ErWrongValueForVar, // gone in MySQL 8.0
		nil:                         mysqlerr.ErWrongValueForVar,
		int64(16):                   mysqlerr.ErWrongValueForVar, // a bit MySQL does not use
		int64(-1):                   mysqlerr.ErWrongValueForVar,
		"NO_UNSIGNED_SUBTRACTION":   mysqlerr.ErNotSupportedYet,
		"STRICT_TRANS_TABLES,PAD_CHAR_TO_FULL_LENGTH": mysqlerr.ErNotSupportedYet,
	} {
		_, err := SQLMode(in)
		var me *mysqlerr.Error
		if !errors.As(err, &me) || me.Code != code {
			t.Errorf("%v: %v, want error %d", in, err, code)
		}
	}
	if !HasSQLMode("ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES", "STRICT_TRANS_TABLES") || HasSQLMode("STRICT_TRANS_TABLES", "STRICT") {
		t.Error("HasSQLMode")
	}
}
