package sqlcompat

import (
	"strings"
)

// flush parses FLUSH [NO_WRITE_TO_BINLOG|LOCAL] what.
func (p *parser) flush() (Statement, error) {
	p.next()
	if !p.accept("NO_WRITE_TO_BINLOG") {
		p.accept("LOCAL")
	}
	if p.eof() {
		return nil, p.errHere()
	}
	if p.accept("BINARY", "LOGS") || p.accept("LOGS") {
		return &FlushBinaryLogs{}, p.end()
	}
	if p.accept("TABLES", "WITH", "READ", "LOCK") {
		return &LockTables{All: true}, p.end()
	}
	if p.peek().is("TABLES") || p.peek().is("TABLE") {
		for j := p.i; j+1 < len(p.toks); j++ {
			if p.toks[j].is("READ") && p.toks[j+1].is("LOCK") || p.toks[j].is("EXPORT") {
				return unsupported("FLUSH TABLES ... " + strings.ToUpper(p.toks[j].text))
			}
		}
	}
	return &FlushOther{What: strings.ToUpper(p.rest())}, nil
}

// purge parses PURGE BINARY|MASTER LOGS TO 'file' | BEFORE datetime.
func (p *parser) purge() (Statement, error) {
	p.next()
	if !p.accept("BINARY") && !p.accept("MASTER") {
		return nil, p.errHere()
	}
	if err := p.expect("LOGS"); err != nil {
		return nil, err
	}
	s := &PurgeBinaryLogs{}
	switch {
	case p.accept("TO"):
		t := p.next()
		if t.kind != tkString {
			p.i--
			return nil, p.errHere()
		}
		s.To = t.val
	case p.accept("BEFORE"):
		if p.eof() {
			return nil, p.errHere()
		}
		if t := p.peek(); t.kind == tkString && p.i == len(p.toks)-1 {
			s.Before = t.val
		} else {
			s.Before = p.rest()
		}
		p.i = len(p.toks)
	default:
		return nil, p.errHere()
	}
	return s, p.end()
}

// reset parses RESET MASTER, RESET BINARY LOGS AND GTIDS and RESET REPLICA|SLAVE [ALL].
func (p *parser) reset() (Statement, error) {
	p.next()
	switch {
	case p.accept("MASTER"), p.accept("BINARY", "LOGS", "AND", "GTIDS"):
		if p.accept("TO") {
			if _, err := p.integer(); err != nil {
				return nil, err
			}
			return unsupported("RESET BINARY LOGS AND GTIDS TO")
		}
		return &ResetBinaryLogs{}, p.end()
	case p.accept("REPLICA"), p.accept("SLAVE"):
		r := &ResetReplica{}
		r.Channel, r.Named = p.connectionName()
		r.All = p.accept("ALL")
		if !r.Named {
			var err error
			if r.Channel, r.Named, err = p.channelClause(); err != nil {
				return nil, err
			}
		}
		return r, p.end()
	case p.accept("QUERY", "CACHE"):
		return &FlushOther{What: "QUERY CACHE"}, p.end()
	}
	if p.eof() {
		return nil, p.errHere()
	}
	return unsupported("RESET " + strings.ToUpper(p.peek().text))
}

// startStopReplica parses START|STOP REPLICA|SLAVE [IO_THREAD][, SQL_THREAD] [FOR CHANNEL 'x'].
func (p *parser) startStopReplica() (Statement, error) {
	start := p.next().is("START")
	allSlaves := p.accept("ALL", "SLAVES") || p.accept("ALL", "REPLICAS") // MariaDB
	if !allSlaves && !p.accept("REPLICA") && !p.accept("SLAVE") {
		if p.eof() {
			return nil, p.errHere()
		}
		return unsupported(strings.ToUpper(p.toks[0].text + " " + p.peek().text))
	}
	var name string
	var named bool
	if !allSlaves {
		name, named = p.connectionName()
	}
	var io, sqlT bool
	for {
		switch {
		case p.accept("IO_THREAD"):
			io = true
		case p.accept("SQL_THREAD"):
			sqlT = true
		}
		if !p.acceptOp(",") {
			break
		}
	}
	if !io && !sqlT {
		io, sqlT = true, true
	}
	if start && (p.peek().is("UNTIL") || p.peek().is("USER") || p.peek().is("PASSWORD")) {
		return unsupported("START REPLICA " + strings.ToUpper(p.peek().text))
	}
	if !named && !allSlaves {
		var err error
		if name, named, err = p.channelClause(); err != nil {
			return nil, err
		}
	}
	if err := p.end(); err != nil {
		return nil, err
	}
	if start {
		return &StartReplica{IOThread: io, SQLThread: sqlT, Channel: name, Named: named}, nil
	}
	return &StopReplica{IOThread: io, SQLThread: sqlT, Channel: name, Named: named}, nil
}

// changeSource parses CHANGE REPLICATION SOURCE TO ... / CHANGE MASTER TO ...
func (p *parser) changeSource() (Statement, error) {
	p.next()
	c := &ChangeSource{Options: map[string]any{}}
	switch {
	case p.accept("REPLICATION", "SOURCE"):
	case p.accept("MASTER"):
		c.Channel, c.Named = p.connectionName()
	case p.accept("REPLICATION", "FILTER"):
		return p.changeFilter()
	default:
		return nil, p.errHere()
	}
	if err := p.expect("TO"); err != nil {
		return nil, err
	}
	for {
		t := p.next()
		if t.kind != tkIdent {
			p.i--
			return nil, p.errHere()
		}
		key := strings.ToUpper(t.text)
		if rest, ok := strings.CutPrefix(key, "MASTER_"); ok {
			key = "SOURCE_" + rest
		}
		key = strings.ReplaceAll(key, "_MASTER_", "_SOURCE_")
		if err := p.expectOp("="); err != nil {
			return nil, err
		}
		v, err := p.optionValue()
		if err != nil {
			return nil, err
		}
		c.Options[key] = v
		if !p.acceptOp(",") {
			break
		}
	}
	if !c.Named {
		var err error
		if c.Channel, c.Named, err = p.channelClause(); err != nil {
			return nil, err
		}
	}
	return c, p.end()
}

// connectionName parses MariaDB's connection name after MASTER or SLAVE
// (CHANGE MASTER 'name' TO, START SLAVE 'name'): a channel by another name.
func (p *parser) connectionName() (string, bool) {
	if t := p.peek(); t.kind == tkString {
		p.i++
		return t.val, true
	}
	return "", false
}

// channelClause parses [FOR CHANNEL name]; named tells FOR CHANNEL ” (the
// default channel) from no clause (every channel, for the statements that act on
// all of them).
func (p *parser) channelClause() (name string, named bool, err error) {
	if !p.peek().is("FOR") {
		return "", false, nil
	}
	name, err = p.channel()
	return name, err == nil, err
}

// optionValue parses a CHANGE SOURCE option value: a literal, a bare word
// (upper-cased) or a parenthesized id list.
func (p *parser) optionValue() (any, error) {
	t := p.next()
	switch t.kind {
	case tkString:
		return t.val, nil
	case tkNumber:
		if v, ok := number(t.text); ok {
			return v, nil
		}
	case tkIdent:
		if t.is("NULL") {
			return nil, nil
		}
		return strings.ToUpper(t.text), nil
	case tkOp:
		if t.text == "(" {
			ids := []int64{}
			for !p.acceptOp(")") {
				n, err := p.integer()
				if err != nil {
					return nil, err
				}
				ids = append(ids, n)
				if !p.acceptOp(",") {
					if err := p.expectOp(")"); err != nil {
						return nil, err
					}
					break
				}
			}
			return ids, nil
		}
	}
	p.i--
	return nil, p.errHere()
}
