package replica

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/source"
)

// MySQL's client-side error codes the IO thread reports.
const (
	errConnect        uint16 = 2003 // CR_CONN_HOST_ERROR
	errSourceFatal    uint16 = 13114
	errSameServerUUID uint16 = 1593
)

// fatalIO ends the IO thread instead of reconnecting (as MySQL does for 1236 and
// for equal server uuids).
type fatalIO struct{ err *mysqlerr.Error }

func (f fatalIO) Error() string { return f.err.Error() }

// runIO is the receiver: connect, ask for what is missing, write it to the relay log,
// and reconnect with back-off when the link fails.
func (ch *Channel) runIO(ctx context.Context) {
	retries := 0
	for ctx.Err() == nil {
		ch.mu.Lock()
		s := ch.settings
		ch.mu.Unlock()
		ch.update(func(st *state) { st.ioRunning, st.ioState = "Connecting", "Connecting to source" })
		err := ch.receive(ctx, s, func() { retries = 0 })
		if ctx.Err() != nil {
			return
		}
		var f fatalIO
		if errors.As(err, &f) {
			ch.setIOError(f.err.Code, f.err.Message)
			return
		}
		retries++
		code, msg := errConnect, err.Error()
		if me, ok := mysqlerr.As(err); ok {
			code, msg = me.Code, me.Message
		}
		if retries > s.RetryCount {
			// Last_IO_Error keeps the last attempt's message, as MySQL's does.
			ch.m.cfg.Logger.Error("replica IO thread stops: SOURCE_RETRY_COUNT reconnection attempts failed", "channel", ch.name, "attempts", s.RetryCount, "error", msg)
			return
		}
		ch.setIOError(code, fmt.Sprintf("Error reconnecting to source '%s@%s:%d'. This was attempt %d/%d, with a delay of %d seconds between attempts. Message: %s", s.User, s.Host, s.Port, retries, s.RetryCount, s.ConnectRetry, msg))
		ch.update(func(st *state) {
			st.ioRunning, st.ioState = "Connecting", "Waiting to reconnect after a failed source event read"
		})
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Duration(s.ConnectRetry) * time.Second):
		}
	}
}

func (ch *Channel) receive(ctx context.Context, s Settings, connected func()) error {
	relay, err := ch.relayLog()
	if err != nil {
		return fatalIO{mysqlerr.New(mysqlerr.ErUnknownError, "%v", err)}
	}
	tlsCfg, err := s.TLS.config(s.Host)
	if err != nil {
		return err
	}
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	c, err := mysqlproto.DialWith(dctx, net.JoinHostPort(s.Host, strconv.Itoa(s.Port)), mysqlproto.DialOptions{
		User: s.User, Password: s.Password, TLS: tlsCfg, GetPublicKey: s.TLS.GetPublicKey})
	cancel()
	if err != nil {
		return fmt.Errorf("error connecting to source '%s@%s:%d': %w", s.User, s.Host, s.Port, err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()

	rows, err := c.Exec("SELECT @@server_uuid, @@server_id")
	if err != nil {
		return err
	}
	if len(rows) != 1 || len(rows[0]) != 2 || rows[0][0] == nil || rows[0][1] == nil {
		return fmt.Errorf("source did not report its server_uuid and server_id")
	}
	srcUUID := *rows[0][0]
	srcID, _ := strconv.ParseUint(*rows[0][1], 10, 32)
	if srcUUID == ch.m.cfg.UUID.String() {
		return fatalIO{mysqlerr.New(errSameServerUUID, "Fatal error: The replica I/O thread stops because source and replica have equal MySQL server UUIDs; these UUIDs must be different for replication to work.")}
	}
	if uint32(srcID) == ch.m.cfg.ServerID {
		return fatalIO{mysqlerr.New(errSameServerUUID, "Fatal error: The replica I/O thread stops because source and replica have equal MySQL server ids; these ids must be different for replication to work.")}
	}
	hb := time.Duration(s.HeartbeatPeriod * float64(time.Second))
	if _, err := c.Exec(fmt.Sprintf("SET @source_heartbeat_period = %d, @master_heartbeat_period = %d, @replica_uuid = '%s', @slave_uuid = '%s'", hb.Nanoseconds(), hb.Nanoseconds(), ch.m.cfg.UUID, ch.m.cfg.UUID)); err != nil {
		return err
	}
	semi := ch.m.cfg.Vars.Int("rpl_semi_sync_replica_enabled") != 0
	if semi {
		if _, err := c.Exec("SET @rpl_semi_sync_replica = 1, @rpl_semi_sync_slave = 1"); err != nil {
			return err
		}
	}
	// The source lists @@report_host (empty unless set, as in MySQL: a source
	// cannot know the address others reach this node at) and @@report_port.
	reportHost := ch.m.cfg.Vars.String("report_host")
	reportPort := ch.m.cfg.Vars.Int("report_port")
	if reportPort <= 0 {
		reportPort = int64(ch.m.cfg.Port)
	}
	if err := c.Command(mysqlproto.ComRegisterSlave, source.AppendRegister(nil, ch.m.cfg.ServerID, reportHost, s.User, uint16(reportPort))); err != nil {
		return err
	}
	if p, err := c.ReadPacket(); err != nil {
		return err
	} else if len(p) > 0 && p[0] == 0xff {
		return mysqlproto.ParseError(p)
	}

	sp := newSourcePosition(ch)
	if s.AutoPosition {
		err = c.Command(mysqlproto.ComBinlogDumpGTID, source.AppendDumpGTID(nil, ch.m.cfg.ServerID, ch.m.cfg.Log.Executed().Union(relay.Executed())))
	} else {
		file, pos := s.LogFile, max(s.LogPos, 4)
		if f, p, ok := sp.load(); ok {
			file, pos = f, p
		}
		err = c.Command(mysqlproto.ComBinlogDump, source.AppendDump(nil, ch.m.cfg.ServerID, file, pos))
	}
	if err != nil {
		return err
	}
	if s.AutoPosition {
		sp = nil
	}
	ch.update(func(st *state) {
		st.sourceUUID, st.sourceServerID = srcUUID, uint32(srcID)
		st.ioRunning, st.ioState = "Yes", "Waiting for source to send event"
		st.lastIOErrno, st.lastIOError = 0, ""
	})
	connected()
	ch.update(func(st *state) { st.semiSync = semi })
	defer ch.update(func(st *state) { st.semiSync = false })
	timeout := 60 * time.Second // replica_net_timeout
	if hb > 0 && 2*hb+5*time.Second < timeout {
		timeout = 2*hb + 5*time.Second
	}
	c.SetReadTimeout(timeout)
	return ch.stream(ctx, c, relay, semi, sp)
}

// sourceLink is what the receiver needs of its connection to the source; a
// *mysqlproto.Conn is one, and tests script one to control what arrives together.
type sourceLink interface {
	ReadPacket() ([]byte, error)
	// PacketBuffered reports whether ReadPacket would return without waiting.
	PacketBuffered() bool
	WriteSidePacket(payload []byte) error
}

// Bounds of a relay batch: a receiver that never waits for the network (a replica
// catching up) still writes the relay log at least this often.
const (
	relayBatchTxns  = 4096
	relayBatchBytes = 8 << 20
)

// stream reads events, assembles whole transactions and writes them to the relay log
// in batches: as many as have arrived, one relay write (and fsync) per batch. A
// batch is written before any read that would wait for the network, whatever the
// last event was, so no received transaction is held in memory while the source is
// quiet (an idle source's heartbeat arriving behind the last COMMIT used to strand
// it there).
func (ch *Channel) stream(ctx context.Context, c sourceLink, relay *binlog.Log, semi bool, sp *sourcePosition) error {
	var (
		tx      *binlog.Transaction
		pending []*binlog.Transaction
		size    int
		file    string
		pos     int64
		// endFile:endPos is where the last whole transaction received ends, and
		// savedFile:savedPos the same once the relay log holds it: a file/position
		// channel resumes from there, never from inside a transaction.
		endFile, savedFile string
		endPos, savedPos   int64
	)
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		if err := relay.Commit(pending); err != nil {
			if binlog.IsDiskFull(err) {
				// The relay log took the batch back and stays usable: the receiver
				// reconnects after SOURCE_CONNECT_RETRY and asks again for what it
				// lacks, until there is room.
				return mysqlerr.New(mysqlerr.ErDiskFull, "Disk full (%s); waiting for someone to free some space... (errno: 28 - No space left on device)", relayFileOf(err))
			}
			return fatalIO{mysqlerr.New(mysqlerr.ErUnknownError, "Relay log write failure: %v", err)}
		}
		pending, size = nil, 0
		savedFile, savedPos = endFile, endPos
		f, p := file, pos
		ch.update(func(st *state) { st.readFile, st.readPos = f, p })
		if sp != nil {
			if err := sp.save(savedFile, savedPos, false); err != nil {
				ch.m.cfg.Logger.Warn("saving the source position", "channel", ch.name, "err", err)
			}
		}
		return nil
	}
	if sp != nil {
		defer func() { sp.save(savedFile, savedPos, true) }()
	}
	ack := func() error {
		// Acknowledge only once the relay log holds everything received durably.
		if err := flush(); err != nil {
			return err
		}
		if err := relay.Sync(); err != nil {
			return fatalIO{mysqlerr.New(mysqlerr.ErUnknownError, "Relay log sync failure: %v", err)}
		}
		if err := c.WriteSidePacket(source.AppendAck(nil, file, pos)); err != nil {
			return fmt.Errorf("semi-sync: sending acknowledgement: %w", err)
		}
		return nil
	}
	for {
		// The one place a batch is written in the normal course: before a read
		// that would wait, or once the batch reaches its bounds.
		if len(pending) > 0 && (!c.PacketBuffered() || len(pending) >= relayBatchTxns || size >= relayBatchBytes) {
			if err := flush(); err != nil {
				return err
			}
		}
		p, err := c.ReadPacket()
		if err != nil {
			if ctx.Err() == nil {
				err = fmt.Errorf("source connection lost while reading events: %w", err)
			}
			if ferr := flush(); ferr != nil {
				return ferr
			}
			return err
		}
		if len(p) == 0 {
			return fmt.Errorf("empty packet from source")
		}
		switch p[0] {
		case 0xff:
			flush()
			perr := mysqlproto.ParseError(p)
			if me, ok := mysqlerr.As(perr); ok && me.Code == mysqlerr.ErMasterFatalReadingLog {
				return fatalIO{mysqlerr.New(errSourceFatal, "%s", me.Message)}
			}
			return perr
		case 0xfe:
			flush()
			return fmt.Errorf("source ended the stream")
		}
		raw, needAck := p[1:], false
		if semi {
			var ok bool
			if raw, needAck, ok = source.SplitSemiSync(raw); !ok {
				return fmt.Errorf("semi-sync: event packet without the semi-sync header")
			}
		}
		h, ev, err := binlog.DecodeEvent(raw)
		if err != nil {
			flush()
			return fmt.Errorf("relay log read failure: could not parse event from source at %s:%d: %w", file, pos, err)
		}
		switch e := ev.(type) {
		case *binlog.RotateEvent:
			file, pos = e.NextFile, int64(e.Position)
		case *binlog.HeartbeatEvent:
			file, pos = e.File, int64(e.Pos)
			if len(pending) == 0 {
				f, p := file, pos
				ch.update(func(st *state) { st.readFile, st.readPos = f, p })
			}
		case *binlog.GTIDEvent:
			tx = &binlog.Transaction{GTID: e.GTID, OriginalCommitUS: e.OriginalCommitUS, ImmediateCommitUS: e.ImmediateCommitUS, Schemas: e.Schemas, ServerID: h.ServerID}
		case *binlog.RowsEvent, *binlog.QueryEvent:
			if tx == nil {
				return fmt.Errorf("event %s outside a transaction at %s:%d", h.Type, file, pos)
			}
			tx.Events = append(tx.Events, ev)
		case *binlog.CommitEvent:
			if tx == nil {
				return fmt.Errorf("COMMIT outside a transaction at %s:%d", file, pos)
			}
			// A file/position channel that resumes from a saved position may be sent
			// transactions its relay log already has.
			if sp == nil || (!relay.Contains(tx.GTID) && !slices.ContainsFunc(pending, func(p *binlog.Transaction) bool { return p.GTID == tx.GTID })) {
				pending = append(pending, tx)
			}
			tx = nil
		}
		switch ev.(type) {
		case *binlog.RotateEvent, *binlog.HeartbeatEvent:
			// Positions come from the event itself, not from its length.
		default:
			pos += int64(h.Length)
			size += len(p)
		}
		if tx == nil {
			endFile, endPos = file, pos
			if len(pending) == 0 {
				// Nothing waits for the relay log: everything up to here is in it (or
				// was not a transaction).
				savedFile, savedPos = endFile, endPos
			}
		}
		if needAck {
			if err := ack(); err != nil {
				return err
			}
		}
	}
}

// relayFileOf names the relay log file of a write error.
func relayFileOf(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return filepath.Base(pe.Path)
	}
	return "relay log"
}
