// Package compiler owns what binlite works out from a MySQL statement's syntax
// tree (TiDB's grammar) and the catalog of table definitions: today, the MySQL type
// of every result column of a query (type code, flags, length, decimals), so that
// clients are told what MySQL would tell them and values are sent in that type
// (a DECIMAL(10,2) column's 1.5 is "1.50", a BIT column's value is bytes).
//
// Plans are cached by statement text and schema, and a cached plan is used only
// while the table definitions it was made from are still the current ones.
// Generating SQLite's SQL from the same tree is the next step for this package;
// until then sqlcompat rewrites the text.
package compiler
