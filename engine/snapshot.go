package engine

// Consistent reads. At REPEATABLE READ (InnoDB's default) the plain SELECTs of a
// transaction read one snapshot, taken at its first read, however many other
// transactions commit meanwhile. A Txn with Snapshots set keeps, per schema it
// reads and does not write, a read connection inside an open SQLite read
// transaction: in WAL mode its first read fixes what every later one sees.
// START TRANSACTION WITH CONSISTENT SNAPSHOT takes them for every schema at once
// (SnapshotAll). Once the transaction writes a schema it reads that schema
// through the writer it holds: the latest committed rows and its own changes
// (a difference from InnoDB that only concurrent transactions can show; see
// issue 17). A read naming other schemas (attached ones) reads the latest
// committed rows: SQLite cannot attach inside an open transaction.

// snapshot is one schema's open read transaction.
type snapshot struct {
	pool *readPool
	c    *readConn
	own  bool // opened for this transaction: the pool had none to spare
}

// reserve takes a read connection from the pool without waiting: one of its
// own if it has one or may open one, else a new connection of the caller's
// (own=true), so that transactions holding snapshots never starve the pool.
func (p *readPool) reserve() (c *readConn, own bool, err error) {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		c = p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return c, false, nil
	}
	if n := len(p.spare); n > 0 {
		c = p.spare[n-1]
		p.spare = p.spare[:n-1]
		p.mu.Unlock()
		return c, true, nil
	}
	pooled := p.open < p.max
	if pooled {
		p.open++
	}
	p.mu.Unlock()
	sc, err := openConn(p.path, true, p.functions)
	if err != nil {
		if pooled {
			p.mu.Lock()
			p.open--
			p.mu.Unlock()
			p.free.Signal()
		}
		return nil, false, err
	}
	return &readConn{sqliteConn: sc, attached: map[string]bool{}}, !pooled, nil
}

// snapshotFor is the transaction's snapshot of schema db, taken now if it has
// none.
func (t *Txn) snapshotFor(db string) (*snapshot, error) {
	if sn := t.snaps[db]; sn != nil {
		return sn, nil
	}
	s, err := t.e.schema(db)
	if err != nil {
		return nil, err
	}
	c, own, err := s.readPool.reserve()
	if err != nil {
		return nil, err
	}
	sn := &snapshot{pool: &s.readPool, c: c, own: own}
	if _, err := c.exec("BEGIN"); err != nil {
		sn.release()
		return nil, translateError(err, db)
	}
	// The first read of a WAL read transaction fixes its snapshot.
	if _, err := c.exec("SELECT count(*) FROM sqlite_schema"); err != nil {
		sn.release()
		return nil, translateError(err, db)
	}
	if t.snaps == nil {
		t.snaps = map[string]*snapshot{}
	}
	t.snaps[db] = sn
	return sn, nil
}

// SnapshotAll takes the snapshot of every schema now (START TRANSACTION WITH
// CONSISTENT SNAPSHOT).
func (t *Txn) SnapshotAll() error {
	for _, db := range t.e.Schemas() {
		if t.byDB[db] != nil {
			continue
		}
		if _, err := t.snapshotFor(db); err != nil {
			return err
		}
	}
	return nil
}

func (sn *snapshot) release() {
	sn.c.exec("ROLLBACK")
	if sn.own {
		p := sn.pool
		p.mu.Lock()
		if !p.closed && len(p.spare) < maxSpare { // a closed pool keeps nothing
			p.spare = append(p.spare, sn.c)
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
		sn.c.Close()
		return
	}
	sn.pool.putReader(sn.c)
}

func (t *Txn) releaseSnapshots() {
	for db, sn := range t.snaps {
		sn.release()
		delete(t.snaps, db)
	}
}
