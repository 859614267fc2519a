// Package users owns accounts and privileges: the `mysql` system schema's user table
// (created unlogged on every node, changed through the binary log like any table, so
// accounts replicate), host matching, and the authenticator the protocol layer asks.
// root with no password from loopback is built in and not stored. auth.go owns
// authentication: the plugin, authentication_string and ssl_type (REQUIRE) columns.
package users
