// Command parsecost measures the two candidate MySQL grammars for binlite's
// SQL front end (issue 12): TiDB's parser (github.com/pingcap/tidb/pkg/parser)
// and vitess's sqlparser (vitess.io/vitess/go/vt/sqlparser).
//
// It lives in its own Go module so that the main module's go.mod never
// requires vitess and `go build ./...` / `go test ./...` at the repository
// root never compile it.
//
// Two measurements:
//
//  1. Parse cost. The statements sysbench 1.0.20's OLTP scripts send
//     (oltp_read_write, oltp_write_only, oltp_point_select,
//     oltp_update_index, oltp_update_non_index, oltp_insert, oltp_delete),
//     each in the text-protocol literal form (--db-ps-mode=disable) and in
//     the '?' form a COM_STMT_PREPARE carries. For each parser, one parser
//     instance is reused, as a server would per connection, and a timed
//     loop reports ns/parse, allocs/parse and bytes/parse from
//     runtime.MemStats; the figure kept is the median of --repeats runs,
//     the two parsers' runs interleaved so that a change of machine load
//     hits both. The replica-apply hot path applies row events and parses
//     no SQL, so it is not measured.
//
//  2. Coverage. Every statement of builtin.sql (embedded; statements
//     applications, ORMs, drivers, DBAs, mysqldump and percona-toolkit send
//     to a MySQL 8.4 server) and of --corpus/*.sql when that directory
//     exists is handed to both parsers. A statement counts as parsed when
//     the parser returns a statement without error. Vitess answers some
//     statements with an opaque node (OtherAdmin, Load{} from LOAD DATA's
//     skip-to-end rule, or a DDL it only partly parsed); those are counted
//     apart as "opaque": accepted, but with no AST a compiler could use.
//
// Usage:
//
//	cd bench/parsecost && go run . --out /tmp/parsecost.json
//
// Flags: --out (JSON result file), --benchtime (per timed run, default
// 300ms), --repeats (default 5), --procs (GOMAXPROCS, default 1 so that the
// garbage collector's work is charged to the parse and the run stays light
// on a shared machine), --corpus (default ../../difftest/corpus),
// --skip-cost, --all-failures (print every failure, not only the first
// 400 per parser), --check 'SQL' (hand one statement to both parsers, print
// the outcomes and exit).
package main
