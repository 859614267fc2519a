package replica

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// sourcePosition persists how far a file/position channel (SOURCE_AUTO_POSITION=0)
// has read the source's binary log, so a restart resumes there as MySQL does. It is
// written at most once a second and without fsync: resuming from an older position
// only re-sends transactions the relay log already holds, which the receiver skips.
type sourcePosition struct {
	path  string
	saved time.Time
}

func newSourcePosition(ch *Channel) *sourcePosition {
	return &sourcePosition{path: filepath.Join(ch.m.cfg.Dir, relayBase(ch.name)+".source-position")}
}

func (p *sourcePosition) load() (file string, pos int64, ok bool) {
	b, err := os.ReadFile(p.path)
	if err != nil {
		return "", 0, false
	}
	f, n, found := strings.Cut(strings.TrimSpace(string(b)), "\n")
	if !found {
		return "", 0, false
	}
	v, err := strconv.ParseInt(strings.TrimSpace(n), 10, 64)
	if err != nil || f == "" {
		return "", 0, false
	}
	return f, v, true
}

func (p *sourcePosition) save(file string, pos int64, force bool) error {
	if file == "" || (!force && time.Since(p.saved) < time.Second) {
		return nil
	}
	p.saved = time.Now()
	tmp := p.path + ".tmp"
	if err := os.WriteFile(tmp, []byte(fmt.Sprintf("%s\n%d\n", file, pos)), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, p.path)
}

func (p *sourcePosition) remove() error {
	if err := os.Remove(p.path); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}
