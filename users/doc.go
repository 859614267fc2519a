// Package users owns accounts and privileges: the `mysql` system schema's user,
// db and tables_priv tables (created unlogged on every node, changed through the
// binary log like any table, so accounts and grants replicate), host matching,
// the authenticator the protocol layer asks (auth.go: the plugin,
// authentication_string and ssl_type (REQUIRE) columns), MySQL 8.4's privileges
// (static and dynamic, privilege.go) and their grants at the global, schema and
// table levels with SHOW GRANTS' text (grants.go). The session decides what a
// statement needs. root with no password from loopback is built in and not stored.
package users
