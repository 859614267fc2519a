package replica

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/binlite/binlite/binlog"
)

// Two sources writing the same table is a user error MySQL does not catch: the
// channels' changes interleave in an order neither source had. binlite notices
// it: the first channel that applies a row change to a table owns the table (since
// this server started); when another channel applies a row change to it, the
// overlap is recorded, logged, reported by SHOW REPLICA STATUS (as a warning
// naming both channels and the table) and in /status, and with
// replica_channel_overlap=STOP that later channel stops before applying it, with
// an error saying so. The variable is read when the SQL thread starts.

// ErrChannelOverlap is the Last_SQL_Errno of a channel stopped by an overlap
// (MySQL's ER_SLAVE_FATAL_ERROR, 1593: "Fatal error: %s").
const ErrChannelOverlap = 1593

// Overlap is a table that two channels changed rows of.
type Overlap struct {
	Table   string    `json:"table"`   // schema.table
	Owner   string    `json:"owner"`   // the channel that changed its rows first
	Channel string    `json:"channel"` // the channel that changed them later
	Stopped bool      `json:"stopped"` // that channel stopped (replica_channel_overlap=STOP)
	Seen    time.Time `json:"seen"`
}

// Message is the overlap in words.
func (o Overlap) Message() string {
	return fmt.Sprintf("Channels '%s' and '%s' both change rows of table %s: two sources writing the same table diverge", o.Owner, o.Channel, o.Table)
}

// overlaps tracks which channel changes rows of each table.
type overlaps struct {
	mu    sync.Mutex
	owner map[string]string // schema.table -> channel
	found []Overlap
}

// check notes the tables tx changes rows of for channel. It returns the first
// overlap it finds (ok true), recorded unless stop (the channel then stops before
// applying tx and the table keeps its owner). known caches this channel's tables.
func (o *overlaps) check(channel string, tx *binlog.Transaction, known map[string]bool, stop bool) (Overlap, bool) {
	for _, ev := range tx.Events {
		re, isRows := ev.(*binlog.RowsEvent)
		if !isRows {
			continue
		}
		key := re.Schema + "." + re.Table
		if known[key] {
			continue
		}
		o.mu.Lock()
		if o.owner == nil {
			o.owner = map[string]string{}
		}
		owner, has := o.owner[key]
		if !has {
			o.owner[key] = channel
			owner = channel
		}
		if owner == channel {
			o.mu.Unlock()
			known[key] = true
			continue
		}
		ov := Overlap{Table: key, Owner: owner, Channel: channel, Stopped: stop, Seen: time.Now()}
		i := slices.IndexFunc(o.found, func(f Overlap) bool { return f.Table == key && f.Channel == channel })
		if i < 0 {
			o.found = append(o.found, ov)
		} else {
			o.found[i] = ov
		}
		o.mu.Unlock()
		if !stop {
			known[key] = true // warned once; the channel goes on
		}
		return ov, true
	}
	return Overlap{}, false
}

// Overlaps lists the overlaps found since the server started.
func (m *Manager) Overlaps() []Overlap {
	m.overlaps.mu.Lock()
	defer m.overlaps.mu.Unlock()
	return slices.Clone(m.overlaps.found)
}

// forget drops a channel's tables (RESET REPLICA ALL removed it).
func (o *overlaps) forget(channel string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for k, c := range o.owner {
		if c == channel {
			delete(o.owner, k)
		}
	}
	o.found = slices.DeleteFunc(o.found, func(f Overlap) bool { return f.Channel == channel || f.Owner == channel })
}
