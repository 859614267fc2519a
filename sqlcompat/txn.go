package sqlcompat

import "strings"

// transaction parses BEGIN, START TRANSACTION, COMMIT, ROLLBACK, SAVEPOINT and RELEASE.
func (p *parser) transaction() (Statement, error) {
	kw := strings.ToUpper(p.next().text)
	switch kw {
	case "BEGIN":
		p.accept("WORK")
		return &Begin{}, p.end()
	case "START":
		p.next() // TRANSACTION
		b := &Begin{}
		for !p.eof() {
			switch {
			case p.accept("READ", "ONLY"):
				b.ReadOnly = true
			case p.accept("READ", "WRITE"):
			case p.accept("WITH", "CONSISTENT", "SNAPSHOT"):
				b.ConsistentSnapshot = true
			default:
				return nil, p.errHere()
			}
			if !p.acceptOp(",") {
				break
			}
		}
		return b, p.end()
	case "COMMIT":
		p.accept("WORK")
		p.accept("AND", "NO", "CHAIN")
		p.accept("NO", "RELEASE")
		return &Commit{}, p.end()
	case "ROLLBACK":
		p.accept("WORK")
		if p.accept("TO") {
			p.accept("SAVEPOINT")
			name, err := p.name()
			if err != nil {
				return nil, err
			}
			return &RollbackTo{Name: name}, p.end()
		}
		p.accept("AND", "NO", "CHAIN")
		p.accept("NO", "RELEASE")
		return &Rollback{}, p.end()
	case "SAVEPOINT":
		name, err := p.name()
		if err != nil {
			return nil, err
		}
		return &Savepoint{Name: name}, p.end()
	case "RELEASE":
		if err := p.expect("SAVEPOINT"); err != nil {
			return nil, err
		}
		name, err := p.name()
		if err != nil {
			return nil, err
		}
		return &Release{Name: name}, p.end()
	}
	return unsupported("XA")
}
