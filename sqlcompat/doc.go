// Package sqlcompat owns binlite's MySQL-to-SQLite compatibility layer: it lexes
// MySQL SQL (including executable comments, MySQL string escapes and @/@@
// variables), splits multi-statement text, classifies each statement into a
// typed Statement (transactions, SET, SHOW, binlog and replication admin,
// users, DDL, queries) and translates whatever must run on SQLite into SQLite
// SQL. It performs no I/O: values it cannot know (system and user variables,
// AUTO_INCREMENT columns, connection functions) come from a Context supplied by
// the caller, and errors are *mysqlerr.Error values ready to send to clients.
//
// It is also where the statements TiDB's grammar lacks (CHANGE REPLICATION
// SOURCE, replication filters, ...) are parsed. Data statements the compiler
// compiles (package compiler) do not use its translation; it remains the
// fallback for the constructs the compiler does not compile yet, and DDL goes
// through it with the catalog built from the grammar's AST.
package sqlcompat
