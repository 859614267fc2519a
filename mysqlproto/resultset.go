package mysqlproto

// writeResult writes res as an OK packet (no columns) or a result set in the text
// or binary row format. more sets SERVER_MORE_RESULTS_EXISTS. Rows from res.More
// are written as they are read, through the connection's write buffer, which
// sends them whenever it fills. aborted is the error that ended those rows early
// (sent as an ERR packet in place of the end packet); err is a write failure.
func (sess *session) writeResult(res *Result, more, binaryRows bool) (aborted, err error) {
	c := sess.conn
	status := sess.status()
	if more {
		status |= StatusMoreResultsExists
	}
	if res == nil {
		res = &Result{}
	}
	if res.More != nil {
		closed := false
		defer func() { // also when the source panics
			if !closed {
				res.More.Close()
			}
		}()
		if aborted, err = sess.writeRows(res, status, binaryRows); aborted != nil || err != nil {
			return aborted, err
		}
		closed = true
		return nil, c.writeEnd(status, res.More.Close())
	}
	if res.Columns == nil {
		return nil, c.writeOK(headerOK, res.AffectedRows, res.LastInsertID, status, res.Warnings, res.Info)
	}
	if _, err := sess.writeRows(res, status, binaryRows); err != nil {
		return nil, err
	}
	return nil, c.writeEnd(status, res.Warnings)
}

// writeRows writes a result set's column count, definitions and rows: res.Rows,
// then those of res.More until it ends. A row error from res.More is sent as an
// ERR packet and returned as aborted.
func (sess *session) writeRows(res *Result, status uint16, binaryRows bool) (aborted, err error) {
	c := sess.conn
	if err := c.WritePacket(appendLenEncInt(nil, uint64(len(res.Columns)))); err != nil {
		return nil, err
	}
	var buf []byte
	for i := range res.Columns {
		buf = appendColumnDef(buf[:0], &res.Columns[i])
		if err := c.WritePacket(buf); err != nil {
			return nil, err
		}
	}
	if c.capabilities&ClientDeprecateEOF == 0 {
		if err := c.writeEOF(status, 0); err != nil {
			return nil, err
		}
	}
	writeRow := func(row []any) error {
		if binaryRows {
			buf = appendBinaryRow(buf[:0], res.Columns, row)
		} else {
			buf = appendTextRow(buf[:0], res.Columns, row)
		}
		return c.WritePacket(buf)
	}
	for i, row := range res.Rows {
		if err := writeRow(row); err != nil {
			return nil, err
		}
		if res.More != nil {
			res.Rows[i] = nil // sent: a streamed result holds no more than a row
		}
	}
	if res.More == nil {
		return nil, nil
	}
	res.Rows = nil
	for {
		row, rerr := res.More.Next()
		if rerr != nil {
			return rerr, c.WriteError(rerr)
		}
		if row == nil {
			return nil, nil
		}
		if err := writeRow(row); err != nil {
			return nil, err
		}
	}
}

// appendColumnDef appends a Protocol::ColumnDefinition41.
func appendColumnDef(b []byte, col *Column) []byte {
	b = appendLenEncString(b, "def")
	b = appendLenEncString(b, col.Schema)
	b = appendLenEncString(b, col.Table)
	b = appendLenEncString(b, col.OrgTable)
	b = appendLenEncString(b, col.Name)
	b = appendLenEncString(b, col.OrgName)
	b = append(b, 0x0c)
	b = appendUint16(b, columnCharset(col))
	b = appendUint32(b, col.Length)
	b = append(b, col.Type)
	b = appendUint16(b, col.Flags)
	b = append(b, col.Decimals, 0, 0)
	return b
}

func columnCharset(col *Column) uint16 {
	if col.Charset != 0 {
		return col.Charset
	}
	switch col.Type {
	case TypeVarchar, TypeVarString, TypeString, TypeEnum, TypeSet, TypeJSON,
		TypeTinyBlob, TypeMediumBlob, TypeLongBlob, TypeBlob:
		if col.Flags&BinaryFlag != 0 {
			return CharsetBinary
		}
		return CharsetUTF8MB4
	}
	return CharsetBinary
}

// appendTextRow appends a text-protocol row: each value a length-encoded string,
// NULL as 0xfb. Missing trailing values are sent as NULL.
func appendTextRow(b []byte, cols []Column, row []any) []byte {
	for i := range cols {
		var v any
		if i < len(row) {
			v = row[i]
		}
		if v == nil {
			b = append(b, 0xfb)
			continue
		}
		if bs, ok := v.([]byte); ok {
			b = appendLenEncBytes(b, bs)
			continue
		}
		b = appendLenEncString(b, formatText(v, cols[i].Type))
	}
	return b
}
