package binlog

import (
	"context"
)

// WaitDurable blocks until the durable end of the log is beyond (file, pos),
// or file is no longer the active file (it was rotated away or purged). It
// returns ctx's error on cancellation and ErrClosed after Close.
func (l *Log) WaitDurable(ctx context.Context, file string, pos int64) error {
	for {
		l.mu.Lock()
		if l.closed {
			l.mu.Unlock()
			return ErrClosed
		}
		if l.failed != nil {
			err := l.failed
			l.mu.Unlock()
			return err
		}
		active := l.files[len(l.files)-1].name
		if active != file || l.durPos > pos {
			l.mu.Unlock()
			return nil
		}
		ch := l.durCh
		l.mu.Unlock()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}
