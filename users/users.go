package users

import (
	"encoding/hex"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/binlite/binlite/engine"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/mysqlproto"
)

// Schema is the system schema that holds accounts.
const Schema = "mysql"

// schemaDDL creates the user table; privileges are a comma-separated upper-case list.
var schemaDDL = []string{
	`CREATE TABLE IF NOT EXISTS "user" ("User" TEXT NOT NULL, "Host" TEXT NOT NULL, "authentication_string" TEXT NOT NULL DEFAULT '', "plugin" TEXT NOT NULL DEFAULT 'mysql_native_password', "privileges" TEXT NOT NULL DEFAULT '', PRIMARY KEY ("User", "Host"))`,
}

// Privileges binlite knows.
const (
	PrivAll              = "ALL"
	PrivSelect           = "SELECT"
	PrivReplicationSlave = "REPLICATION SLAVE"
	PrivSuper            = "SUPER"
)

// Store reads and changes accounts.
type Store struct {
	eng *engine.Engine
	// unlogged: changes are this node's only (sql_log_bin=0), see Unlogged.
	unlogged bool
}

// Unlogged returns a store whose changes are not written to the binary log and so
// not replicated: a session's account statements under sql_log_bin=0.
func (st *Store) Unlogged() *Store {
	c := *st
	c.unlogged = true
	return &c
}

// Open makes sure the system schema exists and returns the store.
func Open(eng *engine.Engine) (*Store, error) {
	if err := eng.CreateSystemSchema(Schema, append(slices.Clone(schemaDDL), grantsDDL...)); err != nil {
		return nil, err
	}
	st := &Store{eng: eng}
	if err := migrateAuth(st); err != nil {
		return nil, err
	}
	return st, nil
}

// Account is a stored user.
type Account struct {
	User, Host string
	Stage2     []byte // SHA1(SHA1(password)) of a mysql_native_password account
	// HasPassword: the account has a password, whatever its plugin.
	HasPassword bool
	Privileges  []string
}

// Has reports whether the account holds priv (ALL implies everything).
func (a *Account) Has(priv string) bool {
	return slices.Contains(a.Privileges, PrivAll) || slices.Contains(a.Privileges, priv)
}

// Root is the built-in superuser.
var root = Account{User: "root", Host: "localhost", Privileges: []string{PrivAll}}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// hostMatches applies MySQL's host patterns: % and _ wildcards, localhost = loopback.
func hostMatches(pattern, host string) bool {
	if pattern == "%" {
		return true
	}
	if pattern == "localhost" || pattern == "127.0.0.1" || pattern == "::1" {
		return isLoopback(host)
	}
	return likeMatch(strings.ToLower(pattern), strings.ToLower(host))
}

func likeMatch(p, s string) bool {
	if p == "" {
		return s == ""
	}
	switch p[0] {
	case '%':
		for i := 0; i <= len(s); i++ {
			if likeMatch(p[1:], s[i:]) {
				return true
			}
		}
		return false
	case '_':
		return s != "" && likeMatch(p[1:], s[1:])
	}
	return s != "" && s[0] == p[0] && likeMatch(p[1:], s[1:])
}

// Find returns the account user@host resolves to (the most specific host first).
func (st *Store) Find(user, host string) (*Account, bool) {
	if user == "root" {
		if isLoopback(host) {
			r := root
			return &r, true
		}
		return nil, false
	}
	rows, err := st.eng.Query(Schema, nil, `SELECT "Host", "authentication_string", "privileges" FROM "user" WHERE "User" = ? ORDER BY length("Host") DESC`, []any{user})
	if err != nil {
		return nil, false
	}
	for _, r := range rows.Values {
		h := asString(r[0])
		if !hostMatches(h, host) {
			continue
		}
		a := &Account{User: user, Host: h}
		if s := asString(r[1]); s != "" {
			a.HasPassword = true
			if strings.HasPrefix(s, "*") {
				a.Stage2, _ = hex.DecodeString(strings.TrimPrefix(s, "*"))
			}
		}
		for _, p := range strings.Split(asString(r[2]), ",") {
			if p = strings.TrimSpace(p); p != "" {
				a.Privileges = append(a.Privileges, p)
			}
		}
		return a, true
	}
	return nil, false
}

func asString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	}
	return ""
}

// stage2Text is how MySQL shows mysql_native_password hashes: '*' and 40 hex digits.
func stage2Text(password string) string {
	if password == "" {
		return ""
	}
	return "*" + strings.ToUpper(hex.EncodeToString(mysqlproto.PasswordStage2(password)))
}

func (st *Store) exec(sql string, args ...any) (engine.Result, error) {
	return st.eng.Exec(Schema, engine.Stmt{SQL: sql, Args: args, Unlogged: st.unlogged}, 50*time.Second)
}

// Create adds an account (CREATE USER) with MySQL 8.4's default plugin.
func (st *Store) Create(user, host, password string, ifNotExists bool) error {
	return st.CreateAccount(user, host, AuthSpec{Password: password, SetPassword: true}, "", ifNotExists)
}

// Drop removes an account (DROP USER).
func (st *Store) Drop(user, host string, ifExists bool) error {
	res, err := st.exec(`DELETE FROM "user" WHERE "User" = ? AND "Host" = ?`, user, host)
	if err != nil {
		return err
	}
	if res.AffectedRows == 0 && !ifExists {
		return mysqlerr.New(1396, "Operation DROP USER failed for '%s'@'%s'", user, host)
	}
	return nil
}

// SetPassword changes a password (ALTER USER ... IDENTIFIED BY, SET PASSWORD),
// keeping the account's plugin.
func (st *Store) SetPassword(user, host, password string) error {
	return st.AlterAuth(user, host, AuthSpec{Password: password, SetPassword: true})
}

func (st *Store) exact(user, host string) (*Account, bool) {
	rows, err := st.eng.Query(Schema, nil, `SELECT "privileges" FROM "user" WHERE "User" = ? AND "Host" = ?`, []any{user, host})
	if err != nil || len(rows.Values) == 0 {
		return nil, false
	}
	a := &Account{User: user, Host: host}
	for _, p := range strings.Split(asString(rows.Values[0][0]), ",") {
		if p != "" {
			a.Privileges = append(a.Privileges, p)
		}
	}
	return a, true
}
