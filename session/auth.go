package session

import (
	"crypto/tls"

	mp "github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/sqlcompat"
	"github.com/binlite/binlite/users"
)

// authSpec is what CREATE USER / ALTER USER said about authentication.
func authSpec(a sqlcompat.AuthClause) users.AuthSpec {
	return users.AuthSpec{
		Plugin: a.Plugin, Password: a.Password, SetPassword: a.HasPassword,
		AuthString: a.AuthString, SetAuthString: a.HasAuthString, Require: a.Require,
	}
}

// tlsRows are the session's Ssl_* status variables (empty over plain TCP).
func tlsRows(st *tls.ConnectionState) [][]any {
	cipher, version := "", ""
	if st != nil {
		cipher, version = mp.TLSCipherName(st.CipherSuite), mp.TLSVersionName(st.Version)
	}
	return [][]any{{"Ssl_cipher", cipher}, {"Ssl_version", version}}
}
