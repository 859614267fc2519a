// Package mysqlerr owns the MySQL error codes, SQLSTATEs and messages that binlite
// returns to clients. Every layer (protocol, session, engine, replication) returns a
// *Error when the client should see a specific MySQL error; anything else is reported
// as ER_UNKNOWN_ERROR by the protocol layer.
package mysqlerr
