package binlog

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Reader reads events in order across files, following Rotate events, and
// continuing after a Stop event once the next file exists. At the current end
// of a file it returns io.EOF; call Next again later as the file grows. A
// reader does not know what is durable: dump threads call Log.WaitDurable
// first and stop at Log.Position.
type Reader struct {
	dir, base string
	file      string
	ef        *eventFile
	pos       int64
	stopped   bool         // a Stop event was read: the next file may follow
	rotate    *RotateEvent // read but not yet followed
	names     names        // shared by the events of every file read
	lazy      bool         // DeferRows
	mapFiles  bool         // MapFiles
}

// DeferRows makes the reader leave the row changes of rows events encoded:
// RowsEvent.Load decodes them, so a replica decodes rows on the worker that
// applies them, into memory it reuses, instead of on the reading coordinator.
func (r *Reader) DeferRows() {
	r.lazy = true
	r.ef.dec.lazy = true
}

// MapFiles makes the reader read its files through memory maps instead of read
// windows on the heap: no copy, no allocation, no page faults on fresh buffers.
// The bytes that rows events refer to (their frames, row lists and the values of
// their rows, including those Load returns) are then valid only while the event
// is reachable: a caller that keeps a value longer must copy it.
func (r *Reader) MapFiles() {
	r.mapFiles = true
	r.ef.useMap = true
}

// OpenReader starts reading file in dir at pos (a position below 4 means the
// first event).
func OpenReader(dir, file string, pos int64) (*Reader, error) {
	r := &Reader{dir: dir, base: baseOf(file)}
	if err := r.open(file, pos); err != nil {
		return nil, err
	}
	return r, nil
}

// baseOf returns "binlog" for "binlog.000007".
func baseOf(file string) string {
	if i := strings.LastIndexByte(file, '.'); i > 0 {
		return file[:i]
	}
	return file
}

func (r *Reader) open(file string, pos int64) error {
	ef, err := openEventFile(filepath.Join(r.dir, file))
	if err != nil {
		return err
	}
	if r.ef != nil {
		r.ef.Close()
	}
	ef.dec.names = &r.names
	ef.dec.lazy = r.lazy
	ef.useMap = r.mapFiles
	r.ef, r.file, r.pos, r.stopped = ef, file, max(pos, FirstEventPos), false
	return nil
}

// Position returns the file and offset of the next event.
func (r *Reader) Position() (file string, pos int64) { return r.file, r.pos }

// Close releases the open file.
func (r *Reader) Close() error { return r.ef.Close() }

// Next returns the next event. Errors other than io.EOF (ErrCorrupt and
// friends) are wrapped with the file and position.
func (r *Reader) Next() (Event, EventHeader, error) {
	if rot := r.rotate; rot != nil {
		// The writer syncs the Rotate before creating the next file, so the
		// file may not exist yet: report EOF until it does.
		if _, err := os.Stat(filepath.Join(r.dir, rot.NextFile)); err != nil {
			return nil, EventHeader{}, io.EOF
		}
		if err := r.open(rot.NextFile, int64(rot.Position)); err != nil {
			return nil, EventHeader{}, err
		}
		r.rotate = nil
	}
	h, ev, err := r.ef.next(r.pos)
	if errors.Is(err, io.EOF) || errors.Is(err, ErrTruncated) {
		// A partial event at the end may still be being written.
		if r.stopped {
			next := nextFileName(r.base, r.file)
			if _, serr := os.Stat(filepath.Join(r.dir, next)); serr == nil {
				if err := r.open(next, FirstEventPos); err != nil {
					return nil, EventHeader{}, err
				}
				return r.Next()
			}
		}
		return nil, EventHeader{}, io.EOF
	}
	if err != nil {
		return nil, h, fmt.Errorf("binlog: %s at %d: %w", r.file, r.pos, err)
	}
	h.File = r.file
	switch e := ev.(type) {
	case *RotateEvent:
		r.rotate = e // hand the Rotate to the caller, then follow it
	case *StopEvent:
		r.stopped = true
	}
	r.pos = h.EndPos
	return ev, h, nil
}

// SkipTxnEvent moves past the next event without decoding it when that event is
// part of a transaction's body (rows, query, commit) and whole; it reports the type
// skipped. For any other event (a GTID event, or a file's own events) it moves
// nothing and returns ok false: read that one with Next. A replica steps over the
// transactions it already has this way. Small events are still checked against
// their checksums; larger ones are not even read, since nothing of them is used. A
// damaged length in a large one shows when the next event is not where it points;
// one pointing past the end of the file looks like an event still being written.
func (r *Reader) SkipTxnEvent() (t EventType, ok bool, err error) {
	if r.rotate != nil {
		return 0, false, nil
	}
	var n uint32
	var end int64
	h, err := r.ef.header(r.pos)
	if err == nil {
		n, err = peekLength(h)
	}
	if err == nil {
		if t = EventType(h[4]); t != TypeRows && t != TypeQuery && t != TypeCommit {
			return t, false, nil
		}
		end, err = r.ef.skip(r.pos, n)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, ErrTruncated) {
		if r.stopped {
			return 0, false, nil // Next moves on to the following file
		}
		return 0, false, io.EOF // a partial event at the end may still be being written
	}
	if err != nil {
		return 0, false, fmt.Errorf("binlog: %s at %d: %w", r.file, r.pos, err)
	}
	r.pos = end
	return t, true, nil
}

// ReadFile calls fn for every event of the file at path, in order. A partial
// event at the end is reported as ErrTruncated, a damaged one as ErrCorrupt,
// both wrapped with the path and position.
func ReadFile(path string, fn func(h EventHeader, ev Event) error) error {
	ef, err := openEventFile(path)
	if err != nil {
		return err
	}
	defer ef.Close()
	name := filepath.Base(path)
	for pos := FirstEventPos; ; {
		h, ev, err := ef.next(pos)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("binlog: %s at %d: %w", path, pos, err)
		}
		h.File = name
		if err := fn(h, ev); err != nil {
			return err
		}
		pos = h.EndPos
	}
}
