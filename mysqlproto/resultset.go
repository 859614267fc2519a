package mysqlproto

// writeResult writes res as an OK packet (no columns) or a result set in the text
// or binary row format. more sets SERVER_MORE_RESULTS_EXISTS.
func (sess *session) writeResult(res *Result, more, binaryRows bool) error {
	c := sess.conn
	status := sess.status()
	if more {
		status |= StatusMoreResultsExists
	}
	if res == nil {
		res = &Result{}
	}
	if res.Columns == nil {
		return c.writeOK(headerOK, res.AffectedRows, res.LastInsertID, status, res.Warnings, res.Info)
	}
	if err := c.WritePacket(appendLenEncInt(nil, uint64(len(res.Columns)))); err != nil {
		return err
	}
	for i := range res.Columns {
		if err := c.WritePacket(appendColumnDef(nil, &res.Columns[i])); err != nil {
			return err
		}
	}
	if c.capabilities&ClientDeprecateEOF == 0 {
		if err := c.writeEOF(status, 0); err != nil {
			return err
		}
	}
	var buf []byte
	for _, row := range res.Rows {
		if binaryRows {
			buf = appendBinaryRow(buf[:0], res.Columns, row)
		} else {
			buf = appendTextRow(buf[:0], res.Columns, row)
		}
		if err := c.WritePacket(buf); err != nil {
			return err
		}
	}
	return c.writeEnd(status, res.Warnings)
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
