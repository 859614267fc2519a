package sqlcompat

import (
	"testing"

	"github.com/binlite/binlite/mysqlerr"
)

// testCtx is a session in database sbtest whose sbtest1/t tables have an id AUTO_INCREMENT column.
func testCtx() *Context {
	return &Context{
		DB: "sbtest",
		SysVar: func(name string, global bool) (any, bool) {
			switch name {
			case "version_comment":
				return "binlite", true
			case "autocommit":
				return int64(1), true
			case "max_allowed_packet":
				if global {
					return int64(67108864), true
				}
				return int64(4194304), true
			}
			return nil, false
		},
		UserVar: func(name string) any {
			if name == "x" {
				return int64(7)
			}
			return nil
		},
		AutoInc: func(schema, table string) (string, bool) {
			if schema == "sbtest" && (table == "sbtest1" || table == "t") {
				return "id", true
			}
			return "", false
		},
		Func: func(name string) (any, bool) {
			switch name {
			case "DATABASE":
				return "sbtest", true
			case "CONNECTION_ID":
				return int64(42), true
			case "LAST_INSERT_ID":
				return int64(9), true
			}
			return nil, false
		},
	}
}

func mustParse(t *testing.T, sql string) Statement {
	t.Helper()
	st, err := Parse(sql, testCtx())
	if err != nil {
		t.Fatalf("Parse(%q): %v", sql, err)
	}
	return st
}

func mustQuery(t *testing.T, sql string) *Query {
	t.Helper()
	q, ok := mustParse(t, sql).(*Query)
	if !ok {
		t.Fatalf("Parse(%q) is not a *Query", sql)
	}
	return q
}

func errCode(err error) uint16 {
	if me, ok := mysqlerr.As(err); ok {
		return me.Code
	}
	return 0
}
