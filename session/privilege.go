package session

import (
	"net"
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/binlite/binlite/infoschema"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlcompat"
	"github.com/binlite/binlite/users"
)

// MySQL's privilege checks. The global privileges are the account's when it
// connected (MySQL reads them at login); schema and table grants are read again
// for every statement, so a GRANT or REVOKE changes what an open session may do
// from its next statement, as MySQL's do. The tables a statement reads and
// writes come from its parsed tree (TiDB's grammar, the compiler's), never from
// its text.

// privileges is a session's privilege state.
type privileges struct {
	global users.Set // at connect
	// full: the global privileges cover every check (root, GRANT ALL ON *.*):
	// statements are not parsed for their tables.
	full   bool
	parser *parser.Parser
}

func newPrivileges(a *users.Account) privileges {
	g := a.Privs()
	return privileges{global: g, full: g.Contains(users.All(users.Global))}
}

// grants are the account's grants at every level, as stored now.
func (s *Session) grants() *users.Grants {
	if s.priv.full || s.env.Users == nil || s.account.User == "root" {
		return &users.Grants{Global: s.priv.global}
	}
	g, err := s.env.Users.Load(s.account.User, s.account.Host, s.priv.global)
	if err != nil {
		return &users.Grants{Global: s.priv.global}
	}
	return g
}

// hasGlobal reports whether the account holds one of ps globally.
func (s *Session) hasGlobal(ps ...users.Priv) bool {
	return slices.ContainsFunc(ps, s.priv.global.Has)
}

// requireGlobal is MySQL's 1227 unless the account holds one of ps globally;
// names is how MySQL's message lists them ("SUPER or SYSTEM_VARIABLES_ADMIN").
func (s *Session) requireGlobal(names string, ps ...users.Priv) error {
	if s.hasGlobal(ps...) {
		return nil
	}
	return mysqlerr.New(mysqlerr.ErSpecificAccessDenied, "Access denied; you need (at least one of) the %s privilege(s) for this operation", names)
}

// clientHost is the client's host as MySQL's table-level errors name it
// (host_or_ip: a loopback address resolves to localhost).
func (s *Session) clientHost() string {
	if ip := net.ParseIP(s.host); ip != nil && ip.IsLoopback() {
		return "localhost"
	}
	return s.host
}

// tableDenied is MySQL's 1142.
func (s *Session) tableDenied(p users.Priv, db, table string) error {
	return mysqlerr.New(1142, "%s command denied to user '%s'@'%s' for table '%s.%s'", p.String(), s.account.User, s.clientHost(), db, table)
}

// dbDenied is MySQL's 1044 (the account's own host pattern, priv_host).
func (s *Session) dbDenied(db string) error {
	return mysqlerr.New(1044, "Access denied for user '%s'@'%s' to database '%s'", s.account.User, s.account.Host, db)
}

// noSuchTable is what a client gets for binlite's internal tables: MySQL's
// answer for a table that does not exist.
func noSuchTable(db, table string) error {
	return mysqlerr.New(mysqlerr.ErNoSuchTable, "Table '%s.%s' doesn't exist", db, table)
}

// internalTable reports whether name is one of the tables binlite keeps in every
// schema file (binlite_*, sqlite_*): no client may name them.
func internalTable(name string) bool {
	n := strings.ToLower(name)
	return strings.HasPrefix(n, "binlite_") || strings.HasPrefix(n, "sqlite_")
}

// need is one privilege a statement needs: on a table (table set), on a schema.
type need struct {
	db, table string
	priv      users.Priv
	column    string // a column the privilege is needed for (1143), if known
}

// check is nil when g holds every need, else MySQL's error for the first it lacks.
func (s *Session) check(g *users.Grants, needs []need) error {
	for _, n := range needs {
		if infoschema.IsVirtual(n.db) {
			if strings.EqualFold(n.db, infoschema.InformationSchema) || g.OnTable(infoschema.PerformanceSchema, n.table).Has(n.priv) {
				continue
			}
			return s.tableDenied(n.priv, infoschema.PerformanceSchema, n.table)
		}
		if n.table == "" {
			if !g.OnDB(n.db).Has(n.priv) {
				return s.dbDenied(n.db)
			}
			continue
		}
		if s.temps.def(n.db, n.table) != nil {
			continue // MySQL checks nothing on a temporary table once created
		}
		if !g.OnTable(n.db, n.table).Has(n.priv) {
			if n.column != "" {
				return mysqlerr.New(1143, "%s command denied to user '%s'@'%s' for column '%s' in table '%s'", n.priv.String(), s.account.User, s.clientHost(), n.column, n.table)
			}
			return s.tableDenied(n.priv, n.db, n.table)
		}
	}
	return nil
}

// authorize is nil when the account may run st, else MySQL's error. It runs for
// every statement, prepared ones at prepare and at each execution.
func (s *Session) authorize(text string, st sqlcompat.Statement) error {
	if err := refuseInternal(st, s.db); err != nil {
		return err
	}
	if s.writes(st) {
		// MySQL refuses a write under read_only before it checks privileges.
		if err := s.writable(); err != nil {
			return err
		}
	}
	switch x := st.(type) {
	case *sqlcompat.Set:
		for _, it := range x.Items {
			if setsLogBin(it) {
				if err := s.authorizeLogBin(); err != nil {
					return err
				}
			}
			if it.Kind == sqlcompat.SetGlobal || it.Kind == sqlcompat.SetPersist || it.Kind == sqlcompat.SetTransaction && it.Global {
				if err := s.requireGlobal("SUPER or SYSTEM_VARIABLES_ADMIN", users.Super, users.SystemVariablesAdmin); err != nil {
					return err
				}
			}
		}
		return nil
	case *sqlcompat.FlushBinaryLogs:
		return s.requireGlobal("RELOAD", users.Reload)
	case *sqlcompat.FlushOther:
		return s.requireGlobal("RELOAD", users.Reload)
	case *sqlcompat.PurgeBinaryLogs:
		return s.requireGlobal("SUPER or BINLOG_ADMIN", users.Super, users.BinlogAdmin)
	case *sqlcompat.ResetBinaryLogs, *sqlcompat.ResetReplica:
		return s.requireGlobal("RELOAD", users.Reload)
	case *sqlcompat.ChangeSource, *sqlcompat.ChangeFilter, *sqlcompat.StartReplica, *sqlcompat.StopReplica:
		return s.requireGlobal("SUPER or REPLICATION_SLAVE_ADMIN", users.Super, users.ReplicationSlaveAdmin)
	case *sqlcompat.Show:
		return s.authorizeShow(x)
	case *sqlcompat.CreateUser, *sqlcompat.DropUser, *sqlcompat.AlterUser, *sqlcompat.Grant, *sqlcompat.Revoke:
		return nil // accountStmt checks them (privilege.go's grantAllowed)
	case *sqlcompat.Use:
		return s.useAllowed(x.DB)
	}
	if s.priv.full {
		return nil
	}
	g := s.grants()
	switch x := st.(type) {
	case *sqlcompat.CreateDatabase:
		return s.check(g, []need{{db: x.Name, priv: users.Create}})
	case *sqlcompat.DropDatabase:
		return s.check(g, []need{{db: x.Name, priv: users.Drop}})
	case *sqlcompat.LockTables:
		if x.All {
			return s.requireGlobal("RELOAD", users.Reload)
		}
		var needs []need
		for _, t := range x.Tables {
			db := t.Schema
			if db == "" {
				db = s.db
			}
			needs = append(needs, need{db: db, priv: users.LockTables}, need{db: db, table: t.Table, priv: users.Select})
		}
		return s.check(g, needs)
	case *sqlcompat.Query, *sqlcompat.DDL:
		needs, err := s.statementNeeds(text, st)
		if err != nil {
			return err
		}
		return s.check(g, needs)
	}
	return nil
}

// refuseInternal refuses a statement that names binlite's internal tables (1146).
func refuseInternal(st sqlcompat.Statement, db string) error {
	var names []string
	switch x := st.(type) {
	case *sqlcompat.Query:
		names = x.Tables
	case *sqlcompat.DDL:
		names = append([]string{x.Table}, x.Tables...)
		if x.Schema != "" {
			db = x.Schema
		}
	case *sqlcompat.LockTables:
		for _, t := range x.Tables {
			names = append(names, t.Table)
		}
	case *sqlcompat.Show:
		names = []string{x.Table}
		if x.DB != "" {
			db = x.DB
		}
	}
	for _, n := range names {
		if internalTable(n) {
			return noSuchTable(db, n)
		}
	}
	return nil
}

// useAllowed is COM_INIT_DB's and USE's check: some privilege in the schema.
func (s *Session) useAllowed(db string) error {
	if s.priv.full || isVirtualSchema(db) {
		return nil
	}
	if !s.grants().AnyIn(db) {
		return s.dbDenied(db)
	}
	return nil
}

// canSeeSchema reports whether SHOW DATABASES and information_schema list db.
func (s *Session) canSeeSchema(g *users.Grants, db string) bool {
	return s.priv.full || isVirtualSchema(db) || s.priv.global.Has(users.ShowDatabases) || g.AnyIn(db)
}

// canSeeTable reports whether SHOW TABLES and information_schema list db.table.
func (s *Session) canSeeTable(g *users.Grants, db, table string) bool {
	if s.priv.full || isVirtualSchema(db) {
		return true
	}
	return !g.OnTable(db, table).Minus(users.Of(users.GrantOption)).Empty()
}

// authorizeShow checks the SHOW statements that need a privilege; the others
// list only what the account may see (SHOW DATABASES, SHOW TABLES, SHOW
// PROCESSLIST filter their rows).
func (s *Session) authorizeShow(x *sqlcompat.Show) error {
	switch x.Kind {
	case sqlcompat.ShowBinaryLogStatus, sqlcompat.ShowBinaryLogs, sqlcompat.ShowReplicaStatus:
		return s.requireGlobal("SUPER, REPLICATION CLIENT", users.Super, users.ReplicationClient)
	case sqlcompat.ShowReplicas, sqlcompat.ShowBinlogEvents:
		return s.requireGlobal("REPLICATION SLAVE", users.ReplicationSlave)
	}
	if s.priv.full {
		return nil
	}
	switch x.Kind {
	case sqlcompat.ShowGrants:
		if x.User != "" && (x.User != s.account.User || hostOr(x.Host) != s.account.Host) {
			if !s.grants().OnDB(users.Schema).Has(users.Select) {
				return s.dbDenied(users.Schema)
			}
		}
	case sqlcompat.ShowTables, sqlcompat.ShowTableStatus, sqlcompat.ShowCreateDatabase, sqlcompat.ShowTriggers, sqlcompat.ShowEvents:
		if x.DB != "" && !isVirtualSchema(x.DB) && !s.grants().AnyIn(x.DB) {
			return s.dbDenied(x.DB)
		}
	case sqlcompat.ShowCreateTable, sqlcompat.ShowColumns, sqlcompat.ShowIndex:
		if x.DB != "" && x.Table != "" && !isVirtualSchema(x.DB) && s.temps.def(x.DB, x.Table) == nil && !s.canSeeTable(s.grants(), x.DB, x.Table) {
			return mysqlerr.New(1142, "SHOW command denied to user '%s'@'%s' for table '%s.%s'", s.account.User, s.clientHost(), x.DB, x.Table)
		}
	}
	return nil
}

// statementNeeds are the privileges a data statement or DDL needs, from its
// parsed tree; when TiDB's grammar does not take the text, from what sqlcompat
// or the compiler found (every table named, in the current schema).
func (s *Session) statementNeeds(text string, st sqlcompat.Statement) ([]need, error) {
	if s.priv.parser == nil {
		s.priv.parser = parser.New()
	}
	if text != "" {
		if node, err := s.priv.parser.ParseOneStmt(text, "", ""); err == nil {
			c := &collector{db: s.db}
			c.statement(node)
			if c.internal != "" {
				return nil, noSuchTable(c.internalDB, c.internal)
			}
			return c.needs, nil
		}
	}
	return s.fallbackNeeds(st), nil
}

func (s *Session) fallbackNeeds(st sqlcompat.Statement) []need {
	var out []need
	switch x := st.(type) {
	case *sqlcompat.Query:
		p := map[sqlcompat.QueryKind]users.Priv{sqlcompat.Insert: users.Insert, sqlcompat.Replace: users.Insert,
			sqlcompat.Update: users.Update, sqlcompat.Delete: users.Delete}[x.Kind]
		for _, t := range x.Tables {
			out = append(out, need{db: s.db, table: t, priv: p})
		}
		for _, db := range x.Schemas {
			out = append(out, need{db: db, priv: users.Select})
		}
	case *sqlcompat.DDL:
		p := map[sqlcompat.DDLOp]users.Priv{sqlcompat.CreateTable: users.Create, sqlcompat.DropTable: users.Drop,
			sqlcompat.AlterTable: users.Alter, sqlcompat.CreateIndex: users.Index, sqlcompat.DropIndex: users.Index,
			sqlcompat.TruncateTable: users.Drop, sqlcompat.RenameTable: users.Alter,
			sqlcompat.CreateView: users.CreateView, sqlcompat.DropView: users.Drop,
			sqlcompat.CreateTrigger: users.Trigger, sqlcompat.DropTrigger: users.Trigger}[x.Op]
		if x.Temporary {
			return []need{{db: x.Schema, priv: users.CreateTemporaryTables}}
		}
		for _, t := range append([]string{x.Table}, x.Tables...) {
			if t != "" {
				out = append(out, need{db: x.Schema, table: t, priv: p})
			}
		}
	}
	return out
}

// collector gathers a statement's needs from its tree.
type collector struct {
	db    string
	needs []need
	// internal names an internal table the statement names (1146).
	internal, internalDB string
}

func (c *collector) add(tn *ast.TableName, ps ...users.Priv) {
	db := tn.Schema.O
	if db == "" {
		db = c.db
	}
	if db == "" {
		return // 1046 No database selected follows
	}
	if internalTable(tn.Name.O) && c.internal == "" {
		c.internal, c.internalDB = tn.Name.O, db
	}
	for _, p := range ps {
		c.needs = append(c.needs, need{db: db, table: tn.Name.O, priv: p})
	}
}

func (c *collector) addColumn(tn *ast.TableName, p users.Priv, column string) {
	c.add(tn, p)
	if column != "" && len(c.needs) > 0 && c.needs[len(c.needs)-1].priv == p {
		c.needs[len(c.needs)-1].column = column
	}
}

// names lists every table name in a subtree, except those in skip, and the
// names of its common table expressions.
type names struct {
	skip   map[*ast.TableName]bool
	tables []*ast.TableName
	ctes   []string
}

func (n *names) Enter(node ast.Node) (ast.Node, bool) {
	switch x := node.(type) {
	case *ast.CommonTableExpression:
		n.ctes = append(n.ctes, x.Name.L)
	case *ast.TableName:
		if !n.skip[x] {
			n.tables = append(n.tables, x)
		}
	}
	return node, false
}

func (n *names) Leave(node ast.Node) (ast.Node, bool) { return node, true }

// reads adds SELECT on every table named in node outside skip (CTE names aside).
func (c *collector) reads(node ast.Node, skip map[*ast.TableName]bool) {
	if node == nil {
		return
	}
	n := &names{skip: skip}
	node.Accept(n)
	for _, tn := range n.tables {
		if tn.Schema.O == "" && slices.Contains(n.ctes, tn.Name.L) {
			continue
		}
		c.add(tn, users.Select)
	}
}

// joined lists the tables of a FROM clause's join tree (not those of derived
// tables or subqueries) with the names they are referred to by.
type joinedTable struct {
	tn    *ast.TableName
	alias string
}

func joined(rs ast.ResultSetNode, out *[]joinedTable) {
	switch x := rs.(type) {
	case *ast.Join:
		joined(x.Left, out)
		if x.Right != nil {
			joined(x.Right, out)
		}
	case *ast.TableSource:
		if tn, ok := x.Source.(*ast.TableName); ok {
			alias := x.AsName.L
			if alias == "" {
				alias = tn.Name.L
			}
			*out = append(*out, joinedTable{tn, alias})
		}
	}
}

func firstColumn(node ast.Node) string {
	if node == nil {
		return ""
	}
	f := &columnFinder{}
	node.Accept(f)
	return f.name
}

type columnFinder struct{ name string }

func (f *columnFinder) Enter(node ast.Node) (ast.Node, bool) {
	if c, ok := node.(*ast.ColumnName); ok && f.name == "" {
		f.name = c.Name.O
	}
	return node, f.name != ""
}

func (f *columnFinder) Leave(node ast.Node) (ast.Node, bool) { return node, true }

// statement collects what a statement needs, as MySQL's privilege checks do.
func (c *collector) statement(node ast.StmtNode) {
	switch x := node.(type) {
	case *ast.InsertStmt:
		var top []joinedTable
		if x.Table != nil {
			joined(x.Table.TableRefs, &top)
		}
		skip := map[*ast.TableName]bool{}
		for _, t := range top {
			skip[t.tn] = true
			c.add(t.tn, users.Insert)
			if x.IsReplace {
				c.add(t.tn, users.Delete)
			}
			if len(x.OnDuplicate) > 0 {
				c.add(t.tn, users.Update)
			}
		}
		c.reads(x, skip)
	case *ast.UpdateStmt:
		var top []joinedTable
		if x.TableRefs != nil {
			joined(x.TableRefs.TableRefs, &top)
		}
		skip := map[*ast.TableName]bool{}
		col := firstColumn(x.Where)
		for _, t := range top {
			skip[t.tn] = true
			target := len(top) == 1 || slices.ContainsFunc(x.List, func(a *ast.Assignment) bool {
				return a.Column != nil && (a.Column.Table.L == t.alias || a.Column.Table.L == "" && t == top[0])
			})
			if target {
				c.add(t.tn, users.Update)
				if x.Where != nil {
					c.addColumn(t.tn, users.Select, col)
				}
			} else {
				c.add(t.tn, users.Select)
			}
		}
		c.reads(x, skip)
	case *ast.DeleteStmt:
		var top []joinedTable
		if x.TableRefs != nil {
			joined(x.TableRefs.TableRefs, &top)
		}
		skip := map[*ast.TableName]bool{}
		var targets []string
		if x.IsMultiTable && x.Tables != nil {
			for _, tn := range x.Tables.Tables {
				skip[tn] = true
				targets = append(targets, tn.Name.L)
			}
		}
		col := firstColumn(x.Where)
		for _, t := range top {
			skip[t.tn] = true
			if !x.IsMultiTable || slices.Contains(targets, t.alias) {
				c.add(t.tn, users.Delete)
				if x.Where != nil {
					c.addColumn(t.tn, users.Select, col)
				}
			} else {
				c.add(t.tn, users.Select)
			}
		}
		c.reads(x, skip)
	case *ast.CreateTableStmt:
		skip := map[*ast.TableName]bool{x.Table: true}
		if x.TemporaryKeyword != ast.TemporaryNone {
			db := x.Table.Schema.O
			if db == "" {
				db = c.db
			}
			if db != "" {
				c.needs = append(c.needs, need{db: db, priv: users.CreateTemporaryTables})
			}
		} else {
			c.add(x.Table, users.Create)
		}
		if x.Select != nil {
			c.add(x.Table, users.Insert)
		}
		for _, con := range x.Constraints {
			if con.Refer != nil && con.Refer.Table != nil {
				skip[con.Refer.Table] = true
				c.add(con.Refer.Table, users.References)
			}
		}
		for _, col := range x.Cols {
			for _, o := range col.Options {
				if o.Refer != nil && o.Refer.Table != nil {
					skip[o.Refer.Table] = true
					c.add(o.Refer.Table, users.References)
				}
			}
		}
		c.reads(x, skip)
	case *ast.DropTableStmt:
		if x.TemporaryKeyword == ast.TemporaryNone {
			for _, tn := range x.Tables {
				c.add(tn, users.Drop)
			}
		}
	case *ast.AlterTableStmt:
		c.add(x.Table, users.Alter, users.Create, users.Insert)
		for _, sp := range x.Specs {
			if sp.Tp == ast.AlterTableRenameTable && sp.NewTable != nil {
				c.add(x.Table, users.Drop)
				c.add(sp.NewTable, users.Create, users.Insert)
			}
			if sp.Constraint != nil && sp.Constraint.Refer != nil && sp.Constraint.Refer.Table != nil {
				c.add(sp.Constraint.Refer.Table, users.References)
			}
		}
	case *ast.CreateIndexStmt:
		c.add(x.Table, users.Index)
	case *ast.DropIndexStmt:
		c.add(x.Table, users.Index)
	case *ast.TruncateTableStmt:
		c.add(x.Table, users.Drop)
	case *ast.RenameTableStmt:
		for _, tt := range x.TableToTables {
			c.add(tt.OldTable, users.Alter, users.Drop)
			c.add(tt.NewTable, users.Create, users.Insert)
		}
	default:
		c.reads(node, nil) // SELECT, UNION, TABLE, VALUES, DO, ...
	}
}

// seesProcess reports whether SHOW PROCESSLIST and the processlist tables list
// p: every session with PROCESS, else the account's own.
func (s *Session) seesProcess(p ProcessInfo) bool {
	return s.hasGlobal(users.Process) || p.User == s.user
}

// writes reports whether st changes data read_only protects (temporary tables
// are exempt, as in MySQL).
func (s *Session) writes(st sqlcompat.Statement) bool {
	switch x := st.(type) {
	case *sqlcompat.DDL:
		return !x.Temporary
	case *sqlcompat.Query:
		if x.ReadOnly || x.Kind == sqlcompat.Select || x.Kind == sqlcompat.Other {
			return false
		}
		return len(x.Tables) == 0 || s.temps.def(s.db, x.Tables[0]) == nil
	case *sqlcompat.CreateDatabase, *sqlcompat.DropDatabase, *sqlcompat.CreateUser, *sqlcompat.DropUser,
		*sqlcompat.AlterUser, *sqlcompat.Grant, *sqlcompat.Revoke:
		return true
	}
	return false
}
