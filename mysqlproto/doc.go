// Package mysqlproto owns binlite's MySQL client/server wire protocol: packet framing,
// the v10 handshake with its TLS upgrade (SSLRequest), authentication with
// mysql_native_password and caching_sha2_password (fast and full, RSA key exchange,
// auth switch), the command phase
// (COM_QUERY, prepared statements, COM_FIELD_LIST, ...), and the text and binary
// result-set encodings. It knows nothing about SQL: every statement is handed to a
// per-connection Handler, and every error sent to a client goes through mysqlerr.
//
// The exported Conn is the packet-level connection; it is exposed so that replication
// (COM_BINLOG_DUMP and friends, routed through RawCommander) can stream packets.
package mysqlproto
