package replica

// Link is what a monitoring view needs of a channel beyond SHOW REPLICA STATUS: the
// transactions its applier has applied since the node started (a counter to take
// rates of), the GTIDs in its relay log the node has not executed yet, and whether
// its receiver is connected as a semi-sync replica.
type Link struct {
	Channel  string
	Applied  uint64
	Behind   uint64
	SemiSync bool
}

// Links reports every channel, sorted by name.
func (m *Manager) Links() []Link {
	m.mu.Lock()
	names := m.sortedNames()
	chs := make([]*Channel, len(names))
	for i, n := range names {
		chs[i] = m.channels[n]
	}
	m.mu.Unlock()
	executed := m.cfg.Engine.Executed()
	out := make([]Link, len(chs))
	for i, ch := range chs {
		ch.mu.Lock()
		out[i] = Link{Channel: ch.name, Applied: ch.st.appliedCount, SemiSync: ch.st.semiSync}
		relay := ch.relay
		ch.mu.Unlock()
		if relay != nil {
			out[i].Behind = relay.Executed().Subtract(executed).Count()
		}
	}
	return out
}
