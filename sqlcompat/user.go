package sqlcompat

import "strings"

// account parses user[@host]; the host defaults to '%'. The lexer reads @host
// (quoted or not) as a user-variable token glued to the user name.
func (p *parser) account() (Account, error) {
	t := p.peek()
	if t.kind != tkString && !t.isName() {
		return Account{}, p.errHere()
	}
	p.i++
	a := Account{User: t.val2(), Host: "%"}
	if h := p.peek(); h.kind == tkUserVar && h.ws == "" {
		p.i++
		a.Host = h.val
	}
	return a, nil
}

// createUser parses CREATE USER [IF NOT EXISTS] u@h [IDENTIFIED [WITH plugin] [BY 'pw']] ...
func (p *parser) createUser() (Statement, error) {
	c := &CreateUser{IfNotExists: p.accept("IF", "NOT", "EXISTS")}
	a, err := p.account()
	if err != nil {
		return nil, err
	}
	c.User, c.Host = a.User, a.Host
	if c.Auth, err = p.identified(); err != nil {
		return clauseError(err)
	}
	c.Plugin, c.Password = c.Auth.Plugin, c.Auth.Password
	if p.peek().isOp(",") {
		return unsupported("CREATE USER with several accounts")
	}
	if c.Auth.Require, err = p.require(); err != nil {
		return clauseError(err)
	}
	p.userOptions()
	return c, p.end()
}

// identified parses IDENTIFIED [WITH plugin] [BY 'pw' | BY RANDOM PASSWORD | AS 'hash'].
func (p *parser) identified() (AuthClause, error) {
	var a AuthClause
	if !p.accept("IDENTIFIED") {
		return a, nil
	}
	var err error
	if p.accept("WITH") {
		if a.Plugin, err = p.stringOrName(); err != nil {
			return a, err
		}
	}
	if p.accept("BY") {
		if p.peek().is("RANDOM") {
			return a, unsupportedErr("IDENTIFIED BY RANDOM PASSWORD")
		}
		p.accept("PASSWORD")
		t := p.next()
		if t.kind != tkString {
			p.i--
			return a, p.errHere()
		}
		a.Password, a.HasPassword = t.val, true
	} else if p.accept("AS") {
		if a.AuthString, err = p.stringOrName(); err != nil {
			return a, err
		}
		a.HasAuthString = true
	}
	return a, nil
}

// require parses REQUIRE NONE | SSL | X509; the ISSUER, SUBJECT and CIPHER forms
// are refused (1235).
func (p *parser) require() (string, error) {
	if !p.accept("REQUIRE") {
		return "", nil
	}
	t := p.next()
	for _, r := range []string{"NONE", "SSL", "X509"} {
		if t.is(r) {
			return r, nil
		}
	}
	return "", unsupportedErr("REQUIRE " + strings.ToUpper(t.text))
}

// userOptions skips account options binlite does not model (WITH resource
// limits, PASSWORD EXPIRE, ACCOUNT LOCK, COMMENT, ATTRIBUTE ...).
func (p *parser) userOptions() {
	if p.peek().is("WITH") || p.peek().is("PASSWORD") || p.peek().is("ACCOUNT") ||
		p.peek().is("COMMENT") || p.peek().is("ATTRIBUTE") || p.peek().is("DEFAULT") || p.peek().is("FAILED_LOGIN_ATTEMPTS") {
		p.i = len(p.toks)
	}
}

// dropUser parses DROP USER [IF EXISTS] u@h, ...
func (p *parser) dropUser() (Statement, error) {
	d := &DropUser{IfExists: p.accept("IF", "EXISTS")}
	for {
		a, err := p.account()
		if err != nil {
			return nil, err
		}
		d.Accounts = append(d.Accounts, a)
		if !p.acceptOp(",") {
			break
		}
	}
	return d, p.end()
}

// alterUser parses ALTER USER [IF EXISTS] u@h IDENTIFIED [WITH plugin] BY 'pw'.
func (p *parser) alterUser() (Statement, error) {
	a := &AlterUser{IfExists: p.accept("IF", "EXISTS")}
	if p.accept("USER") {
		if err := p.expectOp("("); err != nil {
			return nil, err
		}
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
	} else {
		acc, err := p.account()
		if err != nil {
			return nil, err
		}
		a.User, a.Host = acc.User, acc.Host
	}
	var err error
	if a.Auth, err = p.identified(); err != nil {
		return clauseError(err)
	}
	a.Plugin, a.Password = a.Auth.Plugin, a.Auth.Password
	if a.Auth.Require, err = p.require(); err != nil {
		return clauseError(err)
	}
	p.userOptions()
	return a, p.end()
}

// privileges parses priv [(cols)], ... up to ON; names are upper-case and
// normalized (ALL PRIVILEGES → ALL, REPLICATION REPLICA → REPLICATION SLAVE).
func (p *parser) privileges() ([]string, error) {
	var privs []string
	for {
		var words []string
		for !p.eof() && !p.peek().is("ON") && !p.peek().isOp(",") && !p.peek().isOp("(") && !p.peek().is("TO") && !p.peek().is("FROM") {
			t := p.next()
			if t.kind != tkIdent {
				p.i--
				return nil, p.errHere()
			}
			words = append(words, strings.ToUpper(t.text))
		}
		if len(words) == 0 {
			return nil, p.errHere()
		}
		if p.peek().isOp("(") {
			return nil, (&Unsupported{What: "column privileges"}).Err()
		}
		priv := strings.Join(words, " ")
		switch priv {
		case "ALL PRIVILEGES":
			priv = "ALL"
		case "REPLICATION REPLICA":
			priv = "REPLICATION SLAVE"
		}
		privs = append(privs, priv)
		if !p.acceptOp(",") {
			return privs, nil
		}
	}
}

// grantTarget parses ON [TABLE] *.*|db.*|db.t|t as plain text.
func (p *parser) grantTarget() (string, error) {
	if err := p.expect("ON"); err != nil {
		return "", err
	}
	p.accept("TABLE")
	var b strings.Builder
	for !p.eof() && !p.peek().is("TO") && !p.peek().is("FROM") {
		t := p.next()
		switch {
		case t.isOp("*"), t.isOp("."):
			b.WriteString(t.text)
		case t.isName():
			b.WriteString(t.val2())
		default:
			p.i--
			return "", p.errHere()
		}
	}
	if b.Len() == 0 {
		return "", p.errHere()
	}
	return b.String(), nil
}

// grant parses GRANT privs ON what TO u@h [WITH GRANT OPTION].
func (p *parser) grant() (Statement, error) {
	p.next()
	if p.peek().is("PROXY") {
		return unsupported("GRANT PROXY")
	}
	privs, err := p.privileges()
	if err != nil {
		return nil, err
	}
	if p.peek().is("TO") {
		return unsupported("GRANT role")
	}
	g := &Grant{Privs: privs}
	if g.On, err = p.grantTarget(); err != nil {
		return nil, err
	}
	if err := p.expect("TO"); err != nil {
		return nil, err
	}
	a, err := p.account()
	if err != nil {
		return nil, err
	}
	g.User, g.Host = a.User, a.Host
	if p.peek().isOp(",") {
		return unsupported("GRANT to several accounts")
	}
	if p.peek().is("IDENTIFIED") {
		return unsupported("GRANT ... IDENTIFIED BY")
	}
	g.GrantOption = p.accept("WITH", "GRANT", "OPTION")
	return g, p.end()
}

// revoke parses REVOKE privs ON what FROM u@h.
func (p *parser) revoke() (Statement, error) {
	p.next()
	p.accept("IF", "EXISTS")
	privs, err := p.privileges()
	if err != nil {
		return nil, err
	}
	r := &Revoke{Privs: privs}
	if p.peek().is("FROM") && len(privs) == 2 && privs[0] == "ALL" && privs[1] == "GRANT OPTION" {
		// REVOKE ALL [PRIVILEGES], GRANT OPTION FROM u: every level
		r.All = true
	} else if r.On, err = p.grantTarget(); err != nil {
		return nil, err
	}
	if err := p.expect("FROM"); err != nil {
		return nil, err
	}
	a, err := p.account()
	if err != nil {
		return nil, err
	}
	r.User, r.Host = a.User, a.Host
	if p.peek().isOp(",") {
		return unsupported("REVOKE from several accounts")
	}
	p.accept("IGNORE", "UNKNOWN", "USER")
	return r, p.end()
}

// AuthClause is what CREATE USER and ALTER USER say about authentication.
type AuthClause struct {
	Plugin        string // IDENTIFIED WITH plugin ("" when not named)
	Password      string // IDENTIFIED BY 'pw'
	HasPassword   bool
	AuthString    string // IDENTIFIED [WITH plugin] AS 'hash'
	HasAuthString bool
	Require       string // REQUIRE NONE | SSL | X509 ("" when absent)
}

// unsupportedClause is a clause binlite parses but does not implement; the
// statement becomes Unsupported (1235 naming it).
type unsupportedClause string

func (u unsupportedClause) Error() string { return string(u) }

func unsupportedErr(what string) error { return unsupportedClause(what) }

func clauseError(err error) (Statement, error) {
	if u, ok := err.(unsupportedClause); ok {
		return unsupported(string(u))
	}
	return nil, err
}
