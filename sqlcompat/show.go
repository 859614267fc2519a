package sqlcompat

import "strings"

// show parses SHOW statements.
func (p *parser) show() (Statement, error) {
	p.next()
	s := &Show{Limit: -1}
	switch {
	case p.accept("GLOBAL"):
		s.Global = true
	case p.accept("SESSION"), p.accept("LOCAL"):
	}
	if p.accept("FULL") {
		s.Full = true
	}
	var err error
	switch {
	case p.accept("DATABASES"), p.accept("SCHEMAS"):
		s.Kind = ShowDatabases
		err = p.likeOrWhere(s)
	case p.accept("TABLES"):
		s.Kind = ShowTables
		err = p.fromDB(s)
	case p.accept("OPEN", "TABLES"):
		s.Kind = ShowOpenTables
		err = p.fromDB(s)
	case p.accept("TABLE", "STATUS"):
		s.Kind = ShowTableStatus
		err = p.fromDB(s)
	case p.accept("CREATE", "TABLE"):
		s.Kind = ShowCreateTable
		s.DB, s.Table, err = p.qualified()
	case p.accept("CREATE", "TRIGGER"):
		s.Kind = ShowCreateTrigger
		s.DB, s.Table, err = p.qualified()
	case p.accept("CREATE", "VIEW"):
		s.Kind = ShowCreateView
		s.DB, s.Table, err = p.qualified()
	case p.accept("CREATE", "DATABASE"), p.accept("CREATE", "SCHEMA"):
		s.Kind = ShowCreateDatabase
		s.IfNotExists = p.accept("IF", "NOT", "EXISTS")
		s.DB, err = p.name()
	case p.accept("VARIABLES"):
		s.Kind = ShowVariables
		err = p.likeOrWhere(s)
	case p.accept("STATUS"):
		s.Kind = ShowStatus
		err = p.likeOrWhere(s)
	case p.accept("COLUMNS"), p.accept("FIELDS"):
		s.Kind = ShowColumns
		err = p.fromTable(s)
	case p.accept("INDEX"), p.accept("INDEXES"), p.accept("KEYS"):
		s.Kind = ShowIndex
		err = p.fromTable(s)
	case p.accept("WARNINGS"):
		s.Kind = ShowWarnings
		err = p.limit(s)
	case p.accept("ERRORS"):
		s.Kind = ShowErrors
		err = p.limit(s)
	case p.accept("ENGINES"), p.accept("STORAGE", "ENGINES"):
		s.Kind = ShowEngines
	case p.accept("PROCESSLIST"):
		s.Kind = ShowProcesslist
	case p.accept("COLLATION"):
		s.Kind = ShowCollation
		err = p.likeOrWhere(s)
	case p.accept("CHARACTER", "SET"), p.accept("CHARSET"):
		s.Kind = ShowCharset
		err = p.likeOrWhere(s)
	case p.accept("BINARY", "LOG", "STATUS"), p.accept("MASTER", "STATUS"):
		s.Kind = ShowBinaryLogStatus
	case p.accept("BINARY", "LOGS"), p.accept("MASTER", "LOGS"):
		s.Kind = ShowBinaryLogs
	case p.accept("BINLOG", "EVENTS"):
		s.Kind = ShowBinlogEvents
		err = p.binlogEvents(s)
	case p.accept("ALL", "SLAVES", "STATUS"), p.accept("ALL", "REPLICAS", "STATUS"):
		s.Kind, s.AllSlaves, s.Legacy = ShowReplicaStatus, true, true
	case p.peek().is("SLAVE") && p.peekAt(1).kind == tkString && p.peekAt(2).is("STATUS"):
		p.next()
		s.Channel, s.ChannelNamed = p.connectionName()
		p.next()
		s.Kind, s.Legacy = ShowReplicaStatus, true
	case p.accept("SLAVE", "STATUS"):
		s.Legacy = true
		fallthrough
	case p.accept("REPLICA", "STATUS"):
		s.Kind = ShowReplicaStatus
		s.Channel, s.ChannelNamed, err = p.channelClause()
	case p.accept("REPLICAS"), p.accept("SLAVE", "HOSTS"):
		s.Kind = ShowReplicas
	case p.accept("GRANTS"):
		s.Kind = ShowGrants
		if p.accept("FOR") {
			if p.accept("CURRENT_USER") {
				if p.acceptOp("(") {
					err = p.expectOp(")")
				}
			} else {
				var a Account
				a, err = p.account()
				s.User, s.Host = a.User, a.Host
			}
		}
	case p.accept("TRIGGERS"):
		s.Kind = ShowTriggers
		err = p.fromDB(s)
	case p.accept("PROCEDURE", "STATUS"):
		s.Kind = ShowProcedureStatus
		err = p.likeOrWhere(s)
	case p.accept("FUNCTION", "STATUS"):
		s.Kind = ShowFunctionStatus
		err = p.likeOrWhere(s)
	case p.accept("EVENTS"):
		s.Kind = ShowEvents
		err = p.fromDB(s)
	case p.accept("PLUGINS"):
		s.Kind = ShowPlugins
	case p.accept("PRIVILEGES"):
		s.Kind = ShowPrivileges
	default:
		if p.eof() {
			return nil, p.errHere()
		}
		return unsupported("SHOW " + strings.ToUpper(p.peek().text))
	}
	if err != nil {
		return nil, err
	}
	return s, p.end()
}

// likeOrWhere parses an optional LIKE 'pattern' or WHERE condition.
func (p *parser) likeOrWhere(s *Show) error {
	switch {
	case p.accept("LIKE"):
		t := p.next()
		if t.kind != tkString {
			p.i--
			return p.errHere()
		}
		s.Like = t.val
	case p.accept("WHERE"):
		if p.eof() {
			return p.errHere()
		}
		s.Where = p.rest()
		p.i = len(p.toks)
	}
	return nil
}

// fromDB parses [FROM|IN db] [LIKE|WHERE]; DB defaults to the context database.
func (p *parser) fromDB(s *Show) error {
	s.DB = p.ctx.DB
	if p.accept("FROM") || p.accept("IN") {
		db, err := p.name()
		if err != nil {
			return err
		}
		s.DB = db
	}
	return p.likeOrWhere(s)
}

// fromTable parses FROM|IN [db.]t [FROM|IN db] [LIKE|WHERE].
func (p *parser) fromTable(s *Show) error {
	if !p.accept("FROM") && !p.accept("IN") {
		return p.errHere()
	}
	var err error
	if s.DB, s.Table, err = p.qualified(); err != nil {
		return err
	}
	if p.accept("FROM") || p.accept("IN") {
		if s.DB, err = p.name(); err != nil {
			return err
		}
	}
	return p.likeOrWhere(s)
}

// limit parses an optional LIMIT [offset,] n.
func (p *parser) limit(s *Show) error {
	if !p.accept("LIMIT") {
		return nil
	}
	n, err := p.integer()
	if err != nil {
		return err
	}
	s.Limit = n
	if p.acceptOp(",") {
		s.Offset = n
		if s.Limit, err = p.integer(); err != nil {
			return err
		}
	} else if p.accept("OFFSET") {
		if s.Offset, err = p.integer(); err != nil {
			return err
		}
	}
	return nil
}

// binlogEvents parses [IN 'log'] [FROM pos] [LIMIT [offset,] n].
func (p *parser) binlogEvents(s *Show) error {
	var err error
	if p.accept("IN") {
		if s.Log, err = p.stringOrName(); err != nil {
			return err
		}
	}
	if p.accept("FROM") {
		if s.Pos, err = p.integer(); err != nil {
			return err
		}
	}
	if err = p.limit(s); err != nil {
		return err
	}
	s.Channel, err = p.channel()
	return err
}

// describe parses DESCRIBE|DESC|EXPLAIN t [column]; EXPLAIN of a statement is unsupported.
func (p *parser) describe() (Statement, error) {
	p.next()
	t := p.peek()
	if !t.isName() || t.is("SELECT") || t.is("INSERT") || t.is("UPDATE") || t.is("DELETE") ||
		t.is("REPLACE") || t.is("WITH") || t.is("FORMAT") || t.is("ANALYZE") || t.is("EXTENDED") || t.is("FOR") || t.is("TABLE") {
		if p.eof() {
			return nil, p.errHere()
		}
		return unsupported("EXPLAIN")
	}
	s := &Show{Kind: ShowColumns, Limit: -1}
	var err error
	if s.DB, s.Table, err = p.qualified(); err != nil {
		return nil, err
	}
	if !p.eof() {
		if s.Like, err = p.stringOrName(); err != nil {
			return nil, err
		}
	}
	return s, p.end()
}
