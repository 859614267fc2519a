package sqlcompat

// LockTables is LOCK TABLES t [AS a] READ [LOCAL] | [LOW_PRIORITY] WRITE, ...
// (All is FLUSH TABLES WITH READ LOCK: every table, read).
type LockTables struct {
	Tables []LockedTable
	All    bool
}

// LockedTable is one table LOCK TABLES names.
type LockedTable struct {
	Schema, Table string
	Write         bool
}

// UnlockTables is UNLOCK TABLES.
type UnlockTables struct{}

func (*LockTables) statement()   {}
func (*UnlockTables) statement() {}

// lockTables parses LOCK TABLE[S] ... and UNLOCK TABLE[S].
func (p *parser) lockTables() (Statement, error) {
	if p.next().is("UNLOCK") {
		if !p.accept("TABLES") && !p.accept("TABLE") {
			return nil, p.errHere()
		}
		return &UnlockTables{}, p.end()
	}
	if !p.accept("TABLES") && !p.accept("TABLE") {
		return unsupported("LOCK INSTANCE")
	}
	lt := &LockTables{}
	for {
		schema, table, err := p.qualified()
		if err != nil {
			return nil, err
		}
		if p.accept("AS") || p.peek().isName() && !p.peek().is("READ") && !p.peek().is("WRITE") && !p.peek().is("LOW_PRIORITY") {
			if _, err := p.name(); err != nil {
				return nil, err
			}
		}
		item := LockedTable{Schema: schema, Table: table}
		switch {
		case p.accept("READ"):
			p.accept("LOCAL")
		case p.accept("LOW_PRIORITY", "WRITE"), p.accept("WRITE"):
			item.Write = true
		default:
			return nil, p.errHere()
		}
		lt.Tables = append(lt.Tables, item)
		if !p.acceptOp(",") {
			break
		}
	}
	return lt, p.end()
}
