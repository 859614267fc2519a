package engine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/binlite/binlite/mysqlerr"
)

// Errors raised inside SQLite by binlite's own SQL (a function's error, a trigger's
// RAISE) carry their MySQL code in the message, which is all SQLite passes on:
// "binlite-error:<code>:<message>". translateError turns them back.
const fnErrorPrefix = "binlite-error:"

// fnError is a MySQL error as an SQL function returns it.
func fnError(code uint16, format string, args ...any) error {
	return errors.New(fnErrorText(code, fmt.Sprintf(format, args...)))
}

// fnErrorText is the message of a MySQL error raised from SQL text (RAISE).
func fnErrorText(code uint16, msg string) string {
	return fnErrorPrefix + strconv.Itoa(int(code)) + ":" + msg
}

// fromFnError recognises an error fnError or a binlite trigger raised. A foreign key
// message names its child table without the database (a schema file does not know
// its name): it is added here.
func fromFnError(msg, db string) (error, bool) {
	i := strings.Index(msg, fnErrorPrefix)
	if i < 0 {
		return nil, false
	}
	rest := msg[i+len(fnErrorPrefix):]
	j := strings.IndexByte(rest, ':')
	if j < 0 {
		return nil, false
	}
	code, err := strconv.Atoi(rest[:j])
	if err != nil || code <= 0 || code > 0xffff {
		return nil, false
	}
	text := rest[j+1:]
	if strings.HasPrefix(text, fkMessageMark) {
		text = fkMessage(uint16(code), db, strings.TrimPrefix(text, fkMessageMark))
	}
	return mysqlerr.New(uint16(code), "%s", text), true
}

// fail is binlite_fail(code, message): the MySQL error, raised from a statement
// binlite wrote (a check run inside a DDL's transaction).
func fail(code int64, msg string) (any, error) {
	return nil, fnError(uint16(code), "%s", msg)
}
