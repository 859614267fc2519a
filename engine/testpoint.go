package engine

// Named points of the commit path where Options.TestPoint is called. The crash tests
// stop the process there (kill -9) to prove that a crash at each step of the
// pipeline loses nothing acknowledged and commits nothing the binary log lacks; the
// hook runs on the goroutine that reached the point and may block it.
const (
	// PointLogBegin: a sealed group enters the log stage (the writer goes on
	// executing), not yet written.
	PointLogBegin = "commit.log-begin"
	// PointLogSynced: the log stage made a group durable in the binary log (and
	// semi-sync AFTER_SYNC acknowledged it); storage has not committed it.
	PointLogSynced = "commit.log-synced"
	// PointAhead: the writer executed a statement into the next group while the
	// previous group of the same SQLite transaction is in the log stage.
	PointAhead = "commit.ahead"
	// PointStored: storage committed the transaction; its clients are not answered yet.
	PointStored = "commit.stored"
)
