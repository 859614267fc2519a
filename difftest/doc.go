// Package difftest is binlite's differential compatibility suite: it owns the corpus
// of SQL statements under corpus/, the harness that runs each statement on binlite
// and on MariaDB 10.11 and compares the answers, the ratchet (testdata/baseline.txt)
// that keeps what binlite already answers right from regressing, and the page
// docs/compatibility.md that reports the measurement.
//
// # The expected side
//
// MySQL 8.4 is the contract. The expected answer of a statement is MariaDB 10.11's
// (Debian's mariadb-server, our own mariadbd --no-defaults process on a free port,
// stopped by PID when the test ends) unless the corpus writes MySQL 8.4's answer
// down, with a reference to MySQL's manual, where the two differ. MariaDB runs with
// MySQL 8.4's defaults set explicitly: sql_mode ONLY_FULL_GROUP_BY,
// STRICT_TRANS_TABLES, NO_ZERO_IN_DATE, NO_ZERO_DATE, ERROR_FOR_DIVISION_BY_ZERO,
// NO_ENGINE_SUBSTITUTION; character_set_server utf8mb4; explicit_defaults_for_timestamp
// ON; time_zone '+00:00'. The collation is utf8mb4_general_ci on both servers
// (server default and the handshake's connection collation): MySQL's default,
// utf8mb4_0900_ai_ci, does not exist in MariaDB 10.11, so the written answers are
// those of a MySQL 8.4 configured with collation_server=utf8mb4_general_ci, which is
// binlite's @@collation_server.
//
// Two spellings of one meaning are translated to MySQL's before comparing
// (MySQLSpelling): MariaDB's "decimals not fixed" 39 is MySQL's 31, and MariaDB puts
// an UNSIGNED flag on TIMESTAMP columns that MySQL never sends. Everything else
// MariaDB answers differently is written in the corpus.
//
// # What is compared
//
// Each statement is sent in the text protocol (github.com/go-mysql-org/go-mysql's
// client, which shows column metadata) on one session per server per corpus file,
// in a fresh database named after the file (DROP DATABASE IF EXISTS, CREATE DATABASE,
// USE). The answers compared, in this order:
//
//   - the error code, if the statement fails (messages are not compared);
//   - for a result set: the number of columns, each column's type code and
//     UNSIGNED flag, for numbers and temporal types their decimals (scale,
//     fractional seconds), for other types the BINARY flag (binary string or text);
//     then the rows as text, NULL distinct from the string 'NULL';
//   - for an OK packet: affected rows and last insert id;
//   - the warning codes, read with SHOW WARNINGS after a statement that reported
//     warnings (notes included, as MySQL counts them).
//
// Column names are shown in reports but not compared. A column's BINARY flag on a
// number or date says nothing to a client (its charset is always binary; both
// servers set it on expressions, not on table columns, and drop it through a
// temporary table), and the decimals of a string column are 0 or "not fixed" by no
// rule a client relies on, so those two are not compared.
//
// # Classes
//
// Each statement's binlite answer is one of: same (MySQL's answer), unsupported
// (error 1235 where MySQL answers otherwise), error (another error code, an error
// where MySQL succeeds, or an answer the client could not read), wrong (a different
// answer without an error: the worst defect, since an application cannot notice it).
// Wrong answers are further sorted by kind for the report, worst first: carried out
// what MySQL refuses, different rows, different affected rows or insert id,
// different warnings, different column metadata.
//
// # Corpus format
//
// corpus/<category>.sql is plain SQL: a statement ends with ';' at the end of a line
// and may span lines; lines starting with "--" (or "#") between statements are
// comments; blank lines separate nothing. A statement's id is file:line of its first
// line. Keep MariaDB-only syntax out: a statement MariaDB cannot parse (1064, 1149)
// must carry a written MySQL answer, which makes MySQL-only syntax (row aliases,
// TABLE, FOR SHARE, ->>) possible. Values that differ from run to run (NOW(), UUID(),
// RAND()) must not be compared by value: use the compare directive.
//
// A directive is a comment line placed immediately before its statement (other
// directive lines may come between; a blank or ordinary comment line may not):
//
//	-- mysql: <clause>[; <clause>]... -- <reference to MySQL 8.4's manual or source>
//	-- compare: shape -- <why>
//
// "-- mysql:" writes MySQL 8.4's answer where MariaDB's differs. Only the parts it
// names replace MariaDB's answer; the reference after the second " -- " is required.
// The clauses:
//
//	error N                 MySQL fails with error code N (nothing else may be given)
//	ok                      MySQL answers with an OK packet (no result set)
//	affected N              affected rows of the OK packet
//	insert_id N             last insert id of the OK packet
//	warnings none | N,N,... the warning codes, in SHOW WARNINGS order
//	columns T T ...         every column of the result set
//	column K T              column K (from 1) of MariaDB's result set
//	empty                   the result set has no rows
//	row V|V|...             one row (give one clause per row, in order)
//
// A column type T is a MYSQL_TYPE_ name without the prefix, with optional flags and
// decimals: LONGLONG, LONGLONG+unsigned+binary, NEWDECIMAL/2, DATETIME/6, BLOB+binary,
// JSON+binary, VAR_STRING. A value V is a bare word, NULL for SQL NULL, or a single-
// quoted string for anything else: the empty string is two quotes, the string NULL
// is NULL in quotes, a quote inside is doubled or escaped with a backslash, and the
// escapes \\ \n \t \0 and \xHH stand for bytes. The test's reports print
// every answer in exactly this syntax, so a report line can be pasted into a
// directive. If MariaDB fails where MySQL succeeds, the directive must give ok or
// columns. Examples:
//
//	-- mysql: error 3819 -- 8.4 manual 15.1.20.6 CHECK Constraints
//	-- mysql: ok; affected 2; warnings 1287 -- 8.4 manual 15.2.7.2 (VALUES() is deprecated)
//	-- mysql: column 2 LONGLONG+binary -- 8.4 manual 14.4.2 (comparisons are BIGINT)
//	-- mysql: columns LONG; row 4 -- 8.4 manual 14.17.3 (column->>path)
//
// "-- compare: shape" compares everything but the rows' values.
//
// The test fails on a defect of the expected side: a directive that does not parse,
// a written answer that does not fit MariaDB's (rows of the wrong width), a written
// answer identical to MariaDB's (drop it), MariaDB refusing the syntax of a statement
// with no written answer, or MariaDB's session failing.
//
// # Running it
//
//	go test -tags sqlite_preupdate_hook ./difftest/                        # compare, check the ratchet
//	DIFFTEST_UPDATE=1 go test -tags sqlite_preupdate_hook ./difftest/      # rewrite the baseline and docs/compatibility.md
//	DIFFTEST_REPORT=/tmp/d.txt go test -tags sqlite_preupdate_hook ./difftest/   # every statement binlite gets wrong, with both answers
//	DIFFTEST_REPORT_ALL=1 DIFFTEST_REPORT=/tmp/d.txt ...                   # every statement, with MariaDB's answer too
//	go test -tags sqlite_preupdate_hook -run 'TestCompatibility/dml' ./difftest/   # one category
//
// The ratchet: testdata/baseline.txt lists the statements binlite answered as MySQL
// does when it was written (file:line; a hash of the statement's text, with .N for
// the Nth statement of the file with that text; the text shortened). Entries find
// their statements by text, so lines may move. The test fails if one of them is answered differently now, printing
// both answers; a baseline entry whose statement is no longer in the corpus fails
// too. After fixing binlite or editing the corpus, rerun with DIFFTEST_UPDATE=1 and
// commit the new baseline with the change. Without mariadbd the test fails with a
// message saying to install mariadb-server; under -short it skips instead.
package difftest
