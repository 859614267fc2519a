package session

import (
	"time"

	"github.com/binlite/binlite/mysqlerr"
	mp "github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/replica"
	"github.com/binlite/binlite/source"
	"github.com/binlite/binlite/sqlcompat"
	"github.com/binlite/binlite/users"
)

var _ mp.RawCommander = (*Session)(nil)

// RawCommand serves the replication commands a replica sends: COM_REGISTER_SLAVE and
// the binary-log dumps. They need the REPLICATION SLAVE privilege.
func (s *Session) RawCommand(cmd byte, payload []byte, c *mp.Conn) (bool, error) {
	switch cmd {
	case mp.ComRegisterSlave, mp.ComBinlogDump, mp.ComBinlogDumpGTID:
	default:
		return false, nil
	}
	if !s.hasGlobal(users.ReplicationSlave) {
		return true, mysqlerr.New(mysqlerr.ErSpecificAccessDenied, "Access denied; you need (at least one of) the REPLICATION SLAVE privilege(s) for this operation")
	}
	if cmd == mp.ComRegisterSlave {
		reg, err := source.ParseRegister(payload)
		if err != nil {
			return true, err
		}
		if u, ok := s.userVars["replica_uuid"].(string); ok {
			reg.UUID = u
		}
		s.env.Source.Register(s.id, reg)
		return true, c.WriteOK(0, 0)
	}
	var (
		req source.DumpRequest
		err error
	)
	if cmd == mp.ComBinlogDumpGTID {
		req, err = source.ParseDumpGTID(payload)
	} else {
		req, err = source.ParseDump(payload)
	}
	if err != nil {
		return true, err
	}
	for _, name := range []string{"source_heartbeat_period", "master_heartbeat_period"} {
		if ns, ok := s.userVars[name].(int64); ok && ns > 0 {
			req.Heartbeat = time.Duration(ns)
		}
	}
	for _, name := range []string{"rpl_semi_sync_replica", "rpl_semi_sync_slave"} {
		if v, ok := s.userVars[name].(int64); ok && v != 0 {
			req.SemiSync = true
		}
	}
	req.ConnID = s.id
	if cmd == mp.ComBinlogDumpGTID {
		s.setDumping("Binlog Dump GTID")
	} else {
		s.setDumping("Binlog Dump")
	}
	err = s.env.Source.Dump(s.env.Ctx, c, req)
	if me, ok := mysqlerr.As(err); ok {
		return true, me
	}
	if err != nil {
		s.env.Source.Unregister(s.id)
		return true, mysqlerr.New(mysqlerr.ErNetErrorOnWrite, "binlog dump ended: %v", err)
	}
	return true, nil
}

func (s *Session) showReplicaStatus(x *sqlcompat.Show) (*mp.Result, error) {
	if x.AllSlaves {
		cols, rows := s.env.Replicas.AllSlavesStatus()
		return stringResult(cols, rows), nil
	}
	if x.ChannelNamed && !s.env.Replicas.HasChannel(x.Channel) && x.Channel != "" {
		return nil, mysqlerr.New(3074, "Replication channel '%s' does not exist.", x.Channel)
	}
	rows := s.env.Replicas.Status(x.Channel, !x.ChannelNamed)
	s.overlapWarnings(x.Channel, !x.ChannelNamed)
	var names []string
	var out [][]any
	for i, r := range rows {
		vals := make([]any, len(r))
		for j, f := range r {
			if i == 0 {
				if x.Legacy {
					names = append(names, f.Legacy)
				} else {
					names = append(names, f.Name)
				}
			}
			vals[j] = f.Value
		}
		out = append(out, vals)
	}
	if names == nil {
		return stringResult(replica.StatusColumns(x.Legacy), nil), nil
	}
	return stringResult(names, out), nil
}

func (s *Session) showReplicas() (*mp.Result, error) {
	var rows [][]any
	for _, r := range s.env.Source.Replicas() {
		rows = append(rows, []any{int64(r.ServerID), r.Host, int64(r.Port), int64(s.env.Vars.Int("server_id")), r.UUID})
	}
	return stringResult([]string{"Server_Id", "Host", "Port", "Source_Id", "Replica_UUID"}, rows), nil
}

func (s *Session) showGrants(x *sqlcompat.Show) (*mp.Result, error) {
	user, host := s.account.User, s.account.Host
	if x.User != "" {
		user, host = x.User, hostOr(x.Host)
	}
	lines, err := s.env.Users.ShowGrants(user, host)
	if err != nil {
		return nil, err
	}
	rows := make([][]any, len(lines))
	for i, l := range lines {
		rows[i] = []any{l}
	}
	return stringResult([]string{"Grants for " + user + "@" + host}, rows), nil
}

// overlapWarnings adds a warning per table two channels change rows of, for the
// channels SHOW REPLICA STATUS shows (replica/overlap.go).
func (s *Session) overlapWarnings(channel string, all bool) {
	for _, ov := range s.env.Replicas.Overlaps() {
		if all || ov.Channel == channel || ov.Owner == channel {
			s.notes = append(s.notes, mysqlerr.Warning{Level: "Warning", Code: mysqlerr.ErUnknownError, Message: ov.Message()})
		}
	}
}
