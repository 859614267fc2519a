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
	"sync"
	"time"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/config"
	"github.com/binlite/binlite/engine"
	"github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/replica"
	"github.com/binlite/binlite/session"
	"github.com/binlite/binlite/source"
	"github.com/binlite/binlite/sqlcompat"
	"github.com/binlite/binlite/sysvar"
	"github.com/binlite/binlite/users"
)

// Config is how a node is started: flags and the option file.
type Config struct {
	DataDir  string
	Bind     string // default 127.0.0.1
	Port     int    // 0 = pick a free port
	HTTPPort int    // 0 = no HTTP endpoint; -1 = pick a free port
	ServerID uint32
	// Options are MySQL option-file settings ([mysqld] section); names that are not
	// node settings are applied as system variables.
	Options []config.Option
	Logger  *slog.Logger
	// OnFatal is called when storage and the binary log disagree; the default stops
	// the process, as MySQL's binlog_error_action=ABORT_SERVER does.
	OnFatal func(error)
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
	wg    sync.WaitGroup

	users    *users.Store
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
	n := &Node{cfg: cfg}
	n.ctx, n.cancel = context.WithCancel(context.Background())
	if n.id, err = loadIdentity(cfg.DataDir, cfg.ServerID); err != nil {
		return nil, err
	}
	n.vars = sysvar.New(n.variableDefs())
	for _, o := range settings {
		if err := n.vars.Init(o.Name, o.Value); err != nil {
			return nil, fmt.Errorf("server: option %s (line %d): %w", o.Name, o.Line, err)
		}
	}
	n.log, err = binlog.Open(cfg.DataDir, binlog.Options{
		ServerUUID:    n.id.UUID,
		ServerID:      n.id.ServerID,
		MaxSize:       n.vars.Int("max_binlog_size"),
		SyncBinlog:    int(n.vars.Int("sync_binlog")),
		ExpireSeconds: n.vars.Int("binlog_expire_logs_seconds"),
		Logger:        cfg.Logger,
	})
	if err != nil {
		return nil, err
	}
	n.eng, err = engine.Open(engine.Options{
		Dir:          cfg.DataDir,
		Log:          n.log,
		Logger:       cfg.Logger,
		OnFatal:      cfg.OnFatal,
		TranslateDDL: translateDDL,
		Functions:    n.gtidFunctions(),
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
	n.source = source.New(n.log, n.id.UUID, n.id.ServerID, cfg.Logger)
	n.env = &session.Env{Engine: n.eng, Log: n.log, Vars: n.vars, Version: Version, Started: time.Now(),
		Source: n.source, Users: n.users, Ctx: n.ctx}
	if err := n.listen(); err != nil {
		n.eng.Close()
		n.log.Close()
		return nil, err
	}
	n.replicas, err = replica.Open(replica.Config{Dir: cfg.DataDir, Engine: n.eng, Log: n.log, UUID: n.id.UUID,
		ServerID: n.id.ServerID, Port: n.cfg.Port, Vars: n.vars, Logger: cfg.Logger})
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
		case "server_id":
			if cfg.ServerID == 0 {
				var id uint64
				id, err = strconv.ParseUint(o.Value, 10, 32)
				cfg.ServerID = uint32(id)
			}
		case "log_bin", "binlog_format", "gtid_mode", "enforce_gtid_consistency", "skip_name_resolve", "socket", "pid_file", "log_error", "user":
			// Accepted for compatibility: binlite always logs ROW events with GTIDs.
		default:
			rest = append(rest, o)
		}
		if err != nil {
			return nil, fmt.Errorf("server: option %s (line %d): %w", o.Name, o.Line, err)
		}
	}
	return rest, nil
}

func translateDDL(schema, sql string) ([]string, error) {
	st, err := sqlcompat.Parse(sql, &sqlcompat.Context{DB: schema})
	if err != nil {
		return nil, err
	}
	d, ok := st.(*sqlcompat.DDL)
	if !ok {
		return nil, fmt.Errorf("server: replayed query is not DDL: %q", sql)
	}
	return d.SQLite, nil
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
	})
	if n.cfg.HTTPPort != 0 {
		port := n.cfg.HTTPPort
		if port < 0 {
			port = 0
		}
		hln, err := net.Listen("tcp", net.JoinHostPort(n.cfg.Bind, strconv.Itoa(port)))
		if err != nil {
			ln.Close()
			return fmt.Errorf("server: http listen: %w", err)
		}
		n.hln = hln
		n.http = &http.Server{Handler: n.httpHandler(), ReadHeaderTimeout: 5 * time.Second}
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
		n.wg.Add(1)
		go func() {
			defer n.wg.Done()
			if err := n.http.Serve(n.hln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				n.cfg.Logger.Error("http listener stopped", "err", err)
			}
		}()
	}
	n.cfg.Logger.Info("binlite ready", "addr", n.Addr(), "http", n.HTTPAddr(), "server_id", n.id.ServerID, "server_uuid", n.id.UUID.String(), "gtid_executed", n.log.Executed().String())
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
