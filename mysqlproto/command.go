package mysqlproto

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"
	"unsafe"

	"github.com/binlite/binlite/mysqlerr"
)

// dispatch runs one command and writes its response (unflushed). Handler errors
// become ERR packets; only write failures are returned.
func (sess *session) dispatch(cmd byte, data []byte) error {
	c := sess.conn
	switch cmd {
	case ComQuit:
		sess.closing = true
		return nil
	case ComPing:
		return c.WriteOK(0, 0)
	case ComInitDB:
		db := string(data)
		if err := sess.handler.UseDB(db); err != nil {
			return c.WriteError(err)
		}
		sess.db = db
		sess.info.DB = db
		return c.WriteOK(0, 0)
	case ComQuery:
		return sess.query(payloadString(data))
	case ComFieldList:
		return sess.fieldList(data)
	case ComStatistics:
		return c.WritePacket([]byte(sess.srv.statistics()))
	case ComStmtPrepare:
		return sess.prepare(payloadString(data))
	case ComStmtExecute:
		return sess.execute(data)
	case ComStmtSendLongData:
		sess.sendLongData(data)
		return nil
	case ComStmtClose:
		sess.closeStmt(data)
		return nil
	case ComStmtReset:
		return sess.resetStmt(data)
	case ComStmtFetch:
		return c.WriteError(mysqlerr.New(mysqlerr.ErNotSupportedYet,
			"This version of binlite doesn't yet support 'cursors' (COM_STMT_FETCH)"))
	case ComSetOption:
		return sess.setOption(data)
	case ComResetConnection:
		return sess.resetConnection()
	}
	if rc, ok := sess.handler.(RawCommander); ok {
		if err := c.clearReadDeadline(); err != nil {
			return err
		}
		handled, err := rc.RawCommand(cmd, data, c)
		if err != nil {
			return c.WriteError(err)
		}
		if handled {
			return nil
		}
	}
	return c.WriteError(mysqlerr.New(mysqlerr.ErUnknownCom, "Unknown command %d", cmd))
}

// payloadString is a command's text without a copy: the payload is the
// command's own buffer (ReadPacket makes a new one for every command), never
// written after it is read, so the string may share it (a 50 MB query is then
// held once, not twice).
func payloadString(data []byte) string {
	if len(data) == 0 {
		return ""
	}
	return unsafe.String(&data[0], len(data))
}

func (sess *session) multiStatements() bool {
	return sess.conn.capabilities&ClientMultiStatements != 0
}

// query handles COM_QUERY: every result but the last carries
// SERVER_MORE_RESULTS_EXISTS, the one before a failing statement too.
func (sess *session) query(sql string) error {
	if sess.send == nil {
		sess.send = sess.sendResult // bound once: no closure per query
	}
	sess.sent, sess.ioErr, sess.aborted = false, nil, nil
	qerr := sess.handler.Query(sql, sess.multiStatements(), sess.send)
	switch {
	case sess.ioErr != nil:
		return sess.ioErr
	case sess.aborted != nil:
		return nil // its ERR packet ended the response
	case qerr != nil:
		return sess.answerError(qerr)
	case !sess.sent:
		_, err := sess.writeResult(&Result{}, false, false)
		return err
	}
	return nil
}

// answerError sends a statement's error as an ERR packet, or ends the connection
// without an answer when the statement's outcome is unknown
// (mysqlerr.ErrOutcomeUnknown): it may take effect although it failed here.
func (sess *session) answerError(err error) error {
	if errors.Is(err, mysqlerr.ErrOutcomeUnknown) {
		sess.log.Warn("ending the connection without an answer: the statement's outcome is unknown", "err", err)
		sess.closing = true
		sess.conn.discardOutput()
		return nil
	}
	return sess.conn.WriteError(err)
}

// sendResult writes one statement's result of a COM_QUERY (Handler.Query's send).
func (sess *session) sendResult(res *Result, more bool) error {
	sess.sent = true
	sess.aborted, sess.ioErr = sess.writeResult(res, more, false)
	if sess.ioErr != nil {
		return sess.ioErr
	}
	return sess.aborted
}

// fieldList handles COM_FIELD_LIST: table NUL-terminated, then the wildcard.
func (sess *session) fieldList(data []byte) error {
	r := &reader{buf: data}
	table := r.nulString()
	wildcard := string(r.rest())
	cols, err := sess.handler.FieldList(table, wildcard)
	if err != nil {
		return sess.conn.WriteError(err)
	}
	for i := range cols {
		if err := sess.conn.WritePacket(appendColumnDef(nil, &cols[i])); err != nil {
			return err
		}
	}
	return sess.conn.writeEnd(sess.status(), 0)
}

// setOption handles COM_SET_OPTION: 0 turns multi-statements on, 1 off.
func (sess *session) setOption(data []byte) error {
	if len(data) < 2 {
		return sess.conn.WriteError(malformed("COM_SET_OPTION"))
	}
	switch binary.LittleEndian.Uint16(data) {
	case 0:
		sess.conn.capabilities |= ClientMultiStatements
	case 1:
		sess.conn.capabilities &^= ClientMultiStatements
	default:
		return sess.conn.WriteError(mysqlerr.New(mysqlerr.ErUnknownCom, "Unknown COM_SET_OPTION value"))
	}
	return sess.conn.writeEnd(sess.status(), 0)
}

// resetConnection handles COM_RESET_CONNECTION: a fresh handler (and no prepared
// statements) on the same database.
func (sess *session) resetConnection() error {
	db := sess.db
	sess.closeHandler()
	if err := sess.open(db); err != nil {
		sess.closing = true
		return sess.conn.WriteError(err)
	}
	return sess.conn.WriteOK(0, 0)
}

func (s *Server) statistics() string {
	s.mu.Lock()
	threads, questions := len(s.conns), s.questions
	s.mu.Unlock()
	uptime := int64(time.Since(s.startTime).Seconds())
	qps := 0.0
	if uptime > 0 {
		qps = float64(questions) / float64(uptime)
	}
	return fmt.Sprintf("Uptime: %d  Threads: %d  Questions: %d  Slow queries: 0  Opens: 0  Open tables: 0  Queries per second avg: %.3f",
		uptime, threads, questions, qps)
}
