package engine

import (
	"errors"
	"strings"

	"github.com/mattn/go-sqlite3"

	mysqlcatalog "github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/gtid"
	"github.com/binlite/binlite/mysqlerr"
)

var zeroGTID gtid.GTID

func unknownDB(name string) error {
	return mysqlerr.New(mysqlerr.ErBadDB, "Unknown database '%s'", name)
}

// translateError maps SQLite's errors onto the MySQL error a client of MySQL would see.
func translateError(err error, db string) error {
	if err == nil {
		return nil
	}
	if _, ok := mysqlerr.As(err); ok {
		return err
	}
	var se sqlite3.Error
	msg := err.Error()
	if errors.As(err, &se) {
		msg = se.Error()
	}
	if e, ok := fromFnError(msg, db); ok {
		return e
	}
	after := func(prefix string) (string, bool) {
		i := strings.Index(msg, prefix)
		if i < 0 {
			return "", false
		}
		return strings.TrimSpace(msg[i+len(prefix):]), true
	}
	if t, ok := after("no such table: "); ok {
		if !strings.Contains(t, ".") && db != "" {
			t = db + "." + t
		}
		return mysqlerr.New(mysqlerr.ErNoSuchTable, "Table '%s' doesn't exist", t)
	}
	if c, ok := after("no such column: "); ok {
		return mysqlerr.New(mysqlerr.ErBadField, "Unknown column '%s' in 'field list'", c)
	}
	if k, ok := after("UNIQUE constraint failed: "); ok {
		return mysqlerr.New(mysqlerr.ErDupEntry, "Duplicate entry for key '%s'", keyName(k))
	}
	if c, ok := after("NOT NULL constraint failed: "); ok {
		if i := strings.LastIndex(c, "."); i >= 0 {
			c = c[i+1:]
		}
		return mysqlerr.New(mysqlerr.ErBadNull, "Column '%s' cannot be null", c)
	}
	if (strings.HasPrefix(msg, "table ") || strings.HasPrefix(msg, "view ")) && strings.HasSuffix(msg, " already exists") {
		t := strings.Trim(strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(msg, "table "), "view "), " already exists"), `"`)
		return mysqlerr.New(mysqlerr.ErTableExists, "Table '%s' already exists", t)
	}
	if strings.HasPrefix(msg, "index ") && strings.HasSuffix(msg, " already exists") {
		return mysqlerr.New(mysqlerr.ErDupKeyName, "Duplicate key name '%s'", indexName(strings.TrimSuffix(strings.TrimPrefix(msg, "index "), " already exists")))
	}
	if i, ok := after("no such index: "); ok {
		return mysqlerr.New(mysqlerr.ErCantDropFieldOrKey, "Can't DROP '%s'; check that column/key exists", indexName(i))
	}
	if c, ok := after("duplicate column name: "); ok {
		return mysqlerr.New(mysqlerr.ErDupFieldName, "Duplicate column name '%s'", c)
	}
	if strings.Contains(msg, "syntax error") || strings.Contains(msg, "incomplete input") || strings.Contains(msg, "unrecognized token") {
		return mysqlerr.New(mysqlerr.ErParse, "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use (%s)", msg)
	}
	if strings.Contains(msg, "FOREIGN KEY constraint failed") {
		return mysqlerr.New(mysqlerr.ErNoReferencedRow, "Cannot add or update a child row: a foreign key constraint fails")
	}
	if c, ok := after("CHECK constraint failed: "); ok {
		if code, state, m, isValue := mysqlcatalog.CheckError(c); isValue {
			return &mysqlerr.Error{Code: code, State: state, Message: m}
		}
		return mysqlerr.New(mysqlerr.ErCheckConstraint, "Check constraint '%s' is violated.", c)
	}
	if c, ok := after("default value of column "); ok && strings.HasSuffix(c, " is not constant") {
		// A default expression that reads columns where binlite has no definition
		// to write it from (a TEMPORARY table).
		return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'the default expression of column %s here'", strings.Trim(strings.TrimSuffix(c, " is not constant"), "[]"))
	}
	if f, ok := after("no such function: "); ok {
		return mysqlerr.New(mysqlerr.ErSPDoesNotExist, "FUNCTION %s does not exist", f)
	}
	if i := strings.Index(msg, "Malformed GTID set specification"); i >= 0 {
		return mysqlerr.New(mysqlerr.ErMalformedGTIDSpec, "%s", msg[i:])
	}
	if strings.Contains(msg, "readonly database") {
		return mysqlerr.New(mysqlerr.ErOptionPreventsStmt, "The MySQL server is running with the --read-only option so it cannot execute this statement")
	}
	if strings.Contains(msg, "interrupted") {
		return mysqlerr.New(mysqlerr.ErQueryInterrupted, "Query execution was interrupted")
	}
	return mysqlerr.New(mysqlerr.ErUnknownError, "%s", msg)
}

// keyName turns SQLite's "t.a, t.b" into MySQL's key naming ("t.PRIMARY" is unknowable
// here, so the columns are named).
func keyName(cols string) string {
	return strings.ReplaceAll(cols, ", ", ",")
}

// indexName strips the "<table>." prefix binlite puts on SQLite index names.
func indexName(n string) string {
	n = strings.Trim(n, `"`)
	if i := strings.Index(n, "."); i >= 0 {
		return n[i+1:]
	}
	return n
}
