package engine

import (
	"sync/atomic"
	"time"

	"github.com/binlite/binlite/binlog"
)

// The commit pipeline of a schema's writer.
//
// SQLite commits everything its open transaction holds, and one connection has one
// transaction. So while the binary log writes and fdatasyncs group N, the writer
// executes the statements of group N+1 in the same SQLite transaction, and that
// transaction commits only once every group executed in it is durable in the log
// (and, under semi-sync AFTER_SYNC, acknowledged). Clients are answered after that
// commit, in order. Nothing is visible to readers before it (they read committed
// WAL snapshots) and storage never commits a group the log lacks, so invariant 1
// holds as without the pipeline; a crash at any point leaves storage at the last
// commit and the log ahead of it by whole groups, which recovery re-applies.
//
// The price is latency for the earlier groups of a transaction: group N's clients
// also wait for N+1's log write. Two bounds keep it small: at most depth groups
// share one SQLite commit (the writer stops taking statements when the last one is
// sealed, waits for it and commits), and a group goes to the log with execution
// overlapping it only while log writes are quick (maxOverlapWait): under semi-sync
// over a real network a log write costs a round trip, and the writer then commits
// each group alone, gathering instead (gather.go).
//
// Overlap only pays when statements arrive while a group is in the log: clients
// answered together come back together, and when the last commit's clients are all
// in the group being written (a closed loop, as sysbench runs, with the gather window
// collecting them), the writer would execute next to nothing meanwhile and still pay
// the hand-off to the log stage, the group's savepoint, and a wait or a second write
// for what little ran. So a group is written inline, by the writer itself, unless
// recent log writes saw about a group's worth of statements arrive (overlapNext):
// measured on inline writes as the jobs queued when the write returns, and on
// overlapped ones as the next group's clients when it completes.

// logGroup is one binary-log group of the writer's open SQLite transaction.
type logGroup struct {
	members []member
	txs     []*binlog.Transaction // one per member: a replicated one, or in store
	store   []binlog.Transaction  // the transactions of members that ran here
	err     error                 // the log stage's outcome
	took    time.Duration         // how long the log stage took (write, fdatasync, semi-sync)
}

// maxOverlapWait is the slowest smoothed log write under which execution overlaps
// it. A disk's fdatasync (0.1-0.5 ms here) is below it; a semi-sync round trip to
// another machine or a slow disk is above, and then overlap would make every group
// but the last of a commit wait twice for the log.
const maxOverlapWait = 2 * time.Millisecond

// pipeline is the writer's pipeline state: what the open SQLite transaction holds
// beyond its open group (w.group) and where each part stands. It decides; the
// writer does the I/O.
type pipeline struct {
	depth    int         // most log groups per SQLite commit
	sealed   []*logGroup // groups of the open transaction handed to the log, in order
	inFlight *logGroup   // the last of sealed while the log stage has it
	logWait  time.Duration
	// arrivals is the smoothed number of clients whose statements arrived while one
	// of this writer's groups was being written to the log.
	arrivals float64
	// logged counts groups whose log stage completed since the transaction began;
	// each is durable (a failure ends the transaction).
	logged int
	// hasApply: the transaction holds replicated transactions, which are never
	// overlapped (see writer.applyTxn).
	hasApply bool
	// always: overlap whenever the depth allows (Options.AlwaysOverlap).
	always bool
}

// observe folds a log stage's duration into the smoothed log wait.
func (p *pipeline) observe(d time.Duration) {
	if p.logWait == 0 {
		p.logWait = d
		return
	}
	p.logWait += (d - p.logWait) / 8
}

// mayExecute reports whether the writer may run another statement into the open
// group now: the group would not be the (depth+1)th of the transaction, and the
// statements held for the commit stay under maxGroup.
func (p *pipeline) mayExecute(held, maxGroup int) bool {
	return len(p.sealed) < p.depth && held < maxGroup
}

// sawArrivals folds in how many clients' statements arrived during a log write.
func (p *pipeline) sawArrivals(n int) {
	p.arrivals += (float64(n) - p.arrivals) / 4
}

// overlapNext decides how a group about to be sealed goes to the log: true = to
// the log stage, with the writer executing the next group meanwhile; false =
// inline. Overlap needs room for a next group in the transaction, quick log
// writes, and statements arriving during a write in about the number this group
// holds: then the next group is likely to follow this one to the log (writer.logged)
// rather than be set aside.
func (p *pipeline) overlapNext(groupSize int) bool {
	if p.hasApply || len(p.sealed)+1 >= p.depth {
		return false
	}
	if p.always {
		return true
	}
	return p.logWait <= maxOverlapWait && p.arrivals >= float64(groupSize)
}

// room reports whether another group may follow the one being sealed.
func (p *pipeline) room() bool { return !p.hasApply && len(p.sealed)+1 < p.depth }

// seal records g as the transaction's next log group.
func (p *pipeline) seal(g *logGroup, async bool) {
	p.sealed = append(p.sealed, g)
	if async {
		p.inFlight = g
	}
}

// done records the end of g's log stage.
func (p *pipeline) done(g *logGroup) {
	if p.inFlight == g {
		p.inFlight = nil
	}
	p.observe(g.took)
	if g.err == nil {
		p.logged++
	}
}

// chainOpen decides, once every sealed group is durable, whether the open group
// follows them to the log before they commit (true) or is set aside (false:
// writer.setAside) because it holds fewer clients than they: chaining makes each of
// the sealed groups' clients wait one more log write, setting aside makes the open
// group's rows be written twice.
func (p *pipeline) chainOpen(sealedClients, openClients int) bool {
	return openClients >= sealedClients
}

// reset forgets the transaction's groups after its commit or rollback.
func (p *pipeline) reset() {
	clear(p.sealed)
	p.sealed = p.sealed[:0]
	p.inFlight = nil
	p.logged = 0
	p.hasApply = false
}

// CommitStats counts what the writers' pipelines did, over all schemas.
type CommitStats struct {
	// StorageCommits are SQLite commits of autocommit groups and explicit
	// transactions joining them (recovery's and multi-schema commits aside).
	StorageCommits uint64
	// LogGroups are the groups those commits held, each one binary-log write;
	// Overlapped of them were written while the writer executed the next group.
	LogGroups, Overlapped uint64
	// SetAside counts open groups taken out of a commit and applied again after it.
	SetAside uint64
}

type commitCounters struct {
	storageCommits, logGroups, overlapped, setAside atomic.Uint64
}

// CommitStats returns the pipelines' counters.
func (e *Engine) CommitStats() CommitStats {
	c := &e.commits
	return CommitStats{StorageCommits: c.storageCommits.Load(), LogGroups: c.logGroups.Load(), Overlapped: c.overlapped.Load(), SetAside: c.setAside.Load()}
}
