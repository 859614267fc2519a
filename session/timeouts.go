package session

import (
	"time"

	"github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/sysvar"
)

// netTimeouts are the session's wait_timeout, net_read_timeout and
// net_write_timeout, which the protocol layer asks for before every command; they
// are read from the variables again only after a SET.
type netTimeouts struct {
	known                   bool
	wait, netRead, netWrite time.Duration
}

var _ mysqlproto.SessionTimeouts = (*Session)(nil)

// Timeouts implements mysqlproto.SessionTimeouts.
func (s *Session) Timeouts() (wait, netRead, netWrite time.Duration) {
	if !s.timeouts.known {
		secs := func(name string) time.Duration { return time.Duration(s.vars.Int(name)) * time.Second }
		s.timeouts = netTimeouts{known: true, wait: secs("wait_timeout"),
			netRead: secs("net_read_timeout"), netWrite: secs("net_write_timeout")}
	}
	return s.timeouts.wait, s.timeouts.netRead, s.timeouts.netWrite
}

// startTimeouts gives a new session its own copy of the timeouts, as MySQL does
// at thread start: wait_timeout comes from the global interactive_timeout for a
// client that connected with CLIENT_INTERACTIVE (the mariadb CLI does), from the
// global wait_timeout otherwise. A later SET GLOBAL then changes new sessions only.
func startTimeouts(vars *sysvar.Vars, interactive bool) {
	reg := vars.Registry()
	for _, name := range []string{"wait_timeout", "interactive_timeout", "net_read_timeout", "net_write_timeout"} {
		from := name
		if name == "wait_timeout" && interactive {
			from = "interactive_timeout"
		}
		v, err := reg.Global(from)
		if err != nil {
			continue // a registry without the variable (tests): the session reads none
		}
		_ = vars.Set(name, v)
	}
}
