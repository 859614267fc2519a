package session

import (
	"strings"

	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlcompat"
)

// Table locks. LOCK TABLES t READ and FLUSH TABLES WITH READ LOCK hold the
// writer of each schema the locked tables are in (of every schema for FLUSH),
// so no other session writes them until UNLOCK TABLES; the locking session reads
// through those writers, which see the latest committed rows, and may not write
// (1099, 1223), as in MySQL. It is what mariadb-dump takes to dump a consistent
// state. LOCK TABLES ... WRITE is 1235: its writes would be statements of a
// transaction that commits at UNLOCK TABLES, which MySQL does not do.

// lockTables runs LOCK TABLES or FLUSH TABLES WITH READ LOCK.
func (s *Session) lockTables(lt *sqlcompat.LockTables) error {
	for _, t := range lt.Tables {
		if t.Write {
			return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'LOCK TABLES ... WRITE'")
		}
	}
	if err := s.implicitCommit(); err != nil {
		return err
	}
	s.unlockTables()
	var dbs []string
	if lt.All {
		dbs = s.env.Engine.Schemas()
	}
	for _, t := range lt.Tables {
		db := t.Schema
		if db == "" {
			db = s.db
		}
		if db == "" {
			return mysqlerr.New(mysqlerr.ErNoDB, "No database selected")
		}
		if _, exists := (engineCatalog{s.env.Engine}).Table(db, t.Table); !exists {
			return mysqlerr.New(mysqlerr.ErNoSuchTable, "Table '%s.%s' doesn't exist", db, t.Table)
		}
		if !containsFold(dbs, db) {
			dbs = append(dbs, db)
		}
	}
	locks := s.env.Engine.Begin(s.lockWait())
	for _, db := range dbs {
		if err := locks.Hold(db); err != nil {
			locks.Rollback()
			return err
		}
	}
	s.locks, s.lockedAll = locks, lt.All
	s.lockedTables = lt.Tables
	return nil
}

// unlockTables releases the session's table locks (UNLOCK TABLES, a new LOCK
// TABLES, the end of the session).
func (s *Session) unlockTables() {
	if s.locks != nil {
		s.locks.Rollback()
		s.locks, s.lockedAll, s.lockedTables = nil, false, nil
	}
}

// lockRefusal is MySQL's error for a write while the session holds read locks.
func (s *Session) lockRefusal(table string) error {
	switch {
	case s.locks == nil:
		return nil
	case s.lockedAll:
		return mysqlerr.New(mysqlerr.ErCantUpdateWithReadlock, "Can't execute the query because you have a conflicting read lock")
	}
	for _, t := range s.lockedTables {
		if strings.EqualFold(t.Table, table) {
			return mysqlerr.New(mysqlerr.ErTableNotLockedForWrite, "Table '%s' was locked with a READ lock and can't be updated", table)
		}
	}
	return mysqlerr.New(mysqlerr.ErTableNotLocked, "Table '%s' was not locked with LOCK TABLES", table)
}
