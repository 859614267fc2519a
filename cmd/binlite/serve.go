package main

import (
	"flag"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/binlite/binlite/config"
	"github.com/binlite/binlite/internal/crashpoint"
	"github.com/binlite/binlite/server"
)

func versionString() string { return "binlite " + server.Version }

// serverGCPercent is the garbage collector's target when GOGC is not set. A server's
// live heap is small next to what it allocates per transaction (decoded events,
// results), so the default 100 spends a fifth of a replica's apply CPU collecting;
// at 400 the heap may grow to five times the live data instead of two.
const serverGCPercent = 400

// tuneGC applies serverGCPercent unless GOGC says otherwise.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(serverGCPercent)
	}
}

func runServe(args []string) error {
	tuneGC()
	fs := flag.NewFlagSet("serve", flag.ExitOnError)
	datadir := fs.String("datadir", "", "data directory (schemas, binary log, identity)")
	port := fs.Int("port", 0, "MySQL protocol port (default 3306, or the config file's port)")
	serverID := fs.Uint("server-id", 0, "server id (default 1 on a new data directory)")
	bind := fs.String("bind", "", "address to listen on (default 127.0.0.1)")
	httpPort := fs.Int("http-port", 0, "HTTP port for /metrics and /status (0 = off)")
	httpBind := fs.String("http-bind", "", "address of the HTTP endpoint (default 127.0.0.1; beyond loopback all but /metrics need http_token)")
	cfgFile := fs.String("config", "", "option file with MySQL option names ([mysqld] section)")
	fs.StringVar(cfgFile, "defaults-file", "", "alias of --config")
	fs.Parse(args)

	cfg := server.Config{DataDir: *datadir, Port: *port, ServerID: uint32(*serverID), Bind: *bind, HTTPPort: *httpPort, HTTPBind: *httpBind}
	cfg.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	crash, err := crashpoint.FromEnv(cfg.Logger) // the crash tests' kill points
	if err != nil {
		return err
	}
	if crash != nil {
		cfg.TestPoint = crash.Hook
	}
	if *cfgFile != "" {
		opts, err := config.ParseFile(*cfgFile)
		if err != nil {
			return err
		}
		cfg.Options = opts
	}
	if cfg.Port == 0 && !hasOption(cfg.Options, "port") {
		cfg.Port = 3306
	}
	n, err := server.Open(cfg)
	if err != nil {
		return err
	}
	n.Start()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	<-sig
	cfg.Logger.Info("shutting down")
	return n.Close()
}

func hasOption(opts []config.Option, name string) bool {
	for _, o := range opts {
		if o.Name == name {
			return true
		}
	}
	return false
}
