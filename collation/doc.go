// Package collation compares text the way MySQL's collations do, so that SQLite
// (which knows only byte order) compares, indexes, sorts and groups text columns
// as MySQL would. Each collation is registered on every SQLite connection under
// its MySQL name (utf8mb4_general_ci, latin1_swedish_ci ...), and the SQLite DDL
// of a text column names its collation (COLLATE utf8mb4_general_ci): the name is
// stored in schema files, so it never changes, and neither may the order a name
// stands for: SQLite's indexes are sorted by it (a corrected order needs REINDEX
// of the indexes built with the old one).
//
// SQLite keeps all text as UTF-8 whatever the column's MySQL character set, so
// every comparison reads UTF-8 and maps characters to the character set's weights.
//
//   - _general_ci (utf8mb4, utf8mb3, ascii), _unicode_ci (utf8mb4, utf8mb3) and the
//     latin1 collations weigh one character at a time from MySQL's tables, measured
//     with WEIGHT_STRING (general_table.go, latin1_table.go, unicode400.txt; the
//     measurement test checks them again). utf8mb4_general_ci folds case and some
//     accents (a = A = á, ß = s); utf8mb4_unicode_ci is UCA 4.0.0's primary level
//     (ß = ss, Æ a letter of its own); both weigh every supplementary character the
//     same (😀 = 😁).
//   - _bin (utf8mb4, utf8mb3, latin1, ascii) order by code point (latin1: by byte).
//   - _unicode_520_ci and the _0900_ collations follow the Unicode Collation
//     Algorithm through golang.org/x/text/collate (CLDR root, Unicode 6.2 weights:
//     MySQL's UCA 5.2.0 and 9.0.0 tables differ from it only for characters few
//     texts hold), with cached keys for Latin text.
//
// Every collation but the _0900_ ones is PAD SPACE: a shorter string compares as if
// padded with spaces ('a' = 'a '), as MySQL's do. utf8mb4_0900_bin is SQLite's own
// BINARY (the same order), so the SQLite DDL names BINARY for it.
package collation
