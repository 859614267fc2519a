package binlog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"

	"github.com/binlite/binlite/gtid"
)

// eventFile reads events of one file by offset. It re-stats the file only
// when an event reaches past the size it last saw, so a growing file can be
// followed cheaply.
type eventFile struct {
	f    *os.File
	path string
	size int64
	buf  []byte
	// m maps the file when a Reader asks for it (MapFiles): events are read from it
	// in place. useMap says to map; it is cleared when the file cannot be mapped.
	m       *mapping
	useMap  bool
	reserve int64 // mapReserve; tests make it small
	// Otherwise reads go through win, the file's bytes from winPos, read ahead so
	// that a replica or dump thread streaming a file makes one pread per readAhead
	// bytes.
	win    []byte
	winPos int64
	dec    decoder // reused for every event; its names are a Reader's
	hdr    [HeaderLen]byte
}

const readAhead = 256 << 10

func openEventFile(path string) (*eventFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("binlog: open %s: %w", path, err)
	}
	// Maps and windows are never written (see fill), so events may refer to them.
	ef := &eventFile{f: f, path: path, reserve: mapReserve, dec: decoder{alias: true}}
	var m [len(Magic)]byte
	if _, err := f.ReadAt(m[:], 0); err != nil || string(m[:]) != Magic {
		f.Close()
		if err == nil || errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("binlog: open %s: %w: missing file magic", path, ErrCorrupt)
		}
		return nil, fmt.Errorf("binlog: open %s: %w", path, err)
	}
	return ef, nil
}

// Close closes the file; its map stays until no event refers to it.
func (ef *eventFile) Close() error {
	ef.m, ef.dec.keep = nil, nil
	return ef.f.Close()
}

// fill makes sure n bytes at pos are available, reading them into ef.buf.
// It returns io.EOF when pos is the end of the file and ErrTruncated when
// fewer than n bytes remain.
func (ef *eventFile) fill(pos int64, n int) error {
	if err := ef.present(pos, n); err != nil {
		return err
	}
	end := pos + int64(n)
	if b := ef.mapped(end); b != nil {
		ef.buf = b[pos:end:end]
		return nil
	}
	if pos >= ef.winPos && pos+int64(n) <= ef.winPos+int64(len(ef.win)) {
		ef.buf = ef.win[pos-ef.winPos : pos-ef.winPos+int64(n)]
		return nil
	}
	want := int64(max(n, readAhead))
	if pos+want > ef.size {
		want = ef.size - pos
	}
	// A fresh window each time: decoded events may still refer to the old one.
	win := make([]byte, want)
	if _, err := ef.f.ReadAt(win, pos); err != nil {
		return fmt.Errorf("binlog: read %s at %d: %w", ef.path, pos, err)
	}
	ef.win, ef.winPos = win, pos
	ef.buf = win[:n]
	return nil
}

// mapped returns the file's map when it reaches end, mapping the file again when it
// has grown past the map; nil when the file cannot be mapped.
func (ef *eventFile) mapped(end int64) []byte {
	if ef.m != nil && end <= int64(len(ef.m.b)) {
		return ef.m.b
	}
	if !ef.useMap {
		return nil
	}
	m, err := mapFile(ef.f, ef.size, ef.reserve)
	if err != nil {
		ef.useMap = false // e.g. a file system without mmap: read windows instead
		return nil
	}
	ef.m, ef.dec.keep = m, m
	return m.b
}

// next reads the event at pos. The length is validated before the body is
// read, so a corrupt length can never cause a huge allocation.
func (ef *eventFile) next(pos int64) (EventHeader, Event, error) {
	if err := ef.fill(pos, HeaderLen); err != nil {
		return EventHeader{}, nil, err
	}
	n, err := peekLength(ef.buf)
	if err != nil {
		return EventHeader{}, nil, err
	}
	if err := ef.fill(pos, int(n)); err != nil {
		return EventHeader{}, nil, err
	}
	h, ev, err := decodeEvent(ef.buf, &ef.dec)
	ef.dec.b = nil
	h.Pos, h.EndPos = pos, pos+int64(n)
	return h, ev, err
}

// header returns the header of the event at pos: from the map or the read window when
// it holds it, otherwise read alone, so stepping over events does not read what
// follows them.
func (ef *eventFile) header(pos int64) ([]byte, error) {
	if ef.useMap { // the map (made again if the file outgrew it) costs no read
		if err := ef.fill(pos, HeaderLen); err != nil {
			return nil, err
		}
		return ef.buf, nil
	}
	if pos >= ef.winPos && pos+HeaderLen <= ef.winPos+int64(len(ef.win)) {
		return ef.win[pos-ef.winPos:][:HeaderLen], nil
	}
	if err := ef.present(pos, HeaderLen); err != nil {
		return nil, err
	}
	if _, err := ef.f.ReadAt(ef.hdr[:], pos); err != nil {
		return nil, fmt.Errorf("binlog: read %s at %d: %w", ef.path, pos, err)
	}
	return ef.hdr[:], nil
}

// present returns nil when the file holds n bytes at pos, io.EOF when pos is its end
// and ErrTruncated when fewer remain (re-reading the size only when needed).
func (ef *eventFile) present(pos int64, n int) error {
	if pos+int64(n) > ef.size {
		st, err := ef.f.Stat()
		if err != nil {
			return fmt.Errorf("binlog: stat %s: %w", ef.path, err)
		}
		ef.size = st.Size()
	}
	if pos >= ef.size {
		return io.EOF
	}
	if pos+int64(n) > ef.size {
		return fmt.Errorf("%w: event at %d needs %d bytes, file has %d", ErrTruncated, pos, n, ef.size-pos)
	}
	return nil
}

// skipVerify is the largest event that skip reads to verify its checksum when the
// read window does not already hold it.
const skipVerify = 4 << 10

// skip returns where the event at pos, of length n (from its header), ends once the
// whole event is in the file, without decoding it. A small event, or one a read
// window already holds, is checked against its checksum; a larger one is not read
// at all.
func (ef *eventFile) skip(pos int64, n uint32) (int64, error) {
	end := pos + int64(n)
	if inWindow := pos >= ef.winPos && end <= ef.winPos+int64(len(ef.win)); !inWindow && n > skipVerify {
		return end, ef.present(pos, int(n))
	}
	if err := ef.fill(pos, int(n)); err != nil {
		return 0, err
	}
	if got, want := crc32.Checksum(ef.buf[:n-ChecksumLen], castagnoli), binary.LittleEndian.Uint32(ef.buf[n-ChecksumLen:]); got != want {
		return 0, fmt.Errorf("%w: checksum 0x%08x, stored 0x%08x", ErrCorrupt, got, want)
	}
	return end, nil
}

// fileHeader is what the two header events say about a file.
type fileHeader struct {
	desc FormatDescriptionEvent
	prev gtid.Set
	end  int64 // offset after Previous_gtids
}

// readHeader reads Format_description and Previous_gtids at the start of a file.
func (ef *eventFile) readHeader() (fileHeader, error) {
	var fh fileHeader
	h, ev, err := ef.next(FirstEventPos)
	if err == nil && h.Type != TypeFormatDescription {
		err = fmt.Errorf("%w: first event is %s, not Format_desc", ErrCorrupt, h.Type)
	}
	if err != nil {
		return fh, fmt.Errorf("binlog: %s at %d: %w", ef.path, FirstEventPos, err)
	}
	fh.desc = *ev.(*FormatDescriptionEvent)
	pos := h.EndPos
	h, ev, err = ef.next(pos)
	if err == nil && h.Type != TypePreviousGTIDs {
		err = fmt.Errorf("%w: second event is %s, not Previous_gtids", ErrCorrupt, h.Type)
	}
	if err != nil {
		return fh, fmt.Errorf("binlog: %s at %d: %w", ef.path, pos, err)
	}
	fh.prev = ev.(*PreviousGTIDsEvent).Set
	fh.end = h.EndPos
	return fh, nil
}

func readFileHeader(path string) (fileHeader, error) {
	ef, err := openEventFile(path)
	if err != nil {
		return fileHeader{}, err
	}
	defer ef.Close()
	return ef.readHeader()
}

// appendFileHeader builds magic + Format_description + Previous_gtids.
func appendFileHeader(b []byte, uuid gtid.UUID, serverID, now uint32, prev gtid.Set) []byte {
	b = append(b, Magic...)
	b = AppendEvent(b, &FormatDescriptionEvent{Version: FormatVersion, ServerUUID: uuid, ServerID: serverID, Created: now}, now, serverID)
	return AppendEvent(b, &PreviousGTIDsEvent{Set: prev}, now, serverID)
}

// tailScan is the result of checking a file event by event.
type tailScan struct {
	good  int64    // end of the last whole transaction or header/boundary event
	gtids gtid.Set // GTIDs of whole transactions before good
	last  Event    // last event before good (Stop/Rotate tell how the file ended)
	err   error    // why scanning stopped early; nil at a clean end
	errAt int64
}

// scanTail walks a file's events after its header and finds the end of the
// last complete transaction.
func (ef *eventFile) scanTail(start int64) tailScan {
	ts := tailScan{good: start}
	pos := start
	var cur gtid.GTID
	inTx := false
	for {
		h, ev, err := ef.next(pos)
		if errors.Is(err, io.EOF) {
			if inTx {
				ts.err, ts.errAt = fmt.Errorf("%w: transaction %v has no Commit", ErrTruncated, cur), pos
			}
			return ts
		}
		if err != nil {
			ts.err, ts.errAt = err, pos
			return ts
		}
		bad := ""
		switch e := ev.(type) {
		case *GTIDEvent:
			if inTx {
				bad = "Gtid inside a transaction"
			}
			inTx, cur = true, e.GTID
		case *RowsEvent, *QueryEvent:
			if !inTx {
				bad = h.Type.String() + " outside a transaction"
			}
		case *CommitEvent:
			if !inTx {
				bad = "Commit outside a transaction"
			}
			inTx = false
			ts.gtids.Add(cur)
		case *HeartbeatEvent, *StopEvent, *RotateEvent:
			if inTx {
				bad = h.Type.String() + " inside a transaction"
			}
		default:
			bad = h.Type.String() + " after the file header"
		}
		if bad != "" {
			ts.err, ts.errAt = fmt.Errorf("%w: %s", ErrCorrupt, bad), pos
			return ts
		}
		pos = h.EndPos
		if !inTx {
			ts.good, ts.last = pos, ev
		}
		if _, ok := ev.(*StopEvent); ok {
			return ts // nothing may follow a boundary; let the caller truncate
		}
		if _, ok := ev.(*RotateEvent); ok {
			return ts
		}
	}
}
