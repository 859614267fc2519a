package session

import (
	"time"

	"github.com/binlite/binlite/infoschema"
)

// The replication state performance_schema's replication tables read.

// channelSnapshot is every replication channel as SHOW REPLICA STATUS's fields.
func (s *Session) channelSnapshot() []map[string]any {
	if s.env.Replicas == nil {
		return nil
	}
	var out []map[string]any
	for _, row := range s.env.Replicas.Status("", true) {
		f := map[string]any{}
		for _, x := range row {
			f[x.Name] = x.Value
		}
		out = append(out, f)
	}
	return out
}

// workerSnapshot is every channel's applier workers.
func (s *Session) workerSnapshot() []infoschema.Worker {
	if s.env.Replicas == nil {
		return nil
	}
	gt := func(g interface {
		IsZero() bool
		String() string
	}) string {
		if g.IsZero() {
			return ""
		}
		return g.String()
	}
	var out []infoschema.Worker
	for _, w := range s.env.Replicas.Workers() {
		out = append(out, infoschema.Worker{Channel: w.Channel, ID: uint64(w.ID), Running: w.Running, Schema: w.Schema,
			LastApplied: gt(w.LastApplied), Applying: gt(w.Applying), Applied: uint64(w.Applied),
			LastErrno: int64(w.LastErrno), LastError: w.LastError,
			LastOriginalCommit: fromUS(w.LastOriginalUS), LastImmediateCommit: fromUS(w.LastImmediateUS),
			LastStartApply: w.LastStart, LastEndApply: w.LastEnd,
			ApplyingOriginalCommit: fromUS(w.ApplyingOriginalUS), ApplyingImmediateCommit: fromUS(w.ApplyingImmediateUS),
			ApplyingStartApply: w.ApplyingStart})
	}
	return out
}

// fromUS is a binary log commit timestamp (µs since the epoch; 0 = none) as a time.
func fromUS(us uint64) time.Time {
	if us == 0 {
		return time.Time{}
	}
	return time.UnixMicro(int64(us))
}
