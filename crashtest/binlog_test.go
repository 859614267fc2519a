package crashtest

import (
	"bufio"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/gtid"
)

// logState is what a data directory's binary log says storage must hold: the
// schemas and tables its DDL created and the rows obtained by applying its row
// events in order, plus every GTID it holds in log order.
type logState struct {
	uuid    gtid.UUID
	files   []string
	gtids   []gtid.GTID          // in log order
	fp      map[gtid.GTID]uint64 // content fingerprint of each transaction
	schemas map[string]*schemaState
}

type schemaState struct {
	tables map[string]*tableState
}

// tableState holds rows by primary key. Columns are learned from the first rows
// event (a table nobody wrote to has none and must be empty).
type tableState struct {
	cols []string
	pk   []int
	rows map[string][]binlog.Value
}

// txnBuf collects one transaction's events between its GTID and COMMIT events.
type txnBuf struct {
	gtid    gtid.GTID
	schemas []string // as the GTID event lists them
	events  []binlog.Event
	crcs    []uint32
}

// readLog reads every file named by binlog.index, checks the log's structure and
// replays it. It fails on anything a recovered, idle log must not contain: an
// unterminated transaction, a partial event, a GTID twice, Previous_gtids that do
// not match the earlier files, or a row change that does not fit the rows before it.
func readLog(dir string) (*logState, error) {
	names, err := indexNames(dir)
	if err != nil {
		return nil, err
	}
	st := &logState{files: names, fp: map[gtid.GTID]uint64{}, schemas: map[string]*schemaState{}}
	var executed gtid.Set
	for i, name := range names {
		last := i == len(names)-1
		var cur *txnBuf
		var ended binlog.EventType // Rotate or Stop, if the file ended with one
		err := binlog.ReadFile(filepath.Join(dir, name), func(h binlog.EventHeader, ev binlog.Event) error {
			if ended != 0 {
				return fmt.Errorf("%s at %d: %s after %s", name, h.Pos, h.Type, ended)
			}
			switch e := ev.(type) {
			case *binlog.FormatDescriptionEvent:
				if st.uuid.IsZero() {
					st.uuid = e.ServerUUID
				} else if st.uuid != e.ServerUUID {
					return fmt.Errorf("%s: server uuid %s, earlier files %s", name, e.ServerUUID, st.uuid)
				}
			case *binlog.PreviousGTIDsEvent:
				if !e.Set.Equal(executed) {
					return fmt.Errorf("%s: Previous_gtids %q, but the earlier files hold %q", name, e.Set, executed)
				}
			case *binlog.GTIDEvent:
				if cur != nil {
					return fmt.Errorf("%s at %d: GTID %s inside transaction %s", name, h.Pos, e.GTID, cur.gtid)
				}
				if executed.Contains(e.GTID) {
					return fmt.Errorf("%s at %d: GTID %s appears twice in the binary log", name, h.Pos, e.GTID)
				}
				cur = &txnBuf{gtid: e.GTID, schemas: e.Schemas, crcs: []uint32{h.CRC}}
			case *binlog.RowsEvent, *binlog.QueryEvent:
				if cur == nil {
					return fmt.Errorf("%s at %d: %s outside a transaction", name, h.Pos, h.Type)
				}
				cur.events = append(cur.events, ev)
				cur.crcs = append(cur.crcs, h.CRC)
			case *binlog.CommitEvent:
				if cur == nil {
					return fmt.Errorf("%s at %d: COMMIT outside a transaction", name, h.Pos)
				}
				if err := st.apply(cur); err != nil {
					return fmt.Errorf("%s at %d: transaction %s: %w", name, h.Pos, cur.gtid, err)
				}
				executed.Add(cur.gtid)
				cur = nil
			case *binlog.RotateEvent, *binlog.StopEvent:
				if cur != nil {
					return fmt.Errorf("%s at %d: %s inside transaction %s", name, h.Pos, h.Type, cur.gtid)
				}
				ended = h.Type
			default:
				return fmt.Errorf("%s at %d: unexpected %s event", name, h.Pos, h.Type)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if cur != nil {
			return nil, fmt.Errorf("%s ends inside transaction %s (recovery should have truncated it)", name, cur.gtid)
		}
		if !last && ended == 0 {
			return nil, fmt.Errorf("%s is not the last file but ends without Rotate or Stop", name)
		}
	}
	return st, nil
}

// indexNames reads binlog.index.
func indexNames(dir string) ([]string, error) {
	f, err := os.Open(filepath.Join(dir, "binlog.index"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var names []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			names = append(names, filepath.Base(line))
		}
	}
	if len(names) == 0 {
		return nil, errors.New("binlog.index lists no file")
	}
	return names, sc.Err()
}

// lastFile returns the path of the active binary-log file.
func lastFile(dir string) (string, error) {
	names, err := indexNames(dir)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, names[len(names)-1]), nil
}

func (st *logState) apply(tx *txnBuf) error {
	h := fnv.New64a()
	for _, c := range tx.crcs {
		fmt.Fprintf(h, "%08x", c)
	}
	st.fp[tx.gtid] = h.Sum64()
	st.gtids = append(st.gtids, tx.gtid)
	for _, ev := range tx.events {
		var err error
		switch e := ev.(type) {
		case *binlog.QueryEvent:
			err = checkListed(tx, e.Schema)
			if err == nil {
				err = st.applyDDL(e)
			}
		case *binlog.RowsEvent:
			err = checkListed(tx, e.Schema)
			if err == nil {
				err = st.applyRows(e)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// checkListed checks that the GTID event names a schema the transaction writes.
func checkListed(tx *txnBuf, schema string) error {
	if !slices.Contains(tx.schemas, schema) {
		return fmt.Errorf("writes schema %s, but its GTID event lists %v", schema, tx.schemas)
	}
	return nil
}

var (
	createDatabaseRE = regexp.MustCompile("^(CREATE|DROP) DATABASE `([^`]+)`$")
	tableDDLRE       = regexp.MustCompile("(?is)^\\s*(CREATE|DROP)\\s+TABLE\\s+(?:IF\\s+(?:NOT\\s+)?EXISTS\\s+)?(?:`?(\\w+)`?\\.)?`?(\\w+)`?")
)

// applyDDL understands the DDL the tests issue: CREATE/DROP DATABASE in binlite's
// canonical form and CREATE/DROP TABLE, optionally qualified.
func (st *logState) applyDDL(q *binlog.QueryEvent) error {
	if m := createDatabaseRE.FindStringSubmatch(q.SQL); m != nil {
		name := m[2]
		if m[1] == "DROP" {
			if st.schemas[name] == nil {
				return fmt.Errorf("DROP DATABASE %s: no such schema in the log", name)
			}
			delete(st.schemas, name)
			return nil
		}
		if st.schemas[name] != nil {
			return fmt.Errorf("CREATE DATABASE %s: schema already exists in the log", name)
		}
		st.schemas[name] = &schemaState{tables: map[string]*tableState{}}
		return nil
	}
	m := tableDDLRE.FindStringSubmatch(q.SQL)
	if m == nil {
		return fmt.Errorf("DDL this verifier does not understand: %q", q.SQL)
	}
	schema, table := q.Schema, m[3]
	if m[2] != "" {
		schema = m[2]
	}
	sc := st.schemas[schema]
	if sc == nil {
		return fmt.Errorf("%q: schema %s does not exist in the log", q.SQL, schema)
	}
	if strings.EqualFold(m[1], "DROP") {
		delete(sc.tables, table)
		return nil
	}
	if sc.tables[table] == nil {
		sc.tables[table] = &tableState{rows: map[string][]binlog.Value{}}
	}
	return nil
}

func (st *logState) applyRows(e *binlog.RowsEvent) error {
	sc := st.schemas[e.Schema]
	if sc == nil {
		return fmt.Errorf("rows for %s.%s: schema not created in the log", e.Schema, e.Table)
	}
	tb := sc.tables[e.Table]
	if tb == nil {
		return fmt.Errorf("rows for %s.%s: table not created in the log", e.Schema, e.Table)
	}
	if len(e.PK) == 0 {
		return fmt.Errorf("rows for %s.%s: table without primary key (not supported by this verifier)", e.Schema, e.Table)
	}
	if tb.cols == nil {
		tb.cols, tb.pk = e.Columns, e.PK
	} else if strings.Join(tb.cols, ",") != strings.Join(e.Columns, ",") {
		return fmt.Errorf("rows for %s.%s: columns %v, earlier %v", e.Schema, e.Table, e.Columns, tb.cols)
	}
	for _, r := range e.Rows {
		switch r.Op {
		case binlog.OpInsert:
			k := tb.key(r.After)
			if _, ok := tb.rows[k]; ok {
				return fmt.Errorf("INSERT into %s.%s of key %s that already exists", e.Schema, e.Table, k)
			}
			tb.rows[k] = r.After
		case binlog.OpUpdate, binlog.OpDelete:
			k := tb.key(r.Before)
			old, ok := tb.rows[k]
			if !ok {
				return fmt.Errorf("%s of %s.%s key %s that does not exist", r.Op, e.Schema, e.Table, k)
			}
			if !binlog.ImagesEqual(old, r.Before) {
				return fmt.Errorf("%s of %s.%s key %s: before image %v, but the log left %v", r.Op, e.Schema, e.Table, k, texts(r.Before), texts(old))
			}
			delete(tb.rows, k)
			if r.Op == binlog.OpUpdate {
				k2 := tb.key(r.After)
				if _, dup := tb.rows[k2]; dup {
					return fmt.Errorf("UPDATE of %s.%s moves key %s onto existing key %s", e.Schema, e.Table, k, k2)
				}
				tb.rows[k2] = r.After
			}
		default:
			return fmt.Errorf("unknown row operation %d", r.Op)
		}
	}
	return nil
}

func (tb *tableState) key(img []binlog.Value) string {
	parts := make([]string, len(tb.pk))
	for i, c := range tb.pk {
		parts[i] = valueText(img[c]).String
	}
	return strings.Join(parts, "\x00")
}

// nullText is a column value as the MySQL text protocol returns it.
type nullText struct {
	String string
	Valid  bool
}

func (v nullText) display() string {
	if !v.Valid {
		return "NULL"
	}
	return strconv.Quote(v.String)
}

// valueText renders a logged value the way the server's text protocol does.
func valueText(v binlog.Value) nullText {
	switch v.Kind {
	case binlog.KindNull:
		return nullText{}
	case binlog.KindInt:
		return nullText{String: strconv.FormatInt(v.Int, 10), Valid: true}
	case binlog.KindReal:
		return nullText{String: strconv.FormatFloat(v.Real, 'g', -1, 64), Valid: true}
	default:
		return nullText{String: string(v.Bytes), Valid: true}
	}
}

func texts(img []binlog.Value) []string {
	out := make([]string, len(img))
	for i, v := range img {
		out[i] = valueText(v).display()
	}
	return out
}

// executedSet returns the GTIDs of the log as a set.
func (st *logState) executedSet() gtid.Set {
	var s gtid.Set
	for _, g := range st.gtids {
		s.Add(g)
	}
	return s
}
