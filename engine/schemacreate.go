package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/mattn/go-sqlite3"

	"github.com/binlite/binlite/mysqlerr"
)

// CREATE DATABASE makes the schema's file before it writes the binary log. Opening
// a SQLite file needs descriptors (the file, its WAL, readers later), and an open
// that fails after the log holds the CREATE cannot be answered truthfully: the
// client would be told it failed, and recovery would make the schema at the next
// start. Made first, a failure (EMFILE, ENOSPC, ...) is a plain statement error
// that leaves nothing behind.
//
// A marker file beside the new schema file says its CREATE may not have reached
// the binary log yet. Open removes a schema found with its marker: if its CREATE
// was logged, recovery makes the schema again from the log; if not, it never
// existed.

// creatingSuffix names the marker of a schema file whose CREATE is not yet logged.
const creatingSuffix = ".sqlite-creating"

func creatingMarker(dir, name string) string { return filepath.Join(dir, name+creatingSuffix) }

// prepareSchemaFile marks and makes the file of a schema about to be created.
func (e *Engine) prepareSchemaFile(name string) (*Schema, error) {
	marker := creatingMarker(e.opts.Dir, name)
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		return nil, cantCreateDB(name, err)
	}
	s, err := e.openSchema(name)
	if err != nil {
		if rerr := removeSchemaFiles(schemaPath(e.opts.Dir, name)); rerr != nil {
			e.log.Error("removing a schema file that failed to open", "schema", name, "err", rerr)
			return nil, cantCreateDB(name, err) // the marker stays: Open removes the file
		}
		_ = os.Remove(marker)
		return nil, cantCreateDB(name, err)
	}
	return s, nil
}

// discardSchemaFile undoes prepareSchemaFile when the binary log refused the CREATE.
func (e *Engine) discardSchemaFile(s *Schema) {
	s.w.close()
	s.closeReaders()
	if err := removeSchemaFiles(s.path); err != nil {
		e.log.Error("removing the file of a schema whose CREATE was not logged", "schema", s.name, "err", err)
		return // the marker stays: Open removes the file
	}
	_ = os.Remove(creatingMarker(e.opts.Dir, s.name))
}

// creationLogged drops the marker once the binary log holds the CREATE.
func (e *Engine) creationLogged(name string) {
	if err := os.Remove(creatingMarker(e.opts.Dir, name)); err != nil && !os.IsNotExist(err) {
		// Harmless but for a restart: Open would remove the file and recovery make
		// it again from the log.
		e.log.Warn("removing a schema's creation marker", "schema", name, "err", err)
	}
}

// removeUnloggedSchemas removes the schema files an interrupted CREATE DATABASE
// left with their marker (see prepareSchemaFile), before Open reads the schemas.
func removeUnloggedSchemas(dir string, log interface{ Warn(string, ...any) }) error {
	markers, err := filepath.Glob(filepath.Join(dir, "*"+creatingSuffix))
	if err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	for _, m := range markers {
		name := strings.TrimSuffix(filepath.Base(m), creatingSuffix)
		if err := removeSchemaFiles(schemaPath(dir, name)); err != nil {
			return err
		}
		if err := os.Remove(m); err != nil {
			return fmt.Errorf("engine: %w", err)
		}
		log.Warn("removed the file of a CREATE DATABASE interrupted before or while it was logged; recovery makes it again if the binary log holds it", "schema", name)
	}
	return nil
}

// cantCreateDB is MySQL's ER_CANT_CREATE_DB, naming the system error when there is one
// ("errno: 24 - Too many open files").
func cantCreateDB(name string, err error) error {
	if errno := systemErrno(err); errno != 0 {
		return mysqlerr.New(mysqlerr.ErCantCreateDB, "Can't create database '%s' (errno: %d - %s)", name, int(errno), errnoText(errno))
	}
	return mysqlerr.New(mysqlerr.ErCantCreateDB, "Can't create database '%s' (%v)", name, err)
}

// systemErrno finds the operating system's error behind err (0 if none).
func systemErrno(err error) syscall.Errno {
	var se sqlite3.Error
	if errors.As(err, &se) && se.SystemErrno != 0 {
		return se.SystemErrno
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno
	}
	return 0
}

// errnoText is the C library's wording of errno, which MySQL's messages quote
// ("Too many open files"); Go's differs only in its first letter.
func errnoText(errno syscall.Errno) string {
	s := errno.Error()
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
