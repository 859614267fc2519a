package difftest

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-mysql-org/go-mysql/client"
	"github.com/go-mysql-org/go-mysql/mysql"
)

// Collation is the connection collation both servers are asked for in the handshake
// (MariaDB 10.11 does not know MySQL 8.4's default, utf8mb4_0900_ai_ci).
const Collation = "utf8mb4_general_ci"

// Timeout bounds a statement's round trip, so a hung server fails the test instead
// of hanging it.
const Timeout = 30 * time.Second

// Conn is one MySQL session on one server, through a client that shows the column
// metadata (type codes, flags, decimals) the contract compares.
type Conn struct {
	Server string // "MariaDB" or "binlite", for messages
	addr   string // host:port, or a unix socket path
	db     string
	c      *client.Conn
}

// Dial opens a session as root without a password on addr (host:port or a socket path).
func Dial(server, addr string) (*Conn, error) {
	c := &Conn{Server: server, addr: addr}
	return c, c.dial()
}

func (c *Conn) dial() error {
	cc, err := client.ConnectWithTimeout(c.addr, "root", "", c.db, Timeout, func(cc *client.Conn) error {
		cc.ReadTimeout, cc.WriteTimeout = Timeout, Timeout
		return cc.SetCollation(Collation)
	})
	if err != nil {
		return fmt.Errorf("%s: connect to %s: %w", c.Server, c.addr, err)
	}
	c.c = cc
	return nil
}

// Close ends the session.
func (c *Conn) Close() error {
	if c.c == nil {
		return nil
	}
	return c.c.Close()
}

// Reconnect replaces a session the client lost, in the database last selected with Use.
func (c *Conn) Reconnect() error {
	c.Close()
	return c.dial()
}

// Use remembers db as the database Reconnect selects; the caller sends USE itself.
func (c *Conn) Use(db string) { c.db = db }

// Run sends one statement in the text protocol and reduces the reply to an Answer.
// A statement that reports warnings is followed by SHOW WARNINGS to read their codes.
// The returned error is a harness problem (the session is lost or the reply could
// not be read); a MySQL error is part of the Answer.
func (c *Conn) Run(sql string) (*Answer, error) {
	res, err := c.c.Execute(sql)
	if err != nil {
		return c.failed(err, sql)
	}
	defer res.Close()
	a := &Answer{}
	if res.Resultset != nil && len(res.Fields) > 0 {
		a.Columns = columnsOf(res.Fields)
		a.Rows = make([][]Value, 0, len(res.RowDatas))
		for _, rd := range res.RowDatas {
			row, err := textRow(rd, len(res.Fields))
			if err != nil {
				return &Answer{Harness: err.Error()}, fmt.Errorf("%s: %s: %w", c.Server, sql, err)
			}
			a.Rows = append(a.Rows, row)
		}
	} else {
		a.Affected, a.InsertID = res.AffectedRows, res.InsertId
	}
	if res.Warnings > 0 {
		a.Warnings, a.WarnErr = c.warnings()
	}
	return a, nil
}

// textRow decodes a text-protocol row: length-encoded strings, 0xFB for NULL.
func textRow(rd []byte, n int) ([]Value, error) {
	row := make([]Value, n)
	pos := 0
	for i := range row {
		if pos >= len(rd) {
			return nil, fmt.Errorf("row ends after %d of %d values", i, n)
		}
		v, isNull, size, err := mysql.LengthEncodedString(rd[pos:])
		if err != nil {
			return nil, err
		}
		pos += size
		if isNull {
			row[i] = Null
		} else {
			row[i] = Text(string(v))
		}
	}
	return row, nil
}

// warnings reads the codes SHOW WARNINGS lists (its second column).
func (c *Conn) warnings() ([]uint16, string) {
	res, err := c.c.Execute("SHOW WARNINGS")
	if err != nil {
		return nil, err.Error()
	}
	defer res.Close()
	if len(res.Fields) < 2 {
		return nil, fmt.Sprintf("SHOW WARNINGS returned %d columns", len(res.Fields))
	}
	codes := []uint16{}
	for _, rd := range res.RowDatas {
		row, err := textRow(rd, len(res.Fields))
		if err != nil {
			return nil, err.Error()
		}
		code, err := strconv.ParseUint(row[1].S, 10, 16)
		if err != nil {
			return nil, fmt.Sprintf("SHOW WARNINGS code %q", row[1].S)
		}
		codes = append(codes, uint16(code))
	}
	return codes, ""
}

// RunPrepared sends one statement as a prepared statement (COM_STMT_PREPARE, then
// COM_STMT_EXECUTE with args bound, in the binary protocol) and reduces the reply to
// an Answer whose rows are spelled as the text protocol spells them (binaryRow), so
// that it compares with the text statement's answer. Errors as Run's.
func (c *Conn) RunPrepared(sql string, args []any) (*Answer, error) {
	st, err := c.c.Prepare(sql)
	if err != nil {
		return c.failed(err, "prepare "+sql)
	}
	defer st.Close()
	res, err := st.Execute(args...)
	if err != nil {
		return c.failed(err, "execute "+sql)
	}
	defer res.Close()
	a := &Answer{}
	if res.Resultset != nil && len(res.Fields) > 0 {
		a.Columns = columnsOf(res.Fields)
		a.Rows = make([][]Value, 0, len(res.Values))
		for _, vals := range res.Values {
			a.Rows = append(a.Rows, binaryRow(res.Fields, vals))
		}
	} else {
		a.Affected, a.InsertID = res.AffectedRows, res.InsertId
	}
	if res.Warnings > 0 {
		a.Warnings, a.WarnErr = c.warnings()
	}
	return a, nil
}

// binaryRow spells a binary-protocol row as the text protocol does: numbers in
// decimal (a YEAR in four digits, ZEROFILL padded to the display width), a
// temporal value with exactly its column's fractional digits; FLOAT and DOUBLE
// in Go's shortest form (Classify's caller reconciles them, floatsAsWanted).
func binaryRow(fields []*mysql.Field, vals []mysql.FieldValue) []Value {
	row := make([]Value, len(vals))
	for i := range vals {
		v, f := &vals[i], fields[i]
		var s string
		switch v.Type {
		case mysql.FieldValueTypeNull:
			row[i] = Null
			continue
		case mysql.FieldValueTypeUnsigned:
			s = strconv.FormatUint(v.AsUint64(), 10)
		case mysql.FieldValueTypeSigned:
			s = strconv.FormatInt(v.AsInt64(), 10)
		case mysql.FieldValueTypeFloat:
			bits := 64
			if f.Type == mysql.MYSQL_TYPE_FLOAT {
				bits = 32
			}
			s = strconv.FormatFloat(v.AsFloat64(), 'g', -1, bits)
		default:
			s = string(v.AsString())
		}
		switch f.Type {
		case mysql.MYSQL_TYPE_YEAR:
			s = fmt.Sprintf("%04s", s)
		case mysql.MYSQL_TYPE_DATETIME, mysql.MYSQL_TYPE_TIMESTAMP, mysql.MYSQL_TYPE_TIME:
			s = fractionDigits(s, int(f.Decimal))
		case mysql.MYSQL_TYPE_TINY, mysql.MYSQL_TYPE_SHORT, mysql.MYSQL_TYPE_INT24, mysql.MYSQL_TYPE_LONG, mysql.MYSQL_TYPE_LONGLONG:
			if f.Flag&mysql.ZEROFILL_FLAG != 0 && len(s) < int(f.ColumnLength) {
				s = strings.Repeat("0", int(f.ColumnLength)-len(s)) + s
			}
		}
		row[i] = Text(s)
	}
	return row
}

// fractionDigits gives a temporal value's text exactly n fractional digits.
func fractionDigits(s string, n int) string {
	if n > 6 {
		n = 0 // "not fixed": the text protocol shows what the value has
	}
	whole, frac, _ := strings.Cut(s, ".")
	if n == 0 {
		return whole
	}
	frac += strings.Repeat("0", 6)
	return whole + "." + frac[:n]
}

// failed is the Answer to a statement that got an error: MySQL's error is the
// answer; anything else is a harness problem, returned as the error too.
func (c *Conn) failed(err error, what string) (*Answer, error) {
	var me *mysql.MyError
	if errors.As(err, &me) {
		return &Answer{Err: me.Code, ErrMsg: me.Message}, nil
	}
	return &Answer{Harness: err.Error()}, fmt.Errorf("%s: %s: %w", c.Server, what, err)
}

// columnsOf is a result's column metadata as an Answer compares it.
func columnsOf(fields []*mysql.Field) []Column {
	cols := make([]Column, len(fields))
	for i, f := range fields {
		cols[i] = Column{
			Name:     string(f.Name),
			Type:     f.Type,
			Unsigned: f.Flag&mysql.UNSIGNED_FLAG != 0,
			Binary:   f.Flag&mysql.BINARY_FLAG != 0,
			Decimals: f.Decimal,
		}
	}
	return cols
}
