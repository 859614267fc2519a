package mysqlerr

import (
	"errors"
	"fmt"
)

// Error is an error with a MySQL error code and SQLSTATE, sent to clients as an ERR packet.
type Error struct {
	Code    uint16
	State   string
	Message string
}

func (e *Error) Error() string {
	return fmt.Sprintf("ERROR %d (%s): %s", e.Code, e.State, e.Message)
}

// New builds an Error for code with a formatted message; the SQLSTATE comes from the code.
func New(code uint16, format string, args ...any) *Error {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return &Error{Code: code, State: State(code), Message: msg}
}

// As returns the *Error inside err, if any.
func As(err error) (*Error, bool) {
	var me *Error
	if errors.As(err, &me) {
		return me, true
	}
	return nil, false
}

// From converts any error into an *Error: MySQL errors pass through, anything else
// becomes ER_UNKNOWN_ERROR carrying the original text.
func From(err error) *Error {
	if err == nil {
		return nil
	}
	if me, ok := As(err); ok {
		return me
	}
	return New(ErUnknownError, "%s", err.Error())
}

// Is reports whether err carries the given MySQL error code.
func Is(err error, code uint16) bool {
	me, ok := As(err)
	return ok && me.Code == code
}

// Warning is one entry of a statement's diagnostics area (SHOW WARNINGS).
type Warning struct {
	Level   string // Note, Warning or Error
	Code    uint16
	Message string
}

// Note and Warn build diagnostics entries.
func Note(code uint16, format string, args ...any) Warning {
	return Warning{Level: "Note", Code: code, Message: fmt.Sprintf(format, args...)}
}

// Warn is a Warning-level entry.
func Warn(code uint16, format string, args ...any) Warning {
	return Warning{Level: "Warning", Code: code, Message: fmt.Sprintf(format, args...)}
}
