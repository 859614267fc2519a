package binlog

import (
	"fmt"
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// mapping is a read-only shared memory map of a log file. Reading a file through
// its map costs no copy and no buffer: a replica's coordinator used to allocate,
// fault in and fill a fresh read window for every 256 KiB of relay log, which was
// a tenth of what it spent per transaction.
//
// The map reaches past the file's end by a reservation, so a file that grows (a
// relay log the receiver appends to, a binary log a dump thread follows) is read
// without mapping it again until it outgrows the reservation. Only bytes below the
// size last seen are ever touched: pages past the end of a file fault.
//
// Decoded rows events refer to the mapped bytes and hold their mapping (RowsEvent.keep);
// the map is removed when neither its eventFile nor such an event is reachable. A
// value taken out of such an event does not hold it, which is why only readers that
// ask for it (Reader.MapFiles: the replica applier) map their files.
// Files are truncated only by recovery when a log is opened, never while a reader
// maps them: a truncated page would fault.
type mapping struct{ b []byte }

// mapReserve is how far past a file's end its map reaches, and its growth step.
const mapReserve = 64 << 20

// mapFile maps f, whose size is size, with room to grow by at least reserve bytes.
func mapFile(f *os.File, size, reserve int64) (*mapping, error) {
	n := (size/reserve + 2) * reserve
	if reserve <= 0 || n/reserve != size/reserve+2 || int64(int(n)) != n {
		return nil, fmt.Errorf("binlog: map %s: %d bytes do not fit in the address space", f.Name(), n)
	}
	b, err := unix.Mmap(int(f.Fd()), 0, int(n), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("binlog: map %s: %w", f.Name(), err)
	}
	m := &mapping{b: b}
	runtime.AddCleanup(m, func(b []byte) { unix.Munmap(b) }, b)
	return m, nil
}
