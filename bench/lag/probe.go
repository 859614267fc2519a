package main

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"github.com/binlite/binlite/bench/internal/harness"
	"github.com/binlite/binlite/gtid"
)

// binliteProbe reads the replica's /status, then the source's: Seconds_Behind_Source
// and gtid_executed of both. Reading the replica first means the source may have
// committed a little more by the time it answers, so the distance is never
// under-stated.
func binliteProbe(p *pair) func(ctx context.Context) (Sample, error) {
	return func(ctx context.Context) (Sample, error) {
		var s Sample
		rs, err := p.rep.FetchBinliteStatus(ctx)
		if err != nil {
			return s, err
		}
		s.tRep = time.Now()
		ss, err := p.src.FetchBinliteStatus(ctx)
		if err != nil {
			return s, err
		}
		s.tSrc = time.Now()
		srcSet, err := gtid.Parse(ss.GTIDExecuted)
		if err != nil {
			return s, fmt.Errorf("source gtid_executed %q: %w", ss.GTIDExecuted, err)
		}
		repSet, err := gtid.Parse(rs.GTIDExecuted)
		if err != nil {
			return s, fmt.Errorf("replica gtid_executed %q: %w", rs.GTIDExecuted, err)
		}
		u, err := gtid.ParseUUID(ss.ServerUUID)
		if err != nil {
			return s, fmt.Errorf("source server_uuid %q: %w", ss.ServerUUID, err)
		}
		missing := srcSet.Subtract(repSet)
		s.Distance = missing.Count()
		if iv := missing.Intervals(u); len(iv) > 0 {
			s.OldestMissing = iv[0].Lo
		}
		s.SrcLast = srcSet.Last(u)
		s.SBS = -1
		if v, ok := rs.SecondsBehindSource(); ok {
			s.SBS = v
		}
		if io, sq := rs.ReplicaField("Replica_IO_Running"), rs.ReplicaField("Replica_SQL_Running"); io != "Yes" || sq != "Yes" {
			s.ReplicaError = fmt.Sprintf("Replica_IO_Running=%s Replica_SQL_Running=%s Last_IO_Error=%q Last_SQL_Error=%q",
				io, sq, rs.ReplicaField("Last_IO_Error"), rs.ReplicaField("Last_SQL_Error"))
		}
		return s, nil
	}
}

// mariadbProbe reads the replica's SHOW SLAVE STATUS (Seconds_Behind_Master) and
// @@gtid_slave_pos, then the primary's @@gtid_binlog_pos. Both are single-domain
// positions "0-1-N" here; the parallel applier commits in order, so the replica
// has exactly the primary's transactions 1..M.
func mariadbProbe(p *pair) func(ctx context.Context) (Sample, error) {
	return func(ctx context.Context) (Sample, error) {
		var s Sample
		st, err := p.rep.ReplicaStatus(ctx)
		if err != nil {
			return s, err
		}
		if len(st) == 0 {
			return s, fmt.Errorf("%s: SHOW SLAVE STATUS is empty", p.rep.Name)
		}
		var slavePos sql.NullString // not a SHOW SLAVE STATUS column (only SHOW ALL SLAVES STATUS)
		if err := p.rep.DB().QueryRowContext(ctx, "SELECT @@gtid_slave_pos").Scan(&slavePos); err != nil {
			return s, fmt.Errorf("%s: %w", p.rep.Name, err)
		}
		s.tRep = time.Now()
		var pos sql.NullString
		if err := p.src.DB().QueryRowContext(ctx, "SELECT @@gtid_binlog_pos").Scan(&pos); err != nil {
			return s, fmt.Errorf("%s: %w", p.src.Name, err)
		}
		s.tSrc = time.Now()
		n := harness.MariaDBGTIDCount(pos.String)
		m := harness.MariaDBGTIDCount(slavePos.String)
		if n > m {
			s.Distance = n - m
			s.OldestMissing = m + 1
		}
		s.SrcLast = n
		s.SBS = -1
		if v, err := strconv.ParseFloat(st["Seconds_Behind_Master"], 64); err == nil { // "" is NULL
			s.SBS = v
		}
		if io, sq := st["Slave_IO_Running"], st["Slave_SQL_Running"]; io != "Yes" || sq != "Yes" {
			s.ReplicaError = fmt.Sprintf("Slave_IO_Running=%s Slave_SQL_Running=%s Last_IO_Error=%q Last_SQL_Error=%q",
				io, sq, st["Last_IO_Error"], st["Last_SQL_Error"])
		}
		return s, nil
	}
}
