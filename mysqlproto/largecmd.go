package mysqlproto

import (
	"runtime"
	"runtime/debug"
	"sync"
)

// largeCommand is the payload size from which a command's memory is looked
// after apart: a large statement's text is copied by every stage that handles
// it (the grammar's tokens, the compiled SQL, SQLite's own copy), and with the
// server's high garbage-collection target (GOGC 400) those copies would pile
// up to several times their live size before a collection.
const largeCommand = 16 << 20

// largeGCPercent is the collection target while a large command runs: its
// garbage is collected as it is made, so the process grows by about what the
// command keeps live.
const largeGCPercent = 20

// largeCommands lowers the collection target while any large command runs and
// gives the memory back to the system when the last one ends.
type largeCommands struct {
	mu      sync.Mutex
	running int
	saved   int    // the target before the first of them began
	release func() // Config.ReleaseMemory
}

func (l *largeCommands) begin() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.running == 0 {
		l.saved = debug.SetGCPercent(largeGCPercent)
		if l.saved >= 0 && l.saved < largeGCPercent {
			debug.SetGCPercent(l.saved) // already lower: keep it
		}
	}
	l.running++
}

func (l *largeCommands) end() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.running--
	if l.running == 0 {
		debug.SetGCPercent(l.saved)
		// Two cycles: what objects with finalizers (the driver's statements)
		// still reach is freed only by the second.
		runtime.GC()
		debug.FreeOSMemory()
		if l.release != nil {
			l.release()
		}
	}
}
