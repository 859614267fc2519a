package server

import (
	"time"

	"github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/sysvar"
)

// connectionLimitVars define the variables of connection limits and timeouts,
// with MySQL 8.4's defaults and ranges. They are read at every connection (and the
// session timeouts at every session start), so SET GLOBAL applies without restart.
func connectionLimitVars() []sysvar.Def {
	const year = 31536000 // MySQL's maximum for every timeout, in seconds
	return []sysvar.Def{
		{Name: "max_connections", Scope: sysvar.Global, Kind: sysvar.Int, Default: int64(151), Min: 1, Max: 100000},
		{Name: "max_user_connections", Scope: sysvar.Global, Kind: sysvar.Int, Default: int64(0), Min: 0, Max: 4294967295},
		{Name: "connect_timeout", Scope: sysvar.Global, Kind: sysvar.Int, Default: int64(10), Min: 2, Max: year},
		{Name: "wait_timeout", Scope: sysvar.Both, Kind: sysvar.Int, Default: int64(28800), Min: 1, Max: year},
		{Name: "interactive_timeout", Scope: sysvar.Both, Kind: sysvar.Int, Default: int64(28800), Min: 1, Max: year},
		{Name: "net_read_timeout", Scope: sysvar.Both, Kind: sysvar.Int, Default: int64(30), Min: 1, Max: year},
		{Name: "net_write_timeout", Scope: sysvar.Both, Kind: sysvar.Int, Default: int64(60), Min: 1, Max: year},
		// The descriptors the process may open (RLIMIT_NOFILE as raised at start);
		// the option file may ask for fewer than the hard limit, as with mysqld.
		{Name: "open_files_limit", Scope: sysvar.Global, Kind: sysvar.Int, Default: int64(0), Min: 0, ReadOnly: true},
	}
}

// connectionLimits are the protocol server's limits as the variables say now.
func (n *Node) connectionLimits() mysqlproto.Limits {
	secs := func(name string) time.Duration { return time.Duration(n.vars.Int(name)) * time.Second }
	return mysqlproto.Limits{
		MaxConnections:     int(n.vars.Int("max_connections")),
		MaxUserConnections: int(n.vars.Int("max_user_connections")),
		MaxClients:         n.fds.clients,
		ConnectTimeout:     secs("connect_timeout"),
		WaitTimeout:        secs("wait_timeout"),
		InteractiveTimeout: secs("interactive_timeout"),
		NetReadTimeout:     secs("net_read_timeout"),
		NetWriteTimeout:    secs("net_write_timeout"),
	}
}

// setupDescriptors raises the descriptor limit (open_files_limit from the option
// file, else the hard limit), shows the result in @@open_files_limit and logs how
// it is shared.
func (n *Node) setupDescriptors() error {
	want := n.vars.Int("open_files_limit")
	b, err := raiseDescriptors(uint64(max(want, 0)))
	if err != nil {
		return err
	}
	n.fds = b
	if err := n.vars.Init("open_files_limit", int64(min(b.limit, 1<<62))); err != nil {
		return err
	}
	n.cfg.Logger.Info("file descriptors", "open_files_limit", b.limit, "kept_for_storage_and_logs", b.reserve, "client_connections_at_most", b.clients)
	return nil
}
