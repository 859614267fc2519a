package session

import (
	"fmt"

	"github.com/binlite/binlite/mysqlerr"
)

// nextTxn holds the characteristics SET TRANSACTION without GLOBAL or SESSION
// gives the session's next transaction only (MySQL 8.4 manual 15.3.7): later
// transactions go back to the session's values, which the statement leaves as
// they were (@@transaction_isolation shows them).
type nextTxn struct {
	isolation         string // "" when not set
	readOnly, hasMode bool   // transaction_read_only, and whether it was set
}

// setNextTxn is SET TRANSACTION's characteristic name = v for the next
// transaction. MySQL refuses it inside a transaction (1568).
func (s *Session) setNextTxn(name string, v any) error {
	if s.txn != nil {
		return mysqlerr.New(mysqlerr.ErCantChangeTxCharacteristics, "Transaction characteristics can't be changed while a transaction is in progress")
	}
	switch name {
	case "transaction_isolation":
		s.nextTxn.isolation = fmt.Sprint(v)
	case "transaction_read_only":
		n, _ := v.(int64)
		s.nextTxn.readOnly, s.nextTxn.hasMode = n != 0, true
	}
	return nil
}

// isolationNext is the isolation level of the transaction that starts now.
func (s *Session) isolationNext() string {
	if s.nextTxn.isolation != "" {
		return s.nextTxn.isolation
	}
	v, _ := s.vars.Get("transaction_isolation", false)
	iso, _ := v.(string)
	return iso
}

// readOnlyNext reports whether the transaction that starts now (or the
// autocommitted statement that runs now) is READ ONLY.
func (s *Session) readOnlyNext() bool {
	if s.nextTxn.hasMode {
		return s.nextTxn.readOnly
	}
	return s.vars.Int("transaction_read_only") != 0
}

// endStatementTxn ends what the next-transaction characteristics applied to
// when a statement ran as its own transaction (autocommit, no open transaction).
func (s *Session) endStatementTxn() {
	if s.txn == nil {
		s.nextTxn = nextTxn{}
	}
}
