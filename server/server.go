package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/compiler"
	"github.com/binlite/binlite/config"
	"github.com/binlite/binlite/engine"
	"github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/replica"
	"github.com/binlite/binlite/semisync"
	"github.com/binlite/binlite/session"
	"github.com/binlite/binlite/source"
	"github.com/binlite/binlite/sqlcompat"
	"github.com/binlite/binlite/sqlitec"
	"github.com/binlite/binlite/sysvar"
	"github.com/binlite/binlite/users"
)

// Config is how a node is started: flags and the option file.
type Config struct {
	DataDir  string
	Bind     string // default 127.0.0.1
	Port     int    // 0 = pick a free port
	HTTPPort int    // 0 = no HTTP endpoint; -1 = pick a free port
	// HTTPBind is the HTTP endpoint's address (http_bind_address; default
	// 127.0.0.1). Beyond loopback, all but /metrics need HTTPToken (httpauth.go).
	HTTPBind  string
	HTTPToken string // http_token
	ServerID  uint32
	// Options are MySQL option-file settings ([mysqld] section); names that are not
	// node settings are applied as system variables.
	Options []config.Option
	Logger  *slog.Logger
	// OnFatal is called when storage and the binary log disagree; the default stops
	// the process, as MySQL's binlog_error_action=ABORT_SERVER does.
	OnFatal func(error)
	// TestPoint, when set, is called at the named points of the commit path
	// (engine/testpoint.go, binlog.PointWritten): crash tests stop the process there.
	TestPoint func(point string)
	// LogWrite, when set, writes to the binary and relay logs' files in place of
	// os.File.Write (binlog.Options.Write): tests fill the disk with it.
	LogWrite func(f *os.File, b []byte) (int, error)

	// replicaFilters are the option file's replicate-* settings (nodeSettings).
	replicaFilters replica.OptionFilters
}

// Node is a running binlite server.
type Node struct {
	cfg   Config
	log   *binlog.Log
	eng   *engine.Engine
	vars  *sysvar.Registry
	env   *session.Env
	id    identity
	proto *mysqlproto.Server
	ln    net.Listener
	http  *http.Server
	hln   net.Listener
	hist  *history // per-second samples for the topology page (topology.go)
	wg    sync.WaitGroup
	fds   descriptorBudget
	sec   *mysqlproto.Security // TLS and RSA material (security.go)

	users    *users.Store
	semi     *semisync.Source
	source   *source.Service
	replicas *replica.Manager
	ctx      context.Context
	cancel   context.CancelFunc
}

// Open prepares the data directory, recovers the binary log and the schemas, and
// listens; Serve (or Start) begins accepting clients.
func Open(cfg Config) (*Node, error) {
	if cfg.DataDir == "" {
		return nil, errors.New("server: --datadir is required")
	}
	if cfg.Bind == "" {
		cfg.Bind = "127.0.0.1"
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.OnFatal == nil {
		cfg.OnFatal = func(err error) {
			cfg.Logger.Error("stopping: binary log and storage disagree; restart recovers from the binary log", "err", err)
			os.Exit(1)
		}
	}
	settings, err := nodeSettings(&cfg)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cfg.DataDir, 0o755); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	n := &Node{cfg: cfg, hist: &history{}}
	n.ctx, n.cancel = context.WithCancel(context.Background())
	if n.id, err = loadIdentity(cfg.DataDir, cfg.ServerID); err != nil {
		return nil, err
	}
	n.vars = sysvar.New(n.variableDefs(), connectionLimitVars(), securityVars())
	for _, o := range settings {
		for _, name := range []string{o.Name, legacyPairs[o.Name]} {
			if name == "" {
				continue
			}
			if err := n.vars.Init(name, o.Value); err != nil {
				return nil, fmt.Errorf("server: option %s (line %d): %w", o.Name, o.Line, err)
			}
		}
	}
	if err := n.setupDescriptors(); err != nil {
		return nil, err
	}
	if err := n.setupSecurity(); err != nil {
		return nil, err
	}
	n.semi = semisync.NewSource(n.semiSettings(), cfg.Logger)
	n.log, err = binlog.Open(cfg.DataDir, binlog.Options{
		ServerUUID:    n.id.UUID,
		ServerID:      n.id.ServerID,
		MaxSize:       n.vars.Int("max_binlog_size"),
		SyncBinlog:    int(n.vars.Int("sync_binlog")),
		ExpireSeconds: n.vars.Int("binlog_expire_logs_seconds"),
		Logger:        cfg.Logger,
		TestPoint:     cfg.TestPoint,
		Write:         cfg.LogWrite,
	})
	if err != nil {
		return nil, err
	}
	n.eng, err = engine.Open(engine.Options{
		Dir:              cfg.DataDir,
		Log:              n.log,
		Logger:           cfg.Logger,
		OnFatal:          cfg.OnFatal,
		TranslateDDL:     n.translateDDL,
		Functions:        n.gtidFunctions(),
		AfterSync:        func(ntx int, file string, pos int64) { n.semiWait(ntx, file, pos, true) },
		AfterCommit:      func(ntx int, file string, pos int64) { n.semiWait(ntx, file, pos, false) },
		GatherWindow:     n.gatherWindow,
		SkipAppliedGTIDs: func() bool { return n.vars.Int("binlite_crash_safe_apply") == 0 },
		PipelineDepth:    func() int { return int(n.vars.Int("binlite_commit_pipeline_depth")) },
		AlwaysOverlap:    func() bool { return n.vars.Int("binlite_commit_pipeline_always_overlap") != 0 },
		TestPoint:        cfg.TestPoint,
	})
	if err != nil {
		n.log.Close()
		return nil, err
	}
	if n.users, err = users.Open(n.eng); err != nil {
		n.eng.Close()
		n.log.Close()
		return nil, err
	}
	n.source = source.New(n.log, n.id.UUID, n.id.ServerID, n.semi, cfg.Logger)
	n.env = &session.Env{Plans: compiler.NewCache(4096), Engine: n.eng, Log: n.log, Vars: n.vars, Version: Version, Started: time.Now(),
		Source: n.source, Users: n.users, Semi: n.semi, Ctx: n.ctx}
	if err := n.listen(); err != nil {
		n.eng.Close()
		n.log.Close()
		return nil, err
	}
	n.replicas, err = replica.Open(replica.Config{Dir: cfg.DataDir, Engine: n.eng, Log: n.log, UUID: n.id.UUID,
		ServerID: n.id.ServerID, Port: n.cfg.Port, Vars: n.vars, Logger: cfg.Logger, RelayWrite: cfg.LogWrite, Filters: cfg.replicaFilters})
	if err != nil {
		n.ln.Close()
		n.eng.Close()
		n.log.Close()
		return nil, err
	}
	n.env.Replicas = n.replicas
	return n, nil
}

// nodeSettings takes the node's own settings out of the option file (flags win) and
// returns the rest, which are system variables.
func nodeSettings(cfg *Config) ([]config.Option, error) {
	var rest []config.Option
	for _, o := range cfg.Options {
		var err error
		switch o.Name {
		case "datadir":
			if cfg.DataDir == "" {
				cfg.DataDir = o.Value
			}
		case "port":
			if cfg.Port == 0 {
				cfg.Port, err = strconv.Atoi(o.Value)
			}
		case "bind_address":
			if cfg.Bind == "" {
				cfg.Bind = o.Value
			}
		case "http_port":
			if cfg.HTTPPort == 0 {
				cfg.HTTPPort, err = strconv.Atoi(o.Value)
			}
		case "http_bind_address":
			if cfg.HTTPBind == "" {
				cfg.HTTPBind = o.Value
			}
		case "http_token":
			if cfg.HTTPToken == "" {
				cfg.HTTPToken = o.Value
			}
		case "server_id":
			if cfg.ServerID == 0 {
				var id uint64
				id, err = strconv.ParseUint(o.Value, 10, 32)
				cfg.ServerID = uint32(id)
			}
		case "log_bin", "binlog_format", "gtid_mode", "enforce_gtid_consistency", "skip_name_resolve", "socket", "pid_file", "log_error", "user":
			// Accepted for compatibility: binlite always logs ROW events with GTIDs.
		case "replicate_do_db", "replicate_ignore_db", "replicate_do_table", "replicate_ignore_table",
			"replicate_wild_do_table", "replicate_wild_ignore_table", "replicate_rewrite_db":
			err = cfg.replicaFilters.Add(o.Name, o.Value)
		case "log_replica_updates", "log_slave_updates":
			if v := strings.ToUpper(o.Value); v == "0" || v == "OFF" {
				return nil, fmt.Errorf("server: option %s (line %d): binlite replicas always log what they apply (their gtid_executed and crash recovery rest on it)", o.Name, o.Line)
			}
		default:
			rest = append(rest, o)
		}
		if err != nil {
			return nil, fmt.Errorf("server: option %s (line %d): %w", o.Name, o.Line, err)
		}
	}
	return rest, nil
}

// translateDDL compiles a replayed DDL statement (recovery, a replica's applier)
// the way a session on this node would.
func (n *Node) translateDDL(schema, sql string, tableDef func(table string) *catalog.Table) ([]string, error) {
	st, err := sqlcompat.Parse(sql, &sqlcompat.Context{DB: schema, DefaultCollation: n.vars.String("collation_server"),
		// ALTER TABLE ... ADD COLUMN takes the table's collation, as it did on the source.
		TableDef: func(db, table string) *catalog.Table {
			if db != schema {
				return nil
			}
			return tableDef(table)
		}})
	if err != nil {
		return nil, err
	}
	d, ok := st.(*sqlcompat.DDL)
	if !ok {
		return nil, fmt.Errorf("server: replayed query is not DDL: %q", sql)
	}
	return d.Statements(), nil
}

func (n *Node) listen() error {
	ln, err := net.Listen("tcp", net.JoinHostPort(n.cfg.Bind, strconv.Itoa(n.cfg.Port)))
	if err != nil {
		return fmt.Errorf("server: listen: %w", err)
	}
	n.ln = ln
	n.cfg.Port = ln.Addr().(*net.TCPAddr).Port
	n.vars.Init("port", int64(n.cfg.Port))
	n.proto = mysqlproto.NewServer(mysqlproto.Config{
		ServerVersion:    Version,
		MaxAllowedPacket: int(n.vars.Int("max_allowed_packet")),
		Auth:             n.users,
		Logger:           n.cfg.Logger,
		NewHandler: func(ci *mysqlproto.ConnInfo) (mysqlproto.Handler, error) {
			return session.New(n.env, ci), nil
		},
		Limits:        n.connectionLimits,
		Security:      n.security,
		ReleaseMemory: sqlitec.ReleaseMemory,
	})
	n.env.Conns = n.proto.Stats
	if n.cfg.HTTPPort != 0 {
		port := n.cfg.HTTPPort
		if port < 0 {
			port = 0
		}
		bind := n.cfg.HTTPBind
		if bind == "" {
			bind = "127.0.0.1"
		}
		hln, err := net.Listen("tcp", net.JoinHostPort(bind, strconv.Itoa(port)))
		if err != nil {
			ln.Close()
			return fmt.Errorf("server: http listen: %w", err)
		}
		n.hln = hln
		if tcp, ok := hln.Addr().(*net.TCPAddr); ok && !tcp.IP.IsLoopback() && n.cfg.HTTPToken == "" {
			n.cfg.Logger.Warn("the HTTP endpoint listens beyond loopback without http_token: only /metrics answers", "addr", hln.Addr().String())
		}
		n.http = &http.Server{Handler: httpGuard(n.httpHandler(), hln.Addr(), n.cfg.HTTPToken), ReadHeaderTimeout: 5 * time.Second}
	}
	return nil
}

// Start serves clients in the background.
func (n *Node) Start() {
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		if err := n.proto.Serve(n.ln); err != nil {
			n.cfg.Logger.Error("mysql listener stopped", "err", err)
		}
	}()
	if n.http != nil {
		n.wg.Add(2)
		go func() {
			defer n.wg.Done()
			n.runHistory(n.ctx)
		}()
		go func() {
			defer n.wg.Done()
			if err := n.http.Serve(n.hln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				n.cfg.Logger.Error("http listener stopped", "err", err)
			}
		}()
	}
	n.cfg.Logger.Info("binlite ready", "addr", n.Addr(), "http", n.HTTPAddr(), "server_id", n.id.ServerID, "server_uuid", n.id.UUID.String(), "gtid_executed", n.eng.Executed().String())
}

// Addr is the MySQL protocol address.
func (n *Node) Addr() string { return n.ln.Addr().String() }

// Port is the MySQL protocol port.
func (n *Node) Port() int { return n.cfg.Port }

// HTTPAddr is the metrics/status address ("" when off).
func (n *Node) HTTPAddr() string {
	if n.hln == nil {
		return ""
	}
	return n.hln.Addr().String()
}

// Close stops listening, closes connections, flushes the schemas and the log.
func (n *Node) Close() error {
	n.cancel()
	n.replicas.Close()
	n.proto.Close()
	if n.http != nil {
		n.http.Close()
	}
	n.wg.Wait()
	err := n.eng.Close()
	if lerr := n.log.Close(); err == nil {
		err = lerr
	}
	return err
}

func (n *Node) semiSettings() semisync.Settings {
	return semisync.Settings{
		Enabled:    n.vars.Int("rpl_semi_sync_source_enabled") != 0,
		Timeout:    time.Duration(n.vars.Int("rpl_semi_sync_source_timeout")) * time.Millisecond,
		AfterSync:  n.vars.String("rpl_semi_sync_source_wait_point") != "AFTER_COMMIT",
		WaitCount:  int(n.vars.Int("rpl_semi_sync_source_wait_for_replica_count")),
		WaitNoRepl: n.vars.Int("rpl_semi_sync_source_wait_no_replica") != 0,
	}
}

// semiWait holds a commit group at the configured wait point until a semi-sync
// replica acknowledges the binary log up to the group's end.
func (n *Node) semiWait(ntx int, file string, pos int64, afterSync bool) {
	set := n.semi.Settings()
	if !set.Enabled || set.AfterSync != afterSync {
		return
	}
	n.semi.Wait(n.ctx, semisync.Pos{File: file, Offset: pos}, ntx)
}

// gatherWindow lets a schema writer collect a fuller group while semi-sync waits are
// in force: each group then costs a network round trip, and clients answered together
// come back a moment apart. The window is a small share of the average wait (4%, 2 to
// 8 ms): a client that misses a group pays a whole wait.
func (n *Node) gatherWindow() time.Duration {
	if st := n.semi.Status(); st.On && n.semi.Settings().Enabled {
		return min(max(time.Duration(st.AvgWaitUS)*time.Microsecond/25, 2*time.Millisecond), 8*time.Millisecond)
	}
	return time.Duration(n.vars.Int("binlog_group_commit_gather_us")) * time.Microsecond
}

// legacyPairs maps each replication variable to its other spelling (MySQL 8.4 renamed
// master/slave to source/replica; both are accepted and kept equal).
var legacyPairs = func() map[string]string {
	pairs := [][2]string{
		{"replica_parallel_workers", "slave_parallel_workers"},
		{"replica_preserve_commit_order", "slave_preserve_commit_order"},
		{"log_replica_updates", "log_slave_updates"},
		{"skip_replica_start", "skip_slave_start"},
		{"replica_net_timeout", "slave_net_timeout"},
		{"rpl_semi_sync_source_enabled", "rpl_semi_sync_master_enabled"},
		{"rpl_semi_sync_source_timeout", "rpl_semi_sync_master_timeout"},
		{"rpl_semi_sync_source_wait_point", "rpl_semi_sync_master_wait_point"},
		{"rpl_semi_sync_source_wait_for_replica_count", "rpl_semi_sync_master_wait_for_slave_count"},
		{"rpl_semi_sync_source_wait_no_replica", "rpl_semi_sync_master_wait_no_slave"},
		{"rpl_semi_sync_replica_enabled", "rpl_semi_sync_slave_enabled"},
	}
	m := map[string]string{}
	for _, p := range pairs {
		m[p[0]], m[p[1]] = p[1], p[0]
	}
	return m
}()
