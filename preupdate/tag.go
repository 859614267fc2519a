//go:build !sqlite_preupdate_hook

package preupdate

// Without the tag, mattn/go-sqlite3 compiles SQLite without the preupdate hook and
// the link fails with undefined sqlite3_preupdate_* symbols, which tells a newcomer
// nothing. This stops the build earlier with a name that says what to do.
var _ = binlite_needs_go_build_tag__sqlite_preupdate_hook__use_make_or_go_test_tags_sqlite_preupdate_hook
