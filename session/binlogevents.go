package session

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/mysqlerr"
	mp "github.com/binlite/binlite/mysqlproto"
	"github.com/binlite/binlite/sqlcompat"
)

// showBinlogEvents lists a binary log file's events as MySQL's SHOW BINLOG EVENTS
// does: [IN 'file'] [FROM pos] [LIMIT [offset,] n]; the first file by default.
func (s *Session) showBinlogEvents(x *sqlcompat.Show) (*mp.Result, error) {
	file := x.Log
	if file == "" {
		files, err := s.env.Log.Files()
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return stringResult(binlogEventColumns, nil), nil
		}
		file = files[0].Name
	}
	if strings.ContainsAny(file, `/\`) {
		return nil, mysqlerr.New(mysqlerr.ErUnknownTargetBinlog, "Could not find target log during relay log initialization")
	}
	if _, err := os.Stat(filepath.Join(s.env.Log.Dir(), file)); err != nil {
		return nil, mysqlerr.New(mysqlerr.ErMasterFatalReadingLog, "Error when executing command SHOW BINLOG EVENTS: Could not find target log")
	}
	r, err := binlog.OpenReader(s.env.Log.Dir(), file, x.Pos)
	if err != nil {
		return nil, mysqlerr.New(mysqlerr.ErMasterFatalReadingLog, "Error when executing command SHOW BINLOG EVENTS: %v", err)
	}
	defer r.Close()
	rows := [][]any{}
	skip, limit := x.Offset, x.Limit
	for limit != 0 {
		ev, h, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, mysqlerr.New(mysqlerr.ErMasterFatalReadingLog, "Error when executing command SHOW BINLOG EVENTS: %v", err)
		}
		if h.File != file {
			break // one file, as MySQL shows
		}
		if skip > 0 {
			skip--
			continue
		}
		rows = append(rows, []any{h.File, h.Pos, eventTypeName(ev), int64(h.ServerID), h.EndPos, eventInfo(ev)})
		if limit > 0 {
			limit--
		}
		if _, rotated := ev.(*binlog.RotateEvent); rotated {
			break
		}
	}
	return stringResult(binlogEventColumns, rows), nil
}

var binlogEventColumns = []string{"Log_name", "Pos", "Event_type", "Server_id", "End_log_pos", "Info"}

// eventTypeName uses MySQL's event names where binlite has the same event.
func eventTypeName(ev binlog.Event) string {
	switch e := ev.(type) {
	case *binlog.FormatDescriptionEvent:
		return "Format_desc"
	case *binlog.PreviousGTIDsEvent:
		return "Previous_gtids"
	case *binlog.GTIDEvent:
		return "Gtid"
	case *binlog.RowsEvent:
		if len(e.Rows) > 0 {
			switch e.Rows[0].Op {
			case binlog.OpInsert:
				return "Write_rows"
			case binlog.OpUpdate:
				return "Update_rows"
			}
			return "Delete_rows"
		}
		return "Rows"
	case *binlog.QueryEvent:
		return "Query"
	case *binlog.CommitEvent:
		return "Xid"
	case *binlog.RotateEvent:
		return "Rotate"
	case *binlog.StopEvent:
		return "Stop"
	}
	return ev.Type().String()
}

func eventInfo(ev binlog.Event) string {
	switch e := ev.(type) {
	case *binlog.FormatDescriptionEvent:
		return fmt.Sprintf("Server ver: binlite, Binlog ver: %d, server uuid %s", e.Version, e.ServerUUID)
	case *binlog.PreviousGTIDsEvent:
		return e.Set.String()
	case *binlog.GTIDEvent:
		return fmt.Sprintf("SET @@SESSION.GTID_NEXT= '%s'", e.GTID)
	case *binlog.RowsEvent:
		return fmt.Sprintf("table: `%s`.`%s`, %d row(s)", e.Schema, e.Table, len(e.Rows))
	case *binlog.QueryEvent:
		return fmt.Sprintf("use `%s`; %s", e.Schema, e.SQL)
	case *binlog.CommitEvent:
		return "COMMIT"
	case *binlog.RotateEvent:
		return fmt.Sprintf("%s;pos=%d", e.NextFile, e.Position)
	}
	return ""
}
