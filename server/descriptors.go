package server

import (
	"fmt"
	"syscall"
)

// descriptorBudget splits the process's file descriptors between client
// connections and everything else. Storage (each schema's SQLite file, WAL and
// readers), the binary and relay logs and replication links open files while the
// node runs; if clients could take every descriptor, one of those opens would meet
// EMFILE and a write the binary log already holds could not reach storage. So
// clients get the limit less a reserve, and a connection beyond it is refused.
type descriptorBudget struct {
	limit   uint64 // RLIMIT_NOFILE's soft limit, as raised (open_files_limit)
	reserve uint64 // kept for storage and logs
	clients int    // what client connections may hold
}

// reserveFor is the share of limit kept for storage and logs: a tenth, but no
// less than 256 descriptors where the limit allows it (a quarter of a small one).
func reserveFor(limit uint64) uint64 {
	return max(limit/10, min(256, limit/4))
}

// raiseDescriptors raises RLIMIT_NOFILE's soft limit to the hard limit (or to want,
// the open_files_limit option, when that is lower and not 0), as mysqld does at
// start, and returns how the result is shared.
func raiseDescriptors(want uint64) (descriptorBudget, error) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return descriptorBudget{}, fmt.Errorf("server: read RLIMIT_NOFILE: %w", err)
	}
	target := rl.Max
	if want > 0 && want < target {
		target = want
	}
	if rl.Cur != target {
		next := rl
		next.Cur = target
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &next); err != nil {
			return descriptorBudget{}, fmt.Errorf("server: set RLIMIT_NOFILE to %d: %w", target, err)
		}
		rl = next
	}
	reserve := reserveFor(rl.Cur)
	return descriptorBudget{limit: rl.Cur, reserve: reserve, clients: int(min(rl.Cur-reserve, 1<<30))}, nil
}
