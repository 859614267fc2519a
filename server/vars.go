package server

import (
	"os"
	"strings"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/engine"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sysvar"
	"github.com/binlite/binlite/temporal"
)

// Version is what clients see as @@version.
const Version = "8.4.0-binlite"

// VersionComment is @@version_comment, which the mariadb CLI prints on connect.
const VersionComment = "binlite: MySQL-compatible server on SQLite"

func (n *Node) variableDefs() []sysvar.Def {
	host, _ := os.Hostname()
	ro := func(name string, v any) sysvar.Def {
		return sysvar.Def{Name: name, Scope: sysvar.Global, Kind: kindOf(v), Default: v, ReadOnly: true}
	}
	both := func(name string, v any) sysvar.Def {
		return sysvar.Def{Name: name, Scope: sysvar.Both, Kind: kindOf(v), Default: v}
	}
	roBool := func(name string, on bool) sysvar.Def {
		v := int64(0)
		if on {
			v = 1
		}
		return sysvar.Def{Name: name, Scope: sysvar.Global, Kind: sysvar.Bool, Default: v, ReadOnly: true}
	}
	boolVar := func(name string, on bool, scope sysvar.Scope) sysvar.Def {
		v := int64(0)
		if on {
			v = 1
		}
		return sysvar.Def{Name: name, Scope: scope, Kind: sysvar.Bool, Default: v}
	}
	return []sysvar.Def{
		ro("version", Version),
		ro("version_comment", VersionComment),
		ro("version_compile_os", "Linux"),
		ro("version_compile_machine", "x86_64"),
		ro("protocol_version", int64(10)),
		ro("hostname", host),
		ro("datadir", n.cfg.DataDir+"/"),
		ro("port", int64(n.cfg.Port)),
		ro("bind_address", n.cfg.Bind),
		ro("socket", ""),
		ro("license", "Apache-2.0"),
		roBool("log_bin", true),
		ro("log_bin_basename", n.cfg.DataDir+"/binlog"),
		ro("log_bin_index", n.cfg.DataDir+"/binlog.index"),
		ro("binlog_format", "ROW"),
		ro("binlog_row_image", "FULL"),
		ro("binlog_checksum", "CRC32"),
		ro("gtid_mode", "ON"),
		ro("enforce_gtid_consistency", "ON"),
		ro("lower_case_table_names", int64(0)),
		ro("default_storage_engine", "InnoDB"),
		roBool("performance_schema", true),
		ro("system_time_zone", "UTC"),
		ro("innodb_flush_log_at_trx_commit", int64(1)),
		// What tools read of InnoDB's settings (MySQL 8.4's defaults): binlite's
		// storage is SQLite, so they describe nothing binlite tunes.
		ro("innodb_version", "8.4.0"),
		ro("innodb_buffer_pool_size", int64(134217728)),
		ro("innodb_buffer_pool_instances", int64(1)),
		ro("innodb_log_buffer_size", int64(67108864)),
		ro("innodb_redo_log_capacity", int64(104857600)),
		ro("innodb_page_size", int64(16384)),
		ro("innodb_io_capacity", int64(10000)),
		ro("innodb_io_capacity_max", int64(20000)),
		ro("innodb_autoinc_lock_mode", int64(2)),
		ro("innodb_thread_concurrency", int64(0)),
		ro("innodb_default_row_format", "dynamic"),
		ro("innodb_flush_method", "O_DIRECT"),
		roBool("innodb_file_per_table", true),
		roBool("innodb_read_only", false),
		roBool("innodb_doublewrite", true),
		roBool("innodb_deadlock_detect", true),
		roBool("innodb_rollback_on_timeout", false),
		roBool("innodb_print_all_deadlocks", false),
		roBool("innodb_stats_on_metadata", false),
		boolVar("innodb_strict_mode", true, sysvar.Both),
		ro("information_schema_stats_expiry", int64(86400)),
		ro("default_tmp_storage_engine", "InnoDB"),
		roBool("explicit_defaults_for_timestamp", true),
		ro("table_open_cache", int64(4000)),
		ro("table_definition_cache", int64(2000)),
		ro("open_files_limit", int64(10000)),
		ro("thread_cache_size", int64(9)),
		ro("max_user_connections", int64(0)),
		ro("tmp_table_size", int64(16777216)),
		ro("max_heap_table_size", int64(16777216)),
		ro("sort_buffer_size", int64(262144)),
		ro("join_buffer_size", int64(262144)),
		ro("read_buffer_size", int64(131072)),
		ro("key_buffer_size", int64(8388608)),
		ro("binlog_cache_size", int64(32768)),
		roBool("slow_query_log", false),
		roBool("general_log", false),
		{Name: "server_id", Scope: sysvar.Global, Kind: sysvar.Int, Default: int64(n.id.ServerID), ReadOnly: true, Get: func() any { return int64(n.id.ServerID) }},
		{Name: "server_uuid", Scope: sysvar.Global, Kind: sysvar.String, ReadOnly: true, Get: func() any { return n.id.UUID.String() }},
		{Name: "gtid_executed", Scope: sysvar.Global, Kind: sysvar.String, ReadOnly: true, Get: func() any { return n.eng.Executed().String() }},
		{Name: "gtid_purged", Scope: sysvar.Global, Kind: sysvar.String, Get: func() any { return n.log.Purged().String() }, Canon: gtidPurgedValue, OnSet: n.setGTIDPurged},
		{Name: "gtid_next", Scope: sysvar.Session, Kind: sysvar.String, Default: "AUTOMATIC"},
		// How long a schema writer may wait for the rest of a group of clients (answered
		// together, they come back a moment apart) before sealing a commit group.
		{Name: "binlog_group_commit_gather_us", Scope: sysvar.Global, Kind: sysvar.Int, Default: int64(500), Min: 0, Max: 100000},
		// How many binary-log groups of a schema may share one storage commit, each
		// executing while the one before is written and fsynced (engine/pipeline.go);
		// 1 turns that overlap off.
		{Name: "binlite_commit_pipeline_depth", Scope: sysvar.Global, Kind: sysvar.Int, Default: int64(engine.DefaultPipelineDepth), Min: 1, Max: 64},
		// ON sends every group the depth allows to the log with the next one executing
		// meanwhile, whether or not recent log writes suggest it pays (tests that must
		// reach the pipeline's states; measurements of overlap).
		boolVar("binlite_commit_pipeline_always_overlap", false, sysvar.Global),
		// OFF only to measure what crash safety costs (seeds/002): schemas then stop
		// recording applied GTIDs and a crash may apply a transaction twice.
		boolVar("binlite_crash_safe_apply", true, sysvar.Global),
		{Name: "sync_binlog", Scope: sysvar.Global, Kind: sysvar.Int, Default: int64(1), Min: 0, Max: 4294967295, ReadOnly: true},
		{Name: "max_binlog_size", Scope: sysvar.Global, Kind: sysvar.Int, Default: int64(1 << 30), Min: 4096, Max: 1 << 30, ReadOnly: true},
		{Name: "binlog_expire_logs_seconds", Scope: sysvar.Global, Kind: sysvar.Int, Default: int64(2592000), Min: 0, ReadOnly: true},
		{Name: "max_allowed_packet", Scope: sysvar.Both, Kind: sysvar.Int, Default: int64(64 << 20), Min: 1024, Max: 1 << 30},
		{Name: "innodb_lock_wait_timeout", Scope: sysvar.Both, Kind: sysvar.Int, Default: int64(50), Min: 1, Max: 1073741824},
		{Name: "lock_wait_timeout", Scope: sysvar.Both, Kind: sysvar.Int, Default: int64(31536000), Min: 1},
		{Name: "transaction_isolation", Scope: sysvar.Both, Kind: sysvar.Enum, Default: "REPEATABLE-READ", Values: []string{"READ-UNCOMMITTED", "READ-COMMITTED", "REPEATABLE-READ", "SERIALIZABLE"}},
		{Name: "tx_isolation", Scope: sysvar.Both, Kind: sysvar.Enum, Default: "REPEATABLE-READ", Values: []string{"READ-UNCOMMITTED", "READ-COMMITTED", "REPEATABLE-READ", "SERIALIZABLE"}},
		boolVar("transaction_read_only", false, sysvar.Both),
		boolVar("tx_read_only", false, sysvar.Both),
		boolVar("autocommit", true, sysvar.Both),
		// As in MySQL: super_read_only=ON implies read_only=ON, read_only=OFF implies
		// super_read_only=OFF.
		{Name: "read_only", Scope: sysvar.Global, Kind: sysvar.Bool, Default: int64(0), OnSet: func(v any) error {
			if v == int64(0) {
				return n.vars.Init("super_read_only", int64(0))
			}
			return nil
		}},
		{Name: "super_read_only", Scope: sysvar.Global, Kind: sysvar.Bool, Default: int64(0), OnSet: func(v any) error {
			if v == int64(1) {
				return n.vars.Init("read_only", int64(1))
			}
			return nil
		}},
		// Always ON: a replica's gtid_executed and crash recovery rest on its own binary log.
		{Name: "log_replica_updates", Scope: sysvar.Global, Kind: sysvar.Bool, Default: int64(1), ReadOnly: true},
		{Name: "log_slave_updates", Scope: sysvar.Global, Kind: sysvar.Bool, Default: int64(1), ReadOnly: true},
		boolVar("foreign_key_checks", true, sysvar.Both),
		boolVar("unique_checks", true, sysvar.Both),
		boolVar("sql_log_bin", true, sysvar.Session),
		boolVar("sql_auto_is_null", false, sysvar.Both),
		boolVar("sql_safe_updates", false, sysvar.Both),
		boolVar("profiling", false, sysvar.Session),
		{Name: "sql_mode", Scope: sysvar.Both, Kind: sysvar.String, Default: "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION", Canon: sysvar.SQLMode},
		{Name: "time_zone", Scope: sysvar.Both, Kind: sysvar.String, Default: "SYSTEM", Check: checkTimeZone},
		both("character_set_client", "utf8mb4"),
		both("character_set_connection", "utf8mb4"),
		both("character_set_results", "utf8mb4"),
		both("character_set_server", "utf8mb4"),
		both("character_set_database", "utf8mb4"),
		ro("character_set_system", "utf8mb3"),
		both("collation_connection", "utf8mb4_general_ci"),
		// New tables take collation_server: it must be one binlite compares by.
		{Name: "collation_server", Scope: sysvar.Both, Kind: sysvar.String, Default: "utf8mb4_general_ci", Check: checkCollation},
		{Name: "collation_database", Scope: sysvar.Both, Kind: sysvar.String, Default: "utf8mb4_general_ci", Check: checkCollation},
		both("init_connect", ""),
		both("sql_select_limit", int64(1<<62)),
		both("auto_increment_increment", int64(1)),
		both("auto_increment_offset", int64(1)),
		both("default_week_format", int64(0)),
		both("group_concat_max_len", int64(1024)),
		both("net_buffer_length", int64(16384)),
		both("query_cache_size", int64(0)),
		both("query_cache_type", "OFF"),
		both("event_scheduler", "OFF"),
		both("last_insert_id", int64(0)),
		boolVar("skip_replica_start", false, sysvar.Global),
		boolVar("skip_slave_start", false, sysvar.Global),
		boolVar("relay_log_purge", true, sysvar.Global),
		boolVar("relay_log_recovery", false, sysvar.Global),
		{Name: "sync_relay_log", Scope: sysvar.Global, Kind: sysvar.Int, Default: int64(10000), Min: 0, ReadOnly: true},
		{Name: "max_relay_log_size", Scope: sysvar.Global, Kind: sysvar.Int, Default: int64(0), Min: 0, Max: 1 << 30},
		{Name: "replica_net_timeout", Scope: sysvar.Global, Kind: sysvar.Int, Default: int64(60), Min: 1},
		{Name: "slave_net_timeout", Scope: sysvar.Global, Kind: sysvar.Int, Default: int64(60), Min: 1},
		ro("relay_log_basename", n.cfg.DataDir+"/relay-bin"),
		ro("report_host", ""),
		// MySQL's default: the port the server listens on.
		{Name: "report_port", Scope: sysvar.Global, Kind: sysvar.Int, ReadOnly: true, Get: func() any { return int64(n.Port()) }},
		ro("report_user", ""),
		boolVar("sql_quote_show_create", true, sysvar.Both),
		boolVar("sql_notes", true, sysvar.Both),
		{Name: "replica_parallel_workers", Scope: sysvar.Global, Kind: sysvar.Int, Default: int64(4), Min: 0, Max: 1024, OnSet: n.mirror("slave_parallel_workers")},
		{Name: "slave_parallel_workers", Scope: sysvar.Global, Kind: sysvar.Int, Default: int64(4), Min: 0, Max: 1024, OnSet: n.mirror("replica_parallel_workers")},
		{Name: "replica_channel_overlap", Scope: sysvar.Global, Kind: sysvar.Enum, Default: "WARN", Values: []string{"WARN", "STOP"}},
		{Name: "replica_preserve_commit_order", Scope: sysvar.Global, Kind: sysvar.Bool, Default: int64(0), OnSet: n.mirror("slave_preserve_commit_order")},
		{Name: "slave_preserve_commit_order", Scope: sysvar.Global, Kind: sysvar.Bool, Default: int64(0), OnSet: n.mirror("replica_preserve_commit_order")},
		ro("replica_parallel_type", "DATABASE"),
		n.semiVar("rpl_semi_sync_source_enabled", "rpl_semi_sync_master_enabled", sysvar.Bool, int64(0)),
		n.semiVar("rpl_semi_sync_master_enabled", "rpl_semi_sync_source_enabled", sysvar.Bool, int64(0)),
		n.semiVar("rpl_semi_sync_source_timeout", "rpl_semi_sync_master_timeout", sysvar.Int, int64(10000)),
		n.semiVar("rpl_semi_sync_master_timeout", "rpl_semi_sync_source_timeout", sysvar.Int, int64(10000)),
		n.semiVar("rpl_semi_sync_source_wait_for_replica_count", "rpl_semi_sync_master_wait_for_slave_count", sysvar.Int, int64(1)),
		n.semiVar("rpl_semi_sync_master_wait_for_slave_count", "rpl_semi_sync_source_wait_for_replica_count", sysvar.Int, int64(1)),
		n.semiVar("rpl_semi_sync_source_wait_no_replica", "rpl_semi_sync_master_wait_no_slave", sysvar.Bool, int64(1)),
		n.semiVar("rpl_semi_sync_master_wait_no_slave", "rpl_semi_sync_source_wait_no_replica", sysvar.Bool, int64(1)),
		n.semiEnum("rpl_semi_sync_source_wait_point", "rpl_semi_sync_master_wait_point"),
		n.semiEnum("rpl_semi_sync_master_wait_point", "rpl_semi_sync_source_wait_point"),
		{Name: "rpl_semi_sync_replica_enabled", Scope: sysvar.Global, Kind: sysvar.Bool, Default: int64(0), OnSet: n.mirror("rpl_semi_sync_slave_enabled")},
		{Name: "rpl_semi_sync_slave_enabled", Scope: sysvar.Global, Kind: sysvar.Bool, Default: int64(0), OnSet: n.mirror("rpl_semi_sync_replica_enabled")},
		ro("slave_parallel_type", "DATABASE"),
	}
}

func kindOf(v any) sysvar.Kind {
	if _, ok := v.(int64); ok {
		return sysvar.Int
	}
	return sysvar.String
}

// mirror keeps a variable's legacy and current names equal (slave_* and replica_*).
func (n *Node) mirror(other string) func(v any) error {
	return func(v any) error { return n.vars.Init(other, v) }
}

// semiVar defines a semi-sync source variable whose changes reconfigure the tracker.
func (n *Node) semiVar(name, legacy string, kind sysvar.Kind, def int64) sysvar.Def {
	d := sysvar.Def{Name: name, Scope: sysvar.Global, Kind: kind, Default: def, Min: 0}
	if kind == sysvar.Int {
		d.Max = 4294967295
	}
	d.OnSet = n.semiOnSet(name, legacy)
	return d
}

func (n *Node) semiEnum(name, legacy string) sysvar.Def {
	return sysvar.Def{Name: name, Scope: sysvar.Global, Kind: sysvar.Enum, Default: "AFTER_SYNC",
		Values: []string{"AFTER_SYNC", "AFTER_COMMIT"}, OnSet: n.semiOnSet(name, legacy)}
}

func (n *Node) semiOnSet(name, legacy string) func(v any) error {
	return func(v any) error {
		if err := n.vars.Init(legacy, v); err != nil {
			return err
		}
		if err := n.vars.Init(name, v); err != nil {
			return err
		}
		if n.semi != nil {
			n.semi.Configure(n.semiSettings())
		}
		return nil
	}
}

// checkCollation takes the collations binlite compares by.
func checkCollation(v any) error { return catalog.CheckCollation(sysvar.Format(v)) }

// checkTimeZone takes the zones binlite follows (the system zone is UTC):
// SYSTEM, the names of UTC, and offsets from -13:59 to +14:00. A named zone is
// 1235 (binlite has no zone database); anything else is 1298, as in MySQL.
func checkTimeZone(v any) error {
	s := strings.TrimSpace(sysvar.Format(v))
	switch _, kind := temporal.ParseZone(s); kind {
	case temporal.ZoneOffset:
		return nil
	case temporal.ZoneNamed:
		return mysqlerr.New(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'named time zones (%s)'", s)
	}
	return mysqlerr.New(mysqlerr.ErUnknownTimeZone, "Unknown or incorrect time zone: '%s'", s)
}
