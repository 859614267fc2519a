// Package infoschema owns binlite's virtual schemas: information_schema and the
// performance_schema tables tools read. It holds each table's definition as MySQL
// 8.4 declares it (columns, order and types: the same catalog.Table the compiler
// resolves names and result types against) and builds the tables' rows from a
// snapshot of the node: the catalog definitions of every schema's tables, the
// sessions, the variables and status counters. It does no I/O: the session
// gathers the snapshot (Source), asks for the rows of the tables a statement
// names, and the engine materializes them into an in-memory SQLite database
// attached for that one statement, where the compiled statement runs unchanged —
// so any SELECT (WHERE, JOIN, GROUP BY, subqueries) gets SQLite's full answer over
// MySQL's columns, and no query text is pattern-matched.
package infoschema
