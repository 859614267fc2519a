package session

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/binlite/binlite/engine"
	"github.com/binlite/binlite/infoschema"
	"github.com/binlite/binlite/mysqlerr"
	mp "github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/sqlcompat"
	"github.com/binlite/binlite/sysvar"
)

func fmtValue(v any) string { return sysvar.Format(v) }

// like matches MySQL's LIKE pattern (case-insensitive, % and _).
func like(pattern, s string) bool {
	if pattern == "" {
		return true
	}
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; c {
		case '%':
			b.WriteByte('*')
		case '_':
			b.WriteByte('?')
		case '\\':
			if i+1 < len(pattern) {
				i++
				b.WriteByte('\\')
				b.WriteByte(pattern[i])
			}
		case '*', '?', '[', ']':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	ok, _ := path.Match(strings.ToLower(b.String()), strings.ToLower(s))
	return ok
}

// show answers a SHOW statement, its LIKE or WHERE applied.
func (s *Session) show(x *sqlcompat.Show) (*mp.Result, error) {
	res, err := s.showResult(x)
	if err != nil {
		return nil, err
	}
	return s.showFilter(x, res)
}

func (s *Session) showResult(x *sqlcompat.Show) (*mp.Result, error) {
	switch x.Kind {
	case sqlcompat.ShowDatabases:
		names := append([]string{infoschema.InformationSchema, infoschema.PerformanceSchema}, s.env.Engine.Schemas()...)
		slices.Sort(names)
		rows := [][]any{}
		g := s.grants()
		for _, n := range names {
			if s.canSeeSchema(g, n) {
				rows = append(rows, []any{n})
			}
		}
		return stringResult([]string{"Database"}, rows), nil
	case sqlcompat.ShowTables:
		return s.showTables(x)
	case sqlcompat.ShowCreateTable:
		return s.showCreateTable(x)
	case sqlcompat.ShowCreateDatabase:
		if !s.env.Engine.HasSchema(x.DB) {
			return nil, mysqlerr.New(mysqlerr.ErBadDB, "Unknown database '%s'", x.DB)
		}
		coll := s.env.Vars.String("collation_server")
		cs, _, _ := strings.Cut(coll, "_")
		create := "CREATE DATABASE `"
		if x.IfNotExists {
			create = "CREATE DATABASE /*!32312 IF NOT EXISTS*/ `"
		}
		return stringResult([]string{"Database", "Create Database"}, [][]any{{x.DB, create + x.DB + "` /*!40100 DEFAULT CHARACTER SET " + cs + " COLLATE " + coll + " */ /*!80016 DEFAULT ENCRYPTION='N' */"}}), nil
	case sqlcompat.ShowVariables:
		return s.showVariables(x)
	case sqlcompat.ShowStatus:
		return stringResult([]string{"Variable_name", "Value"}, s.statusRows()), nil
	case sqlcompat.ShowColumns:
		return s.showColumns(x)
	case sqlcompat.ShowIndex:
		return s.showIndex(x)
	case sqlcompat.ShowWarnings, sqlcompat.ShowErrors:
		rows := [][]any{}
		for _, w := range s.warnings {
			if x.Kind == sqlcompat.ShowErrors && w.Level != "Error" {
				continue
			}
			rows = append(rows, []any{w.Level, int64(w.Code), w.Message})
		}
		res := stringResult([]string{"Level", "Code", "Message"}, rows)
		res.Columns[1].Type, res.Columns[1].Flags, res.Columns[1].Length = mp.TypeLong, mp.UnsignedFlag|mp.NotNullFlag|mp.NumFlag, 4
		return res, nil
	case sqlcompat.ShowEngines:
		rows := [][]any{}
		for _, e := range infoschema.Engines() {
			rows = append(rows, []any{e.Name, e.Support, e.Comment, e.Transactions, e.XA, e.Savepoints})
		}
		return stringResult([]string{"Engine", "Support", "Comment", "Transactions", "XA", "Savepoints"}, rows), nil
	case sqlcompat.ShowPlugins:
		rows := [][]any{}
		for _, p := range infoschema.Plugins() {
			rows = append(rows, []any{p.Name, "ACTIVE", p.Type, nil, "GPL"})
		}
		return stringResult([]string{"Name", "Status", "Type", "Library", "License"}, rows), nil
	case sqlcompat.ShowProcesslist:
		rows := [][]any{}
		for _, p := range s.env.List.Snapshot() {
			if !s.seesProcess(p) {
				continue
			}
			var db, info any
			if p.DB != "" {
				db = p.DB
			}
			if p.Info != "" {
				info = p.Info
			}
			rows = append(rows, []any{int64(p.ID), p.User, p.Host, db, p.Command, int64(time.Since(p.Since).Seconds()), p.State, info})
		}
		return stringResult([]string{"Id", "User", "Host", "db", "Command", "Time", "State", "Info"}, rows), nil
	case sqlcompat.ShowCollation:
		return showCollation(), nil
	case sqlcompat.ShowCharset:
		return showCharset(), nil
	case sqlcompat.ShowBinaryLogStatus:
		file, pos := s.env.Log.Position()
		return stringResult([]string{"File", "Position", "Binlog_Do_DB", "Binlog_Ignore_DB", "Executed_Gtid_Set"},
			[][]any{{file, pos, "", "", s.env.Engine.Executed().String()}}), nil
	case sqlcompat.ShowBinaryLogs:
		files, err := s.env.Log.Files()
		if err != nil {
			return nil, err
		}
		rows := make([][]any, 0, len(files))
		for _, f := range files {
			rows = append(rows, []any{f.Name, f.Size, "No"})
		}
		return stringResult([]string{"Log_name", "File_size", "Encrypted"}, rows), nil
	case sqlcompat.ShowBinlogEvents:
		return s.showBinlogEvents(x)
	case sqlcompat.ShowReplicaStatus:
		return s.showReplicaStatus(x)
	case sqlcompat.ShowReplicas:
		return s.showReplicas()
	case sqlcompat.ShowGrants:
		return s.showGrants(x)
	case sqlcompat.ShowTableStatus:
		return s.showTableStatus(x)
	case sqlcompat.ShowProcedureStatus, sqlcompat.ShowFunctionStatus:
		// binlite has no stored programs: MySQL's columns, no rows
		return stringResult([]string{"Db", "Name", "Type", "Definer", "Modified", "Created", "Security_type", "Comment",
			"character_set_client", "collation_connection", "Database Collation"}, nil), nil
	case sqlcompat.ShowTriggers:
		return s.showTriggers(x)
	case sqlcompat.ShowCreateTrigger:
		return s.showCreateTrigger(x)
	case sqlcompat.ShowCreateView:
		if def := s.viewDef(x.DB, x.Table); def != nil {
			return s.showCreateView(x.DB, x.Table, def), nil
		}
		if _, err := s.table(x.DB, x.Table); err != nil {
			return nil, err
		}
		return nil, mysqlerr.New(mysqlerr.ErWrongObject, "'%s.%s' is not VIEW", x.DB, x.Table)
	case sqlcompat.ShowEvents:
		return stringResult([]string{"Db", "Name", "Definer", "Time zone", "Type", "Execute at", "Interval value", "Interval field",
			"Starts", "Ends", "Status", "Originator", "character_set_client", "collation_connection", "Database Collation"}, nil), nil
	}
	return stringResult([]string{"Name"}, nil), nil
}

func (s *Session) schemaFor(db string) (*engine.Schema, error) {
	if db == "" {
		return nil, mysqlerr.New(mysqlerr.ErNoDB, "No database selected")
	}
	return s.env.Engine.Schema(db)
}

// tablesLike lists a schema's tables matching a LIKE pattern, sorted.
func (s *Session) tablesLike(db, pattern string) ([]string, error) {
	sc, err := s.schemaFor(db)
	if err != nil {
		return nil, err
	}
	g := s.grants()
	tables := slices.DeleteFunc(sc.Tables(), func(t string) bool { return !like(pattern, t) || !s.canSeeTable(g, db, t) })
	slices.Sort(tables)
	return tables, nil
}

func (s *Session) showTables(x *sqlcompat.Show) (*mp.Result, error) {
	if isVirtualSchema(x.DB) {
		return s.showVirtualTables(x)
	}
	tables, err := s.tablesLike(x.DB, x.Like)
	if err != nil {
		return nil, err
	}
	rows := [][]any{}
	for _, t := range tables {
		if x.Full {
			kind := "BASE TABLE"
			if s.viewDef(x.DB, t) != nil {
				kind = "VIEW"
			}
			rows = append(rows, []any{t, kind})
		} else {
			rows = append(rows, []any{t})
		}
	}
	names := []string{"Tables_in_" + x.DB}
	if x.Full {
		names = append(names, "Table_type")
	}
	return stringResult(names, rows), nil
}

func (s *Session) table(db, name string) (*engine.Table, error) {
	sc, err := s.schemaFor(db)
	if err != nil {
		return nil, err
	}
	t := sc.Table(name)
	if t == nil {
		return nil, mysqlerr.New(mysqlerr.ErNoSuchTable, "Table '%s.%s' doesn't exist", db, name)
	}
	return t, nil
}

// index is one secondary index as SQLite stores it.
type index struct {
	name   string
	unique bool
	cols   []string
}

func (s *Session) indexes(db, table string) ([]index, error) {
	rows, err := s.env.Engine.Query(db, nil, `SELECT il.name, il."unique", ii.name FROM pragma_index_list(?) il, pragma_index_info(il.name) ii WHERE il.origin <> 'pk' ORDER BY il.seq DESC, ii.seqno`, []any{table})
	if err != nil {
		return nil, err
	}
	var out []index
	for _, r := range rows.Values {
		name := fmtValue(r[0])
		if strings.HasPrefix(name, "sqlite_autoindex_") {
			name = "uniq_" + strings.TrimPrefix(name, "sqlite_autoindex_")
		} else if i := strings.Index(name, "."); i >= 0 {
			name = name[i+1:]
		}
		if n := len(out); n > 0 && out[n-1].name == name {
			out[n-1].cols = append(out[n-1].cols, fmtValue(r[2]))
			continue
		}
		out = append(out, index{name: name, unique: fmtValue(r[1]) == "1", cols: []string{fmtValue(r[2])}})
	}
	return out, nil
}

func (s *Session) showCreateTable(x *sqlcompat.Show) (*mp.Result, error) {
	if def := s.temps.def(x.DB, x.Table); def != nil {
		text := "CREATE TEMPORARY TABLE" + strings.TrimPrefix(def.ShowCreate(0), "CREATE TABLE")
		return stringResult([]string{"Table", "Create Table"}, [][]any{{x.Table, text}}), nil
	}
	t, err := s.table(x.DB, x.Table)
	if err != nil {
		return nil, err
	}
	if t.Def.IsView() {
		return s.showCreateView(x.DB, t.Name, t.Def), nil
	}
	if t.Def != nil {
		return s.showCreateFromDef(x.DB, t.Name, t.Def), nil
	}
	idx, err := s.indexes(x.DB, x.Table)
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, c := range t.Columns {
		l := "  `" + c.Name + "` " + mysqlType(c.DeclType)
		if c.NotNull || c.PK > 0 {
			l += " NOT NULL"
		}
		if c.Name == t.AutoInc {
			l += " AUTO_INCREMENT"
		} else if c.Default != nil {
			l += " DEFAULT " + fmtValue(c.Default)
		} else if !c.NotNull && c.PK == 0 {
			l += " DEFAULT NULL"
		}
		lines = append(lines, l)
	}
	if len(t.PK) > 0 {
		var cols []string
		for _, i := range t.PK {
			cols = append(cols, "`"+t.Columns[i].Name+"`")
		}
		lines = append(lines, "  PRIMARY KEY ("+strings.Join(cols, ",")+")")
	}
	for _, ix := range idx {
		kw := "KEY"
		if ix.unique {
			kw = "UNIQUE KEY"
		}
		lines = append(lines, fmt.Sprintf("  %s `%s` (`%s`)", kw, ix.name, strings.Join(ix.cols, "`,`")))
	}
	ddl := "CREATE TABLE `" + t.Name + "` (\n" + strings.Join(lines, ",\n") + "\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4"
	return stringResult([]string{"Table", "Create Table"}, [][]any{{t.Name, ddl}}), nil
}

// mysqlType renders SQLite's declared type as MySQL shows column types.
func mysqlType(decl string) string {
	d := strings.ToLower(decl)
	switch d {
	case "", "integer":
		if d == "" {
			return "blob"
		}
		return "int"
	}
	return d
}

func (s *Session) showColumns(x *sqlcompat.Show) (*mp.Result, error) {
	if def := s.virtualDef(x.DB, x.Table); def != nil {
		return s.showColumnsFromDef(x, def), nil
	}
	t, err := s.table(x.DB, x.Table)
	if err != nil {
		return nil, err
	}
	if t.Def.IsView() {
		cols, err := s.viewColumns(x.DB, t.Def)
		if err != nil {
			return nil, err
		}
		return s.showColumnsFromDef(x, cols), nil
	}
	if t.Def != nil {
		return s.showColumnsFromDef(x, t.Def), nil
	}
	idx, err := s.indexes(x.DB, x.Table)
	if err != nil {
		return nil, err
	}
	keyOf := map[string]string{}
	for _, ix := range idx {
		if len(ix.cols) > 0 && keyOf[ix.cols[0]] == "" {
			if ix.unique {
				keyOf[ix.cols[0]] = "UNI"
			} else {
				keyOf[ix.cols[0]] = "MUL"
			}
		}
	}
	rows := [][]any{}
	for _, c := range t.Columns {
		if !like(x.Like, c.Name) {
			continue
		}
		null := "YES"
		if c.NotNull || c.PK > 0 {
			null = "NO"
		}
		key := keyOf[c.Name]
		if c.PK > 0 {
			key = "PRI"
		}
		extra := ""
		if c.Name == t.AutoInc {
			extra = "auto_increment"
		}
		var def any
		if c.Default != nil {
			def = strings.Trim(fmtValue(c.Default), "'")
		}
		if x.Full {
			rows = append(rows, []any{c.Name, mysqlType(c.DeclType), nil, null, key, def, extra, "select,insert,update,references", ""})
		} else {
			rows = append(rows, []any{c.Name, mysqlType(c.DeclType), null, key, def, extra})
		}
	}
	if x.Full {
		return stringResult([]string{"Field", "Type", "Collation", "Null", "Key", "Default", "Extra", "Privileges", "Comment"}, rows), nil
	}
	return stringResult([]string{"Field", "Type", "Null", "Key", "Default", "Extra"}, rows), nil
}

func (s *Session) showIndex(x *sqlcompat.Show) (*mp.Result, error) {
	if def := s.virtualDef(x.DB, x.Table); def != nil {
		return stringResult(showIndexColumns, nil), nil
	}
	t, err := s.table(x.DB, x.Table)
	if err != nil {
		return nil, err
	}
	if t.Def != nil {
		return s.showIndexFromDef(x.DB, t.Name, t.Def)
	}
	idx, err := s.indexes(x.DB, x.Table)
	if err != nil {
		return nil, err
	}
	rows := [][]any{}
	for i, k := range t.PK {
		rows = append(rows, []any{t.Name, int64(0), "PRIMARY", int64(i + 1), t.Columns[k].Name, "A", nil, nil, nil, "", "BTREE", "", "", "YES"})
	}
	for _, ix := range idx {
		nonUnique := int64(1)
		if ix.unique {
			nonUnique = 0
		}
		for i, c := range ix.cols {
			rows = append(rows, []any{t.Name, nonUnique, ix.name, int64(i + 1), c, "A", nil, nil, nil, "YES", "BTREE", "", "", "YES"})
		}
	}
	return stringResult([]string{"Table", "Non_unique", "Key_name", "Seq_in_index", "Column_name", "Collation", "Cardinality", "Sub_part", "Packed", "Null", "Index_type", "Comment", "Index_comment", "Visible"}, rows), nil
}

func (s *Session) showTableStatus(x *sqlcompat.Show) (*mp.Result, error) {
	if x.DB == "" {
		return nil, mysqlerr.New(mysqlerr.ErNoDB, "No database selected")
	}
	return s.showTableStatusOf(x.DB)
}

func (s *Session) showVariables(x *sqlcompat.Show) (*mp.Result, error) {
	rows := [][]any{}
	for _, v := range s.variableRows(x.Global) {
		rows = append(rows, []any{v[0], v[1]})
	}
	return stringResult([]string{"Variable_name", "Value"}, rows), nil
}

// showCollation lists the collations binlite compares by (MySQL 8.4's columns).
func showCollation() *mp.Result {
	rows := [][]any{}
	for _, c := range infoschema.Collations() {
		def, pad := "", "NO PAD"
		if c.Default {
			def = "Yes"
		}
		if c.PadSpace {
			pad = "PAD SPACE"
		}
		rows = append(rows, []any{c.Name, c.Charset, c.ID, def, "Yes", c.SortLen, pad})
	}
	res := stringResult([]string{"Collation", "Charset", "Id", "Default", "Compiled", "Sortlen", "Pad_attribute"}, rows)
	setColumn(res, 2, mp.TypeLongLong, mp.UnsignedFlag, 20)
	setColumn(res, 5, mp.TypeLong, mp.UnsignedFlag, 10)
	return res
}

// showCharset lists the character sets binlite stores.
func showCharset() *mp.Result {
	rows := [][]any{}
	for _, c := range infoschema.Charsets() {
		rows = append(rows, []any{c.Name, c.Description, c.DefaultCollation, c.MaxLen})
	}
	res := stringResult([]string{"Charset", "Description", "Default collation", "Maxlen"}, rows)
	setColumn(res, 3, mp.TypeLong, mp.UnsignedFlag, 10)
	return res
}

func (s *Session) statusRows() [][]any {
	st := &s.env.Stats
	bs := s.env.Log.Stats()
	rows := [][]any{
		{"Binlog_commits", fmt.Sprint(bs.Transactions)},
		{"Binlog_group_commits", fmt.Sprint(bs.Groups)},
		{"Com_commit", fmt.Sprint(st.Commits.Load())},
		{"Com_rollback", fmt.Sprint(st.Rollbacks.Load())},
		{"Innodb_row_lock_current_waits", fmt.Sprint(s.env.Engine.LockWaits())},
		{"Questions", fmt.Sprint(st.Questions.Load())},
		{"Threads_running", "1"},
		{"Uptime", fmt.Sprint(int64(time.Since(s.env.Started).Seconds()))},
	}
	rows = append(rows, s.connectionRows()...)
	rows = append(rows, s.semiSyncRows()...)
	rows = append(rows, tlsRows(s.tls)...)
	slices.SortFunc(rows, func(a, b []any) int { return strings.Compare(a[0].(string), b[0].(string)) })
	return rows
}

// semiSyncRows are the Rpl_semi_sync_* status variables, in MySQL 8.4's names and the
// legacy master/slave ones.
func (s *Session) semiSyncRows() [][]any {
	onOff := func(b bool) string {
		if b {
			return "ON"
		}
		return "OFF"
	}
	var rows [][]any
	if s.env.Semi != nil {
		st := s.env.Semi.Status()
		for _, side := range []string{"source", "master"} {
			p := "Rpl_semi_sync_" + side + "_"
			rows = append(rows,
				[]any{p + "status", onOff(st.On)},
				[]any{p + "clients", fmt.Sprint(st.Clients)},
				[]any{p + "yes_tx", fmt.Sprint(st.YesTx)},
				[]any{p + "no_tx", fmt.Sprint(st.NoTx)},
				[]any{p + "no_times", fmt.Sprint(st.NoTimes)},
				[]any{p + "tx_avg_wait_time", fmt.Sprint(st.AvgWaitUS)},
				[]any{p + "tx_wait_time", fmt.Sprint(st.TotalWaitUS)},
				[]any{p + "tx_waits", fmt.Sprint(st.Waits)},
				[]any{p + "wait_sessions", fmt.Sprint(st.WaitSessions)},
			)
		}
	}
	if s.env.Replicas != nil {
		on := onOff(s.env.Replicas.SemiSyncActive())
		rows = append(rows, []any{"Rpl_semi_sync_replica_status", on}, []any{"Rpl_semi_sync_slave_status", on})
	}
	return rows
}
