package binlog

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Dump prints the file at path the way `mysqlbinlog -v` does: "# at POS",
// a header line per event, SQL for queries and commented pseudo-SQL for row
// images. Times print in UTC. On a damaged event it prints what it read so
// far and returns an error naming the position.
func Dump(w io.Writer, path string) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# binlite binlog dump of %s\n", path)
	err := ReadFile(path, func(h EventHeader, ev Event) error {
		dumpEvent(bw, h, ev)
		return nil
	})
	if err != nil {
		fmt.Fprintf(bw, "# ERROR: %v\n", err)
	} else {
		bw.WriteString("# End of log file\n")
	}
	if ferr := bw.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("binlog: dump %s: %w", path, ferr)
	}
	return err
}

func dumpTime(sec uint32) string {
	return time.Unix(int64(sec), 0).UTC().Format("060102 15:04:05")
}

func dumpEvent(w *bufio.Writer, h EventHeader, ev Event) {
	fmt.Fprintf(w, "# at %d\n#%s server id %d  end_log_pos %d CRC32 0x%08x \t", h.Pos, dumpTime(h.Timestamp), h.ServerID, h.EndPos, h.CRC)
	switch e := ev.(type) {
	case *FormatDescriptionEvent:
		fmt.Fprintf(w, "Start: binlite binlog v %d, server uuid %s created %s\n", e.Version, e.ServerUUID, dumpTime(e.Created))
	case *PreviousGTIDsEvent:
		s := e.Set.String()
		if s == "" {
			s = "[empty]"
		}
		fmt.Fprintf(w, "Previous-GTIDs\n# %s\n", s)
	case *GTIDEvent:
		fmt.Fprintf(w, "GTID\t%s\toriginal_committed_timestamp=%d\timmediate_commit_timestamp=%d", e.GTID, e.OriginalCommitUS, e.ImmediateCommitUS)
		if len(e.Schemas) > 0 {
			fmt.Fprintf(w, "\tschemas=%s", strings.Join(e.Schemas, ","))
		}
		fmt.Fprintf(w, "\nSET @@SESSION.GTID_NEXT= '%s'/*!*/;\nBEGIN\n/*!*/;\n", e.GTID)
	case *QueryEvent:
		fmt.Fprintf(w, "Query\n")
		if e.Schema != "" {
			fmt.Fprintf(w, "use %s/*!*/;\n", quoteIdent(e.Schema))
		}
		fmt.Fprintf(w, "SET TIMESTAMP=%d/*!*/;\n%s\n/*!*/;\n", h.Timestamp, e.SQL)
	case *RowsEvent:
		dumpRows(w, e)
	case *CommitEvent:
		w.WriteString("Commit\nCOMMIT/*!*/;\n")
	case *HeartbeatEvent:
		w.WriteString("Heartbeat\n")
	case *RotateEvent:
		fmt.Fprintf(w, "Rotate to %s  pos: %d\n", e.NextFile, e.Position)
	case *StopEvent:
		w.WriteString("Stop\n")
	}
}

func dumpRows(w *bufio.Writer, e *RowsEvent) {
	kind := map[Op]string{OpInsert: "Write_rows", OpUpdate: "Update_rows", OpDelete: "Delete_rows"}
	first := "Rows"
	if len(e.Rows) > 0 {
		first = kind[e.Rows[0].Op]
	}
	table := quoteIdent(e.Schema) + "." + quoteIdent(e.Table)
	fmt.Fprintf(w, "%s: table %s columns (%s) rows %d\n", first, table, strings.Join(e.Columns, ","), len(e.Rows))
	for _, r := range e.Rows {
		switch r.Op {
		case OpInsert:
			fmt.Fprintf(w, "### INSERT INTO %s\n### SET\n", table)
			dumpImage(w, r.After)
		case OpUpdate:
			fmt.Fprintf(w, "### UPDATE %s\n### WHERE\n", table)
			dumpImage(w, r.Before)
			w.WriteString("### SET\n")
			dumpImage(w, r.After)
		case OpDelete:
			fmt.Fprintf(w, "### DELETE FROM %s\n### WHERE\n", table)
			dumpImage(w, r.Before)
		}
	}
}

func dumpImage(w *bufio.Writer, img []Value) {
	for i, v := range img {
		fmt.Fprintf(w, "###   @%d=%s /* %s */\n", i+1, dumpValue(v), v.Kind)
	}
}

func dumpValue(v Value) string {
	switch v.Kind {
	case KindInt:
		return strconv.FormatInt(v.Int, 10)
	case KindReal:
		return strconv.FormatFloat(v.Real, 'g', -1, 64)
	case KindText, KindBlob:
		return quoteString(v.Bytes)
	}
	return "NULL"
}

// quoteString quotes like mysqlbinlog: printable bytes as is, quote and
// backslash escaped, anything else as \xNN.
func quoteString(b []byte) string {
	var s strings.Builder
	s.WriteByte('\'')
	for _, c := range b {
		switch {
		case c == '\'' || c == '\\':
			s.WriteByte('\\')
			s.WriteByte(c)
		case c >= 0x20 && c < 0x7f || c >= 0x80:
			s.WriteByte(c) // keep UTF-8 text readable
		default:
			fmt.Fprintf(&s, "\\x%02x", c)
		}
	}
	s.WriteByte('\'')
	return s.String()
}

func quoteIdent(s string) string {
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}
