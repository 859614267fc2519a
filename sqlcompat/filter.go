package sqlcompat

import (
	"slices"
	"strings"
)

// filterNames are CHANGE REPLICATION FILTER's rules.
var filterNames = []string{"REPLICATE_DO_DB", "REPLICATE_IGNORE_DB", "REPLICATE_DO_TABLE", "REPLICATE_IGNORE_TABLE",
	"REPLICATE_WILD_DO_TABLE", "REPLICATE_WILD_IGNORE_TABLE", "REPLICATE_REWRITE_DB"}

// changeFilter parses the rest of CHANGE REPLICATION FILTER rule = (list)[, ...]
// [FOR CHANNEL name]. Lists: names (REPLICATE_DO_DB = (db1, db2)), qualified
// names (db.t), string patterns ('db%.t_'), and for REWRITE_DB pairs
// ((from, to), ...). An empty list clears the rule.
func (p *parser) changeFilter() (Statement, error) {
	c := &ChangeFilter{Filters: map[string][]string{}}
	for {
		t := p.next()
		key := strings.ToUpper(t.text)
		if t.kind != tkIdent || !slices.Contains(filterNames, key) {
			p.i--
			return nil, p.errHere()
		}
		if err := p.expectOp("="); err != nil {
			return nil, err
		}
		if err := p.expectOp("("); err != nil {
			return nil, err
		}
		list := []string{}
		for !p.acceptOp(")") {
			if key == "REPLICATE_REWRITE_DB" {
				if err := p.expectOp("("); err != nil {
					return nil, err
				}
				from, err := p.filterItem()
				if err != nil {
					return nil, err
				}
				if err := p.expectOp(","); err != nil {
					return nil, err
				}
				to, err := p.filterItem()
				if err != nil {
					return nil, err
				}
				if err := p.expectOp(")"); err != nil {
					return nil, err
				}
				list = append(list, from, to)
			} else {
				item, err := p.filterItem()
				if err != nil {
					return nil, err
				}
				list = append(list, item)
			}
			if !p.acceptOp(",") {
				if err := p.expectOp(")"); err != nil {
					return nil, err
				}
				break
			}
		}
		c.Filters[key] = list
		if !p.acceptOp(",") {
			break
		}
	}
	var err error
	if c.Channel, c.Named, err = p.channelClause(); err != nil {
		return nil, err
	}
	return c, p.end()
}

// filterItem is a name, db.name or a string.
func (p *parser) filterItem() (string, error) {
	t := p.peek()
	if t.kind == tkString {
		p.i++
		return t.val, nil
	}
	db, name, err := p.qualifiedNoDefault()
	if err != nil {
		return "", err
	}
	if db != "" {
		return db + "." + name, nil
	}
	return name, nil
}

func (p *parser) qualifiedNoDefault() (db, name string, err error) {
	if name, err = p.name(); err != nil {
		return "", "", err
	}
	if p.peek().isOp(".") && p.peekAt(1).isName() {
		p.i++
		db = name
		name, _ = p.name()
	}
	return db, name, nil
}
