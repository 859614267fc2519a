package compiler

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/binlite/binlite/mysqlerr"
)

// miscCall renders the functions answered from the statement's text alone
// (GET_FORMAT) and the regular expression functions (emitregexp.go). It
// reports false for other names.
func (e *emitter) miscCall(name string, x *ast.FuncCallExpr, s *scope) bool {
	switch name {
	case "get_format":
		if !e.arity(name, x, 2, 2) {
			return true
		}
		sel, ok := x.Args[0].(*ast.GetFormatSelectorExpr)
		v, isLit := x.Args[1].(*driver.ValueExpr)
		if !ok || !isLit {
			e.unsupported(name)
			return true
		}
		if f, ok := getFormats[sel.Selector.String()+" "+strings.ToUpper(v.GetString())]; ok {
			e.w(sqlString(f))
		} else {
			e.w("NULL")
		}
	case "regexp_like", "regexp_instr", "regexp_replace", "regexp_substr":
		e.regexpCall(name, x, s)
	case "sha2":
		// A constant length SHA2 does not have is NULL, warned about once.
		if len(x.Args) != 2 {
			return false
		}
		if n, ok := intLiteral(x.Args[1]); !ok || validSHA2(n) {
			return false
		}
		e.notes = append(e.notes, mysqlerr.Warn(mysqlerr.ErWrongParametersToNativeFct, "Incorrect parameters in the call to native function 'sha2'"))
		e.w("NULL")
	default:
		return false
	}
	return true
}

// getFormats are GET_FORMAT's answers (manual 14.7); the parser reads
// TIMESTAMP as DATETIME.
var getFormats = map[string]string{
	"DATE USA": "%m.%d.%Y", "DATE JIS": "%Y-%m-%d", "DATE ISO": "%Y-%m-%d", "DATE EUR": "%d.%m.%Y", "DATE INTERNAL": "%Y%m%d",
	"DATETIME USA": "%Y-%m-%d %H.%i.%s", "DATETIME JIS": "%Y-%m-%d %H:%i:%s", "DATETIME ISO": "%Y-%m-%d %H:%i:%s",
	"DATETIME EUR": "%Y-%m-%d %H.%i.%s", "DATETIME INTERNAL": "%Y%m%d%H%i%s",
	"TIME USA": "%h:%i:%s %p", "TIME JIS": "%H:%i:%s", "TIME ISO": "%H:%i:%s", "TIME EUR": "%H.%i.%s", "TIME INTERNAL": "%H%i%s",
}

// validSHA2 reports whether SHA2 has the length n (0 is 256).
func validSHA2(n int) bool { return n == 0 || n == 224 || n == 256 || n == 384 || n == 512 }
