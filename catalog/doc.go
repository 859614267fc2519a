// Package catalog owns the MySQL definition of each table: its columns with their
// types exactly as declared (length, scale, UNSIGNED, ZEROFILL, charset, collation,
// ENUM/SET values), defaults and ON UPDATE, comments, keys with prefix lengths,
// foreign keys with their actions, CHECK constraints, generated columns and table
// options. SQLite keeps only what it needs to store rows; this is what MySQL
// clients see (SHOW CREATE TABLE, column metadata) and what conversions check
// values against.
//
// A definition is built from the MySQL grammar's AST (TiDB's parser), kept as JSON
// in each schema file's binlite_catalog table, written by the same SQLite
// transaction as the DDL, and replicated with it (a replica compiles the same DDL
// text into the same definition). The package does no I/O: it builds, encodes and
// renders definitions, and spells the SQLite statements that store them.
package catalog
