package binlog

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// fileSeq returns the numeric suffix of base.NNNNNN, or -1.
func fileSeq(base, name string) int64 {
	rest, ok := strings.CutPrefix(name, base+".")
	if !ok || len(rest) < 6 {
		return -1
	}
	for i := 0; i < len(rest); i++ {
		if rest[i] < '0' || rest[i] > '9' {
			return -1
		}
	}
	n, err := strconv.ParseInt(rest, 10, 64)
	if err != nil {
		return -1
	}
	return n
}

func fileName(base string, seq int64) string {
	return fmt.Sprintf("%s.%06d", base, seq)
}

// nextFileName names the file after name (binlog.000009 -> binlog.000010).
func nextFileName(base, name string) string {
	return fileName(base, fileSeq(base, name)+1)
}

// listFiles returns base.NNNNNN files in dir in numeric order.
func listFiles(dir, base string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("binlog: list %s: %w", dir, err)
	}
	var names []string
	for _, e := range ents {
		if e.Type().IsRegular() && fileSeq(base, e.Name()) >= 0 {
			names = append(names, e.Name())
		}
	}
	slices.SortFunc(names, func(a, b string) int { return int(fileSeq(base, a) - fileSeq(base, b)) })
	return names, nil
}

func indexPath(dir, base string) string { return filepath.Join(dir, base+".index") }

// readIndex returns the index's file names; ok is false if there is no index.
func readIndex(dir, base string) (names []string, ok bool, err error) {
	data, err := os.ReadFile(indexPath(dir, base))
	if os.IsNotExist(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("binlog: read index: %w", err)
	}
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		// MySQL writes paths (./binlog.000001); we keep base names only.
		name := filepath.Base(line)
		if fileSeq(base, name) < 0 {
			return nil, false, fmt.Errorf("binlog: index %s: bad entry %q", indexPath(dir, base), line)
		}
		names = append(names, name)
	}
	return names, true, nil
}

// writeIndex replaces the index atomically.
func writeIndex(dir, base string, names []string) error {
	var b strings.Builder
	for _, n := range names {
		b.WriteString(n)
		b.WriteByte('\n')
	}
	path := indexPath(dir, base)
	if err := replaceFile(dir, path, []byte(b.String())); err != nil {
		return fmt.Errorf("binlog: write index %s: %w", path, err)
	}
	return nil
}

// replaceFile replaces path (in dir) atomically: temp file, fsync, rename, fsync dir.
func replaceFile(dir, path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o640)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err == nil {
		err = syncDir(dir)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
