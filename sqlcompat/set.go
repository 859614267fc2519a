package sqlcompat

import (
	"encoding/hex"
	"strconv"
	"strings"
)

// set parses SET statements: variables, NAMES, CHARACTER SET, TRANSACTION, PASSWORD.
func (p *parser) set() (Statement, error) {
	p.next()
	if p.peek().is("PASSWORD") && (p.peekAt(1).is("FOR") || p.peekAt(1).isOp("=")) {
		return p.setPassword()
	}
	s := &Set{}
	// A scope keyword carries over to later assignments that name none (MySQL:
	// SET GLOBAL a = 1, b = 2 sets both globally).
	scope := SetSession
	for {
		items, err := p.setItems(&scope)
		if err != nil {
			return nil, err
		}
		s.Items = append(s.Items, items...)
		if !p.acceptOp(",") {
			break
		}
	}
	return s, p.end()
}

// setItems parses one comma-separated SET element (TRANSACTION may yield several items).
func (p *parser) setItems(scope *SetKind) ([]SetItem, error) {
	scoped := true
	switch {
	case p.accept("GLOBAL"):
		*scope = SetGlobal
	case p.accept("SESSION"), p.accept("LOCAL"):
		*scope = SetSession
	case p.accept("PERSIST"), p.accept("PERSIST_ONLY"):
		*scope = SetPersist
	default:
		scoped = false
	}
	kind := *scope
	if p.accept("TRANSACTION") {
		items, err := p.setTransaction(kind == SetGlobal)
		for i := range items {
			items[i].Next = !scoped
		}
		return items, err
	}
	if p.accept("NAMES") {
		it := SetItem{Kind: SetNames, Name: "names"}
		v, err := p.charsetName()
		if err != nil {
			return nil, err
		}
		it.Value = v
		if p.accept("COLLATE") {
			if it.Collation, err = p.stringOrName(); err != nil {
				return nil, err
			}
		}
		return []SetItem{it}, nil
	}
	if p.accept("CHARACTER", "SET") || p.accept("CHARSET") {
		v, err := p.charsetName()
		if err != nil {
			return nil, err
		}
		return []SetItem{{Kind: SetCharset, Name: "character_set", Value: v}}, nil
	}
	it := SetItem{Kind: kind}
	t := p.next()
	switch t.kind {
	case tkUserVar:
		it.Kind, it.Name = SetUser, t.val
	case tkSysVar:
		it.Name = t.val
		if scope, rest, ok := strings.Cut(t.val, "."); ok {
			switch scope {
			case "global":
				it.Kind, it.Name = SetGlobal, rest
			case "session", "local":
				it.Kind, it.Name = SetSession, rest
			case "persist", "persist_only":
				it.Kind, it.Name = SetPersist, rest
			}
		}
	case tkIdent, tkQuotedIdent:
		it.Name = strings.ToLower(t.val2())
	default:
		p.i--
		return nil, p.errHere()
	}
	if !p.acceptOp("=") && !p.acceptOp(":=") {
		return nil, p.errHere()
	}
	lo := p.i
	depth := 0
	for !p.eof() && !(depth == 0 && p.peek().isOp(",")) {
		switch {
		case p.peek().isOp("("):
			depth++
		case p.peek().isOp(")"):
			depth--
		}
		p.i++
	}
	if lo == p.i {
		return nil, p.errHere()
	}
	v, expr, err := p.setValue(lo, p.i)
	if err != nil {
		return nil, err
	}
	it.Value, it.Expr = v, expr
	if it.Kind == SetUser {
		it.Text = p.sql[p.toks[lo].pos:p.toks[p.i-1].end]
	}
	return []SetItem{it}, nil
}

// charsetName parses a charset name, string or DEFAULT.
func (p *parser) charsetName() (string, error) {
	t := p.peek()
	if t.kind == tkString || t.isName() {
		p.i++
		if t.kind == tkIdent {
			return strings.ToLower(t.text), nil
		}
		return t.val, nil
	}
	return "", p.errHere()
}

// setValue evaluates a SET right-hand side toks[lo:hi]: a constant or, failing
// that, its SQLite translation.
func (p *parser) setValue(lo, hi int) (any, string, error) {
	toks := p.toks
	if hi-lo == 2 && (toks[lo].isOp("-") || toks[lo].isOp("+")) && toks[lo+1].kind == tkNumber {
		v, ok := number(toks[lo+1].text)
		if ok {
			if toks[lo].isOp("-") {
				switch x := v.(type) {
				case int64:
					v = -x
				case float64:
					v = -x
				}
			}
			return v, "", nil
		}
	}
	if hi-lo == 1 {
		t := toks[lo]
		switch t.kind {
		case tkNumber:
			if v, ok := number(t.text); ok {
				return v, "", nil
			}
		case tkString, tkQuotedIdent:
			return t.val, "", nil
		case tkHexString:
			b, err := hex.DecodeString(t.val)
			if err == nil {
				return string(b), "", nil
			}
		case tkBitString:
			if n, err := strconv.ParseUint("0"+t.val, 2, 64); err == nil {
				return int64(n), "", nil
			}
		case tkIdent:
			switch up := strings.ToUpper(t.text); up {
			case "NULL":
				return nil, "", nil
			case "TRUE":
				return int64(1), "", nil
			case "FALSE":
				return int64(0), "", nil
			default:
				return up, "", nil
			}
		case tkUserVar:
			if p.ctx.UserVar != nil {
				return p.ctx.UserVar(t.val), "", nil
			}
			return nil, "", nil
		case tkSysVar:
			v, err := sysVar(p.ctx, t.val)
			return v, "", err
		}
	}
	rw, err := newRewriter(p, lo, hi)
	if err != nil {
		return nil, "", err
	}
	return nil, rw.emit(lo, hi), nil
}

// number parses a MySQL numeric literal as int64 or float64.
func number(s string) (any, bool) {
	if strings.HasPrefix(s, "0x") {
		n, err := strconv.ParseUint(s[2:], 16, 64)
		return int64(n), err == nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// setTransaction parses the characteristics after SET [GLOBAL|SESSION] TRANSACTION.
func (p *parser) setTransaction(global bool) ([]SetItem, error) {
	var items []SetItem
	for {
		it := SetItem{Kind: SetTransaction, Global: global}
		switch {
		case p.accept("ISOLATION", "LEVEL"):
			it.Name = "transaction_isolation"
			switch {
			case p.accept("READ", "UNCOMMITTED"):
				it.Value = "READ-UNCOMMITTED"
			case p.accept("READ", "COMMITTED"):
				it.Value = "READ-COMMITTED"
			case p.accept("REPEATABLE", "READ"):
				it.Value = "REPEATABLE-READ"
			case p.accept("SERIALIZABLE"):
				it.Value = "SERIALIZABLE"
			default:
				return nil, p.errHere()
			}
		case p.accept("READ", "ONLY"):
			it.Name, it.Value = "transaction_read_only", int64(1)
		case p.accept("READ", "WRITE"):
			it.Name, it.Value = "transaction_read_only", int64(0)
		default:
			return nil, p.errHere()
		}
		items = append(items, it)
		// A comma continues the characteristics only if another one follows.
		if !(p.peek().isOp(",") && (p.peekAt(1).is("ISOLATION") || p.peekAt(1).is("READ"))) {
			return items, nil
		}
		p.i++
	}
}

// setPassword parses SET PASSWORD [FOR user] = 'pw' | PASSWORD('pw').
func (p *parser) setPassword() (Statement, error) {
	p.next()
	a := &AlterUser{}
	if p.accept("FOR") {
		acc, err := p.account()
		if err != nil {
			return nil, err
		}
		a.User, a.Host = acc.User, acc.Host
	}
	if err := p.expectOp("="); err != nil {
		return nil, err
	}
	wrapped := p.accept("PASSWORD")
	if wrapped {
		if err := p.expectOp("("); err != nil {
			return nil, err
		}
	}
	t := p.next()
	if t.kind != tkString {
		p.i--
		return nil, p.errHere()
	}
	a.Password = t.val
	a.Auth = AuthClause{Password: t.val, HasPassword: true}
	if wrapped {
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
	}
	return a, p.end()
}
