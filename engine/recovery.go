package engine

import (
	"database/sql/driver"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/gtid"
	"github.com/binlite/binlite/preupdate"
)

func readApplied(c *sqliteConn) (map[gtid.UUID]uint64, error) {
	rows, err := c.query(`SELECT uuid, seq FROM ` + appliedTable)
	if err != nil {
		return nil, fmt.Errorf("engine: read applied GTIDs: %w", err)
	}
	defer rows.Close()
	hw := map[gtid.UUID]uint64{}
	dest := make([]driver.Value, 2)
	for {
		if err := rows.Next(dest); err != nil {
			if err == io.EOF {
				return hw, nil
			}
			return nil, fmt.Errorf("engine: read applied GTIDs: %w", err)
		}
		u, err := gtid.ParseUUID(asString(dest[0]))
		if err != nil {
			return nil, fmt.Errorf("engine: applied GTIDs: %w", err)
		}
		hw[u] = uint64(asInt(dest[1]))
	}
}

// recover brings every schema up to the binary log (invariant 1): a transaction the
// log holds but a schema has not recorded is re-applied to that schema, in log order.
// It runs before the writers start, on their connections.
func (e *Engine) recover() error {
	if _, err := os.Stat(filepath.Join(e.opts.Dir, "reset-in-progress")); err == nil {
		e.log.Warn("completing an interrupted RESET BINARY LOGS AND GTIDS")
		for _, s := range e.schemas {
			if err := clearApplied(s.w.c); err != nil {
				return err
			}
		}
		if err := e.opts.Log.Reset(); err != nil {
			return err
		}
		if err := os.Remove(filepath.Join(e.opts.Dir, "reset-in-progress")); err != nil {
			return fmt.Errorf("engine: %w", err)
		}
		return nil
	}
	hw := map[string]map[gtid.UUID]uint64{}
	for name, s := range e.schemas {
		m, err := readApplied(s.w.c)
		if err != nil {
			return err
		}
		hw[name] = m
	}
	replayed := map[string]int{}
	err := e.opts.Log.ScanTransactions("", func(file string, tx *binlog.Transaction) error {
		for _, name := range tx.Schemas {
			s := e.schemas[name]
			if s != nil && hw[name][tx.GTID.UUID] >= tx.GTID.Seq {
				continue
			}
			verb, _, isSchemaDDL := schemaDDLOf(tx, name)
			switch {
			case isSchemaDDL && verb == "CREATE":
				if s != nil {
					// A file that predates this CREATE is a leftover of an earlier life.
					s.w.close()
					s.closeReaders()
					if err := removeSchemaFiles(s.path); err != nil {
						return err
					}
				}
				ns, err := e.createSchemaFile(name, tx)
				if err != nil {
					return err
				}
				e.schemas[name] = ns
				hw[name] = map[gtid.UUID]uint64{tx.GTID.UUID: tx.GTID.Seq}
				replayed[name]++
			case isSchemaDDL && verb == "DROP":
				if s != nil {
					s.w.close()
					s.closeReaders()
					if err := removeSchemaFiles(s.path); err != nil {
						return err
					}
					delete(e.schemas, name)
					delete(hw, name)
				}
			case s == nil:
				// The schema was dropped later in the log (or never created here).
			default:
				if err := s.w.begin(); err != nil {
					return err
				}
				if err := s.w.applyEvents(tx.Events); err != nil {
					s.w.rollback()
					return fmt.Errorf("engine: recovery of %s into %s: %w", tx.GTID, name, err)
				}
				if err := s.w.commitWith([]*binlog.Transaction{tx}); err != nil {
					return err
				}
				if hw[name] == nil {
					hw[name] = map[gtid.UUID]uint64{}
				}
				hw[name][tx.GTID.UUID] = tx.GTID.Seq
				replayed[name]++
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("engine: recovery: %w", err)
	}
	for name, n := range replayed {
		e.log.Warn("recovery re-applied binary log transactions the schema had not recorded", "schema", name, "transactions", n)
	}
	return nil
}

func schemaDDLOf(tx *binlog.Transaction, name string) (verb, schema string, ok bool) {
	for _, ev := range tx.Events {
		if q, isQ := ev.(*binlog.QueryEvent); isQ {
			if v, n, ok := schemaDDLName(q.SQL); ok && n == name {
				return v, n, true
			}
		}
	}
	return "", "", false
}

// checkRowCapture refuses to run a binary whose SQLite lacks the preupdate hook: such
// a build would commit data that never reaches the binary log.
func checkRowCapture() error {
	c, err := openConn(":memory:", false, nil)
	if err != nil {
		return err
	}
	defer c.Close()
	rec, err := preupdate.Install(c.SQLiteConn)
	if err != nil {
		return fmt.Errorf("engine: capture self-test: %w", err)
	}
	defer rec.Close()
	if _, err := c.exec(`CREATE TABLE t(a)`); err != nil {
		return fmt.Errorf("engine: capture self-test: %w", err)
	}
	rec.Start()
	if _, err := c.exec(`INSERT INTO t VALUES ('x')`); err != nil {
		return fmt.Errorf("engine: capture self-test: %w", err)
	}
	data, err := rec.Stop()
	n := 0
	if err == nil {
		err = preupdate.Decode(data, func(ch *preupdate.Change) error {
			if ch.Op == preupdate.OpInsert && len(ch.New) == 1 && string(ch.New[0].Bytes) == "x" {
				n++
			}
			return nil
		})
	}
	if err != nil || n != 1 {
		return fmt.Errorf("engine: SQLite row capture does not work (%v): build with -tags sqlite_preupdate_hook", err)
	}
	return nil
}
