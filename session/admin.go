package session

import (
	"time"

	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sqlcompat"
)

// purge handles PURGE BINARY LOGS TO 'file' | BEFORE 'datetime'.
func (s *Session) purge(x *sqlcompat.PurgeBinaryLogs) error {
	if x.To != "" {
		if err := s.env.Log.PurgeTo(x.To); err != nil {
			return mysqlerr.New(mysqlerr.ErUnknownTargetBinlog, "Target log not found in binlog index (%v)", err)
		}
		return nil
	}
	var t time.Time
	var err error
	for _, layout := range []string{"2006-01-02 15:04:05", "2006-01-02 15:04:05.999999", "2006-01-02"} {
		if t, err = time.ParseInLocation(layout, x.Before, time.Local); err == nil {
			break
		}
	}
	if err != nil {
		return mysqlerr.New(mysqlerr.ErWrongArguments, "Incorrect arguments to PURGE LOGS BEFORE: %q", x.Before)
	}
	return s.env.Log.PurgeBefore(t)
}
