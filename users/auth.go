package users

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/mysqlproto"
)

// Authentication is kept in mysql.user's columns as MySQL keeps it: plugin,
// authentication_string (mysql_native_password: '*' + 40 hex digits of
// SHA1(SHA1(pw)); caching_sha2_password: "$A$005$" + salt + SHA256-crypt digest)
// and ssl_type ('' for REQUIRE NONE, 'ANY' for SSL, 'X509').

// Plugins an account may use.
const (
	PluginNative      = mysqlproto.PluginNativePassword
	PluginCachingSHA2 = mysqlproto.PluginCachingSHA2
)

// ssl_type values.
const (
	sslNone = ""
	sslAny  = "ANY"
	sslX509 = "X509"
)

// authColumns are the columns this file adds to a user table made before they
// existed.
var authColumns = []struct{ name, ddl string }{
	{"ssl_type", `ALTER TABLE "user" ADD COLUMN "ssl_type" TEXT NOT NULL DEFAULT ''`},
}

// migrateAuth adds the authentication columns a data directory may lack.
func migrateAuth(st *Store) error {
	rows, err := st.eng.Query(Schema, nil, `SELECT name FROM pragma_table_info('user')`, nil)
	if err != nil {
		return fmt.Errorf("users: read mysql.user columns: %w", err)
	}
	have := map[string]bool{}
	for _, r := range rows.Values {
		have[asString(r[0])] = true
	}
	var ddl []string
	for _, c := range authColumns {
		if !have[c.name] {
			ddl = append(ddl, c.ddl)
		}
	}
	if len(ddl) == 0 {
		return nil
	}
	return st.eng.CreateSystemSchema(Schema, ddl)
}

// AuthSpec is what CREATE USER and ALTER USER say about an account's
// authentication; zero fields leave it as it is (ALTER) or take the defaults.
type AuthSpec struct {
	// Plugin is IDENTIFIED WITH's plugin; "" keeps the account's (ALTER) or takes
	// authentication_policy's default (CREATE).
	Plugin string
	// Password is IDENTIFIED BY's password, when SetPassword.
	Password    string
	SetPassword bool
	// AuthString is IDENTIFIED ... AS's stored hash, when SetAuthString.
	AuthString    string
	SetAuthString bool
	// Require is the REQUIRE clause: "", "NONE", "SSL" or "X509".
	Require string
}

// DefaultPlugin is the plugin of accounts created without IDENTIFIED WITH: the
// first element of authentication_policy when it names one, else MySQL 8.4's
// caching_sha2_password.
func DefaultPlugin(policy string) string {
	first, _, _ := strings.Cut(policy, ",")
	first = strings.TrimSpace(first)
	if first == "" || first == "*" {
		return PluginCachingSHA2
	}
	return first
}

// authString computes the stored form of password under plugin.
func authString(plugin, password string) (string, error) {
	switch plugin {
	case PluginNative:
		return stage2Text(password), nil
	case PluginCachingSHA2:
		return mysqlproto.CachingSHA2AuthString(password)
	}
	return "", mysqlerr.New(mysqlerr.ErPluginIsNotLoaded, "Plugin '%s' is not loaded", plugin)
}

// checkAuthString validates IDENTIFIED WITH plugin AS 'hash' (ER_PASSWORD_FORMAT).
func checkAuthString(plugin, s string) error {
	ok := false
	switch plugin {
	case PluginNative:
		_, err := hex.DecodeString(strings.TrimPrefix(s, "*"))
		ok = s == "" || len(s) == 41 && s[0] == '*' && err == nil
	case PluginCachingSHA2:
		ok = mysqlproto.ValidCachingSHA2AuthString(s)
	default:
		return mysqlerr.New(mysqlerr.ErPluginIsNotLoaded, "Plugin '%s' is not loaded", plugin)
	}
	if !ok {
		return mysqlerr.New(1827, "The password hash doesn't have the expected format.")
	}
	return nil
}

func sslType(require string) (string, error) {
	switch strings.ToUpper(require) {
	case "NONE":
		return sslNone, nil
	case "SSL":
		return sslAny, nil
	case "X509":
		return sslX509, nil
	}
	return "", mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'REQUIRE %s'", require)
}

// resolve turns spec into the column values to store, starting from the
// account's current plugin.
func (spec AuthSpec) resolve(current string) (plugin, auth string, setAuth bool, err error) {
	plugin = current
	if spec.Plugin != "" {
		plugin = strings.ToLower(spec.Plugin)
		setAuth = true // a new plugin starts with no password unless one is given
	}
	switch {
	case spec.SetAuthString:
		if err = checkAuthString(plugin, spec.AuthString); err != nil {
			return "", "", false, err
		}
		auth, setAuth = spec.AuthString, true
	case spec.SetPassword || setAuth:
		if auth, err = authString(plugin, spec.Password); err != nil {
			return "", "", false, err
		}
		setAuth = true
	}
	return plugin, auth, setAuth, nil
}

// CreateAccount adds an account (CREATE USER) with its authentication; policy is
// authentication_policy.
func (st *Store) CreateAccount(user, host string, spec AuthSpec, policy string, ifNotExists bool) error {
	if user == "root" {
		return mysqlerr.New(1396, "Operation CREATE USER failed for 'root'@'%s'", host)
	}
	plugin, auth, _, err := spec.resolve(DefaultPlugin(policy))
	if err != nil {
		return err
	}
	if _, err := authString(plugin, ""); err != nil {
		return err
	}
	ssl := sslNone
	if spec.Require != "" {
		if ssl, err = sslType(spec.Require); err != nil {
			return err
		}
	}
	res, err := st.exec(`INSERT OR IGNORE INTO "user" ("User", "Host", "authentication_string", "plugin", "ssl_type") VALUES (?, ?, ?, ?, ?)`,
		user, host, auth, plugin, ssl)
	if err != nil {
		return err
	}
	if res.AffectedRows == 0 && !ifNotExists {
		return mysqlerr.New(1396, "Operation CREATE USER failed for '%s'@'%s'", user, host)
	}
	return nil
}

// AlterAuth changes an account's authentication (ALTER USER, SET PASSWORD):
// IDENTIFIED BY keeps the account's plugin unless WITH names another.
func (st *Store) AlterAuth(user, host string, spec AuthSpec) error {
	rows, err := st.eng.Query(Schema, nil, `SELECT "plugin" FROM "user" WHERE "User" = ? AND "Host" = ?`, []any{user, host})
	if err != nil {
		return err
	}
	if len(rows.Values) == 0 {
		return mysqlerr.New(1396, "Operation ALTER USER failed for '%s'@'%s'", user, host)
	}
	current := asString(rows.Values[0][0])
	if current == "" {
		current = PluginNative
	}
	plugin, auth, setAuth, err := spec.resolve(current)
	if err != nil {
		return err
	}
	if setAuth {
		if _, err := st.exec(`UPDATE "user" SET "authentication_string" = ?, "plugin" = ? WHERE "User" = ? AND "Host" = ?`, auth, plugin, user, host); err != nil {
			return err
		}
	}
	if spec.Require != "" {
		ssl, err := sslType(spec.Require)
		if err != nil {
			return err
		}
		if _, err := st.exec(`UPDATE "user" SET "ssl_type" = ? WHERE "User" = ? AND "Host" = ?`, ssl, user, host); err != nil {
			return err
		}
	}
	return nil
}

// credentials reads the authentication columns of the account user@host (its
// exact host pattern, as Find resolved it).
func (st *Store) credentials(user, host string) (mysqlproto.Account, error) {
	rows, err := st.eng.Query(Schema, nil, `SELECT "authentication_string", "plugin", "ssl_type" FROM "user" WHERE "User" = ? AND "Host" = ?`, []any{user, host})
	if err != nil {
		return mysqlproto.Account{}, err
	}
	if len(rows.Values) == 0 {
		// Built-in root: no password, native.
		return mysqlproto.Account{Plugin: PluginNative}, nil
	}
	r := rows.Values[0]
	a := mysqlproto.Account{Plugin: asString(r[1])}
	if a.Plugin == "" {
		a.Plugin = PluginNative
	}
	auth := asString(r[0])
	if a.Plugin == PluginNative {
		if auth != "" {
			a.Stage2, _ = hex.DecodeString(strings.TrimPrefix(auth, "*"))
		}
	} else {
		a.AuthString = auth
	}
	switch asString(r[2]) {
	case sslAny:
		a.SSL = mysqlproto.RequireSSL
	case sslX509:
		a.SSL = mysqlproto.RequireX509
	}
	return a, nil
}

// Lookup implements mysqlproto.Authenticator.
func (st *Store) Lookup(user, host string) ([]byte, bool) {
	a, ok := st.LookupAccount(user, host)
	return a.Stage2, ok
}

// PrivConnectionAdmin is MySQL's dynamic privilege for the connection kept beyond
// max_connections (SUPER grants it too).
const PrivConnectionAdmin = "CONNECTION_ADMIN"

// LookupAccount implements mysqlproto.AccountAuthenticator: the account's plugin,
// stored hash and REQUIRE clause; its user@host names it for max_user_connections
// and the fast-authentication cache; CONNECTION_ADMIN or SUPER lets it take the
// connection kept for administrators.
func (st *Store) LookupAccount(user, host string) (mysqlproto.Account, bool) {
	a, ok := st.Find(user, host)
	if !ok {
		return mysqlproto.Account{}, false
	}
	acct, err := st.credentials(a.User, a.Host)
	if err != nil {
		return mysqlproto.Account{}, false
	}
	acct.Name = a.User + "@" + a.Host
	acct.ConnectionAdmin = a.Has(PrivConnectionAdmin) || a.Has(PrivSuper)
	return acct, true
}

var _ mysqlproto.AccountAuthenticator = (*Store)(nil)
