// Package compiler owns what binlite works out from a MySQL statement's syntax
// tree (TiDB's grammar) and the catalog of table definitions:
//
//   - the SQLite SQL of a data statement (SELECT, TABLE, INSERT/REPLACE, UPDATE,
//     DELETE; emit*.go): names resolved against the catalog, MySQL's operators,
//     functions, conversions and checks spelled for SQLite and the SQL functions
//     the engine registers (exact decimals, collations, temporal values, JSON,
//     ENUM/SET, value adjustment with warnings), literals stored as their columns
//     keep them (store*.go), ? numbered by their place in the MySQL text;
//   - the MySQL type of every result column (type code, flags, length,
//     decimals), so that clients are told what MySQL would tell them and values
//     are sent in that type (infer*.go, coltype.go);
//   - the types of a write's ? values (params.go).
//
// A construct the emitter does not compile yet fails with errNotYet, and the
// session runs the statement through sqlcompat's text translation instead, as
// before the compiler emitted SQL. An error of another kind is MySQL's answer.
// Built-in functions are the exception: each name is resolved here (funcs.go)
// to the engine's function of MySQL's rules, and a MySQL built-in binlite
// lacks fails with 1235 naming it rather than reaching a translation or a
// SQLite namesake that would answer differently.
//
// Plans are cached (plan.go): the SQL by statement text, schema, connection
// collation, sql_mode and time zone; result and parameter types by statement
// shape. A cached plan is used only while the table definitions it was made from
// are still the current ones.
package compiler
