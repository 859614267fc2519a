package source

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/gtid"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/semisync"
)

// DefaultHeartbeat is used when the replica does not ask for a period.
const DefaultHeartbeat = 30 * time.Second

// Service is a node's source side.
type Service struct {
	log      *binlog.Log
	uuid     gtid.UUID
	serverID uint32
	logger   *slog.Logger
	semi     *semisync.Source

	mu       sync.Mutex
	replicas map[uint32]Registration // by connection id
}

// New makes the source side of a node.
func New(log *binlog.Log, uuid gtid.UUID, serverID uint32, semi *semisync.Source, logger *slog.Logger) *Service {
	return &Service{log: log, uuid: uuid, serverID: serverID, semi: semi, logger: logger, replicas: map[uint32]Registration{}}
}

// Register records a replica for SHOW REPLICAS.
func (s *Service) Register(connID uint32, r Registration) {
	r.Since = time.Now()
	s.mu.Lock()
	s.replicas[connID] = r
	s.mu.Unlock()
}

// SetReplicaUUID records the uuid a replica announced with SET @replica_uuid.
func (s *Service) SetReplicaUUID(connID uint32, uuid string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.replicas[connID]; ok {
		r.UUID = uuid
		s.replicas[connID] = r
	}
}

// Unregister forgets a replica whose connection closed.
func (s *Service) Unregister(connID uint32) {
	s.mu.Lock()
	delete(s.replicas, connID)
	s.mu.Unlock()
}

// Replicas lists registered replicas by server id.
func (s *Service) Replicas() []Registration {
	s.mu.Lock()
	out := make([]Registration, 0, len(s.replicas))
	for _, r := range s.replicas {
		out = append(out, r)
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].ServerID < out[j].ServerID })
	return out
}

func fatalRead(format string, args ...any) error {
	return mysqlerr.New(mysqlerr.ErMasterFatalReadingLog, "Got fatal error 1236 from source when reading data from binary log: '"+format+"'", args...)
}

// startFile picks where to stream from for a GTID request: the newest file whose
// Previous_gtids the replica already has (everything before it is not needed).
func (s *Service) startFile(want gtid.Set) (string, error) {
	if missing := s.log.Purged().Subtract(want); !missing.IsEmpty() {
		return "", fatalRead("Cannot replicate because the source purged required binary logs. Replicate the missing transactions from elsewhere, or provision a new replica from backup. Consider increasing the source's binary log expiration period. The GTID set sent by the replica is '%s', and the missing transactions are '%s'", want, missing)
	}
	own := gtid.Set{}
	if last := want.Last(s.uuid); last > 0 {
		own.AddRange(s.uuid, 1, last)
		if ahead := want.Intersect(own).Subtract(s.log.Executed()); !ahead.IsEmpty() {
			return "", fatalRead("Replica has more GTIDs than the source has, using the source's SERVER_UUID. This may indicate that the end of the binary log was truncated or that the last binary log file was lost, e.g., after a power or disk failure when sync_binlog != 1. The source may or may not have rolled back transactions that were already replicated to the replica. Suggest to replicate any transactions that source has rolled back from replica to source, and/or commit empty transactions on source to account for transactions that have been committed on source but are not included in GTID_EXECUTED. Missing: '%s'", ahead)
		}
	}
	files, err := s.log.Files()
	if err != nil {
		return "", err
	}
	if len(files) == 0 {
		return "", fatalRead("no binary log files")
	}
	for i := len(files) - 1; i >= 0; i-- {
		if files[i].PreviousGTIDs.IsSubset(want) {
			return files[i].Name, nil
		}
	}
	return files[0].Name, nil
}

// Dump streams the binary log to a replica until ctx ends or the connection fails.
// Only durable groups are sent (a replica never holds what a crash could take back
// from the source). Transactions the replica already has are skipped in GTID mode.
func (s *Service) Dump(ctx context.Context, c *mysqlproto.Conn, req DumpRequest) error {
	file, pos := req.File, req.Pos
	if req.UseGTID {
		f, err := s.startFile(req.GTIDs)
		if err != nil {
			return err
		}
		file, pos = f, binlog.FirstEventPos
	} else {
		files, err := s.log.Files()
		if err != nil {
			return err
		}
		found := false
		for _, f := range files {
			found = found || f.Name == file
		}
		if !found {
			return fatalRead("Could not find first log file name in binary log index file")
		}
	}
	r, err := binlog.OpenReader(s.log.Dir(), file, pos)
	if err != nil {
		return fatalRead("could not open log file %s: %v", file, err)
	}
	defer r.Close()
	hb := req.Heartbeat
	if hb <= 0 {
		hb = DefaultHeartbeat
	}
	d := &dumper{s: s, c: c, req: req, r: r, semi: req.SemiSync && s.semi != nil}
	if d.semi {
		stop := s.readAcks(c, uint64(req.ConnID))
		defer stop()
	}
	// As MySQL does, start with a Rotate naming where the stream begins.
	if err := d.send(&binlog.RotateEvent{NextFile: file, Position: uint64(max(pos, binlog.FirstEventPos))}, uint32(time.Now().Unix()), s.serverID); err != nil {
		return err
	}
	for ctx.Err() == nil {
		if err := d.catchUp(); err != nil {
			return err
		}
		if err := c.Flush(); err != nil {
			return err
		}
		if req.NonBlock {
			return c.WriteEOFPacket()
		}
		rf, rp := r.Position()
		wctx, cancel := context.WithTimeout(ctx, hb)
		err := s.log.WaitDurable(wctx, rf, rp)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			if err := d.send(&binlog.HeartbeatEvent{File: rf, Pos: uint64(rp)}, uint32(time.Now().Unix()), s.serverID); err != nil {
				return err
			}
			continue
		}
		if err != nil && ctx.Err() == nil {
			return err
		}
	}
	return ctx.Err()
}

type dumper struct {
	s        *Service
	c        *mysqlproto.Conn
	req      DumpRequest
	r        *binlog.Reader
	semi     bool // semi-sync replica: every event carries the 0xef header
	skipping bool
	skipped  bool // events were passed over since the last one sent
	buf      []byte
}

// Semi-sync packet header: after the OK byte, a magic byte and a flags byte whose
// low bit asks the replica to acknowledge once the event is durable in its relay log.
const (
	semiMagic   = 0xef
	semiNeedAck = 0x01
)

func (d *dumper) send(ev binlog.Event, ts, serverID uint32) error {
	return d.sendFlagged(ev, ts, serverID, false)
}

func (d *dumper) sendFlagged(ev binlog.Event, ts, serverID uint32, needAck bool) error {
	d.buf = append(d.buf[:0], 0) // OK marker before every event
	if d.semi {
		flag := byte(0)
		if needAck {
			flag = semiNeedAck
		}
		d.buf = append(d.buf, semiMagic, flag)
	}
	d.buf = binlog.AppendEvent(d.buf, ev, ts, serverID)
	return d.c.WritePacket(d.buf)
}

// catchUp sends every durable event the reader has not yet passed.
func (d *dumper) catchUp() error {
	for {
		df, dp := d.s.log.Position()
		rf, rp := d.r.Position()
		if rf > df || (rf == df && rp >= dp) {
			return d.skipNotice()
		}
		ev, h, err := d.r.Next()
		if errors.Is(err, io.EOF) {
			return d.skipNotice()
		}
		if err != nil {
			return fatalRead("reading %s at %d: %v", rf, rp, err)
		}
		switch e := ev.(type) {
		case *binlog.FormatDescriptionEvent, *binlog.PreviousGTIDsEvent, *binlog.StopEvent:
			d.skipped = true
			continue
		case *binlog.GTIDEvent:
			d.skipping = d.req.UseGTID && d.req.GTIDs.Contains(e.GTID)
		}
		if d.skipping {
			d.skipped = true
			if _, end := ev.(*binlog.CommitEvent); end {
				d.skipping = false
			}
			continue
		}
		if d.skipped {
			if err := d.notice(h.File, h.Pos); err != nil {
				return err
			}
		}
		// The last commit of what is durable now asks for an acknowledgement: one
		// per commit group, which is what a waiting group needs.
		// A Rotate asks too: the groups before it end in the old file, and an ack of
		// the next file's start covers them.
		_, isCommit := ev.(*binlog.CommitEvent)
		_, isRotate := ev.(*binlog.RotateEvent)
		needAck := d.semi && ((isCommit && h.File == df && h.EndPos >= dp) || isRotate)
		if err := d.sendFlagged(ev, h.Timestamp, h.ServerID, needAck); err != nil {
			return fmt.Errorf("source: send to replica %d: %w", d.req.ServerID, err)
		}
		if needAck {
			if err := d.c.Flush(); err != nil {
				return err
			}
		}
	}
}

// skipNotice tells the replica where the source is after passing over events (header
// events, transactions it already has), so its Read_Source_Log_Pos stays exact.
func (d *dumper) skipNotice() error {
	if !d.skipped {
		return nil
	}
	rf, rp := d.r.Position()
	return d.notice(rf, rp)
}

func (d *dumper) notice(file string, pos int64) error {
	d.skipped = false
	return d.send(&binlog.HeartbeatEvent{File: file, Pos: uint64(pos)}, uint32(time.Now().Unix()), d.s.serverID)
}

// readAcks collects a semi-sync replica's acknowledgements ([0xef][u64 pos][file])
// while the dump streams. The returned stop ends the reader before the connection
// goes back to reading commands.
func (s *Service) readAcks(c *mysqlproto.Conn, id uint64) (stop func()) {
	s.semi.AddClient(id)
	done := make(chan struct{})
	var stopping atomic.Bool
	go func() {
		defer close(done)
		for {
			p, err := c.ReadSidePacket(4096)
			if err != nil {
				if !stopping.Load() {
					// The replica went away: stop counting it now, and end the dump.
					s.semi.RemoveClient(id)
					if nc := c.NetConn(); nc != nil {
						nc.Close()
					}
				}
				return
			}
			if len(p) < 9 || p[0] != semiMagic {
				s.logger.Warn("semi-sync: malformed acknowledgement from replica", "bytes", len(p))
				continue
			}
			s.semi.Ack(id, semisync.Pos{File: string(p[9:]), Offset: int64(binary.LittleEndian.Uint64(p[1:9]))})
		}
	}()
	return func() {
		stopping.Store(true)
		s.semi.RemoveClient(id)
		if nc := c.NetConn(); nc != nil {
			nc.SetReadDeadline(time.Now())
			<-done
			nc.SetReadDeadline(time.Time{})
		}
	}
}

// AppendAck encodes a semi-sync acknowledgement (the replica's side).
func AppendAck(b []byte, file string, pos int64) []byte {
	b = append(b, semiMagic)
	b = binary.LittleEndian.AppendUint64(b, uint64(pos))
	return append(b, file...)
}

// SplitSemiSync removes the semi-sync header of an event packet (after the OK byte),
// reporting whether an acknowledgement is requested.
func SplitSemiSync(p []byte) (event []byte, needAck bool, ok bool) {
	if len(p) < 2 || p[0] != semiMagic {
		return p, false, false
	}
	return p[2:], p[1]&semiNeedAck != 0, true
}
