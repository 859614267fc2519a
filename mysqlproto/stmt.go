package mysqlproto

import (
	"encoding/binary"

	"github.com/binlite/binlite/mysqlerr"
)

// lastPreparedID is MariaDB's "the statement prepared last" id.
const lastPreparedID = 0xffffffff

// preparedStmt is the protocol-side state of a prepared statement: the handler's
// Stmt plus what the wire protocol carries between commands.
type preparedStmt struct {
	id         uint32
	stmt       Stmt
	numParams  int
	paramTypes []uint16       // from the last execute that bound them; nil before
	longData   map[int][]byte // COM_STMT_SEND_LONG_DATA, until the next execute/reset
	longSize   int
	longErr    error // reported by the next execute, as MySQL does
}

// prepare handles COM_STMT_PREPARE.
func (sess *session) prepare(sql string) error {
	c := sess.conn
	st, err := sess.handler.Prepare(sql)
	if err != nil {
		return c.WriteError(err)
	}
	n := st.NumParams()
	if n < 0 || n > 0xffff {
		sess.safe("Stmt.Close", st.Close)
		return c.WriteError(mysqlerr.New(mysqlerr.ErUnknownError, "Prepared statement has %d parameters", n))
	}
	cols := st.Columns()
	if len(cols) > 0xffff {
		sess.safe("Stmt.Close", st.Close)
		return c.WriteError(mysqlerr.New(mysqlerr.ErUnknownError, "Prepared statement has %d columns", len(cols)))
	}
	sess.nextID++
	if sess.nextID == lastPreparedID || sess.nextID == 0 {
		sess.nextID = 1
	}
	ps := &preparedStmt{id: sess.nextID, stmt: st, numParams: n}
	sess.stmts[ps.id] = ps
	sess.lastID = ps.id

	b := []byte{headerOK}
	b = appendUint32(b, ps.id)
	b = appendUint16(b, uint16(len(cols)))
	b = appendUint16(b, uint16(n))
	b = append(b, 0, 0, 0) // reserved, warning count
	if err := c.WritePacket(b); err != nil {
		return err
	}
	status := sess.status()
	if n > 0 {
		// Parameter types are unknown until execute: describe them generically.
		param := Column{Name: "?", Type: TypeVarString, Charset: CharsetBinary, Flags: BinaryFlag}
		def := appendColumnDef(nil, &param)
		for range n {
			if err := c.WritePacket(def); err != nil {
				return err
			}
		}
		if c.capabilities&ClientDeprecateEOF == 0 {
			if err := c.writeEOF(status, 0); err != nil {
				return err
			}
		}
	}
	if len(cols) > 0 {
		for i := range cols {
			if err := c.WritePacket(appendColumnDef(nil, &cols[i])); err != nil {
				return err
			}
		}
		if c.capabilities&ClientDeprecateEOF == 0 {
			if err := c.writeEOF(status, 0); err != nil {
				return err
			}
		}
	}
	return nil
}

// lookupStmt finds a statement by the id leading data.
func (sess *session) lookupStmt(data []byte) (*preparedStmt, uint32, bool) {
	if len(data) < 4 {
		return nil, 0, false
	}
	id := binary.LittleEndian.Uint32(data)
	if id == lastPreparedID {
		id = sess.lastID
	}
	ps, ok := sess.stmts[id]
	return ps, id, ok
}

// execute handles COM_STMT_EXECUTE. A read-only cursor request is answered with
// the whole result set, which clients accept when no cursor flag is returned.
func (sess *session) execute(data []byte) error {
	c := sess.conn
	if len(data) < 4 {
		return c.WriteError(malformed("COM_STMT_EXECUTE"))
	}
	ps, id, ok := sess.lookupStmt(data)
	if !ok {
		return c.WriteError(errUnknownStmt(id, "mysqld_stmt_execute"))
	}
	_, args, err := ps.decodeExecute(data)
	longErr := ps.longErr
	ps.clearLongData()
	if err != nil {
		return c.WriteError(err)
	}
	if longErr != nil {
		return c.WriteError(longErr)
	}
	res, err := ps.stmt.Execute(args)
	if err != nil {
		return sess.answerError(err)
	}
	_, err = sess.writeResult(res, false, true)
	return err
}

func (ps *preparedStmt) clearLongData() {
	ps.longData, ps.longSize, ps.longErr = nil, 0, nil
}

// sendLongData handles COM_STMT_SEND_LONG_DATA, which has no response: problems
// are remembered and reported by the next execute.
func (sess *session) sendLongData(data []byte) {
	if len(data) < 6 {
		return
	}
	ps, _, ok := sess.lookupStmt(data)
	if !ok {
		return
	}
	param := int(binary.LittleEndian.Uint16(data[4:]))
	chunk := data[6:]
	switch {
	case ps.longErr != nil:
		return
	case param >= ps.numParams:
		ps.longErr = mysqlerr.New(mysqlerr.ErWrongArguments,
			"Incorrect arguments to mysqld_stmt_send_long_data")
		return
	case ps.longSize+len(chunk) > sess.srv.cfg.MaxAllowedPacket:
		ps.longErr = mysqlerr.New(mysqlerr.ErNetPacketTooLarge,
			"Parameter of prepared statement which is set through mysql_send_long_data() is longer than 'max_allowed_packet' bytes")
		ps.longData, ps.longSize = nil, 0
		return
	}
	if ps.longData == nil {
		ps.longData = map[int][]byte{}
	}
	ps.longData[param] = append(ps.longData[param], chunk...)
	ps.longSize += len(chunk)
}

// closeStmt handles COM_STMT_CLOSE (no response).
func (sess *session) closeStmt(data []byte) {
	ps, id, ok := sess.lookupStmt(data)
	if !ok {
		return
	}
	delete(sess.stmts, id)
	sess.safe("Stmt.Close", ps.stmt.Close)
}

// resetStmt handles COM_STMT_RESET: drop long data, keep the statement.
func (sess *session) resetStmt(data []byte) error {
	ps, id, ok := sess.lookupStmt(data)
	if !ok {
		return sess.conn.WriteError(errUnknownStmt(id, "mysqld_stmt_reset"))
	}
	ps.clearLongData()
	return sess.conn.WriteOK(0, 0)
}
