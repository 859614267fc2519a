package harness

import (
	"os"
	"path/filepath"
	"slices"
	"time"

	"golang.org/x/sys/unix"
)

// FsyncStats are fdatasync latencies of a 4 KiB overwrite (the ANCHORS.md probe).
type FsyncStats struct {
	Label    string  `json:"label"`
	N        int     `json:"n"`
	MedianUS float64 `json:"median_us"`
	P95US    float64 `json:"p95_us"`
}

// FsyncProbe overwrites the same 4 KiB block of a scratch file in dir and
// fdatasyncs it n times, and reports the latencies: what one durable commit costs on
// this disk right now.
func FsyncProbe(dir, label string, n int) (FsyncStats, error) {
	st := FsyncStats{Label: label, N: n}
	path := filepath.Join(dir, "fsync-probe")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o644)
	if err != nil {
		return st, err
	}
	defer os.Remove(path)
	defer f.Close()
	block := make([]byte, 4096)
	if _, err := f.WriteAt(block, 0); err != nil {
		return st, err
	}
	if err := f.Sync(); err != nil {
		return st, err
	}
	lat := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		block[0] = byte(i)
		t0 := time.Now()
		if _, err := f.WriteAt(block, 0); err != nil {
			return st, err
		}
		if err := unix.Fdatasync(int(f.Fd())); err != nil {
			return st, err
		}
		lat = append(lat, time.Since(t0))
	}
	slices.Sort(lat)
	st.MedianUS = float64(lat[n/2].Microseconds())
	st.P95US = float64(lat[n*95/100].Microseconds())
	return st, nil
}
