package server

import (
	"errors"
	"strings"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/gtid"
	"github.com/binlite/binlite/mysqlerr"
	"github.com/binlite/binlite/sysvar"
)

// setGTIDPurged is SET GLOBAL gtid_purged with MySQL 8.4's rules: 'set' replaces
// gtid_purged by a superset of it, '+set' adds to it; either way the GTIDs added
// must not be in gtid_executed (after RESET BINARY LOGS AND GTIDS, gtid_executed is
// empty and any set goes). They join gtid_executed and gtid_purged durably: it is
// how a node restored from a dump says which of its source's transactions it holds.
func (n *Node) setGTIDPurged(v any) error {
	text := strings.TrimSpace(sysvar.Format(v))
	spec, plus := strings.CutPrefix(text, "+")
	set, err := gtid.Parse(spec)
	if err != nil {
		return mysqlerr.New(mysqlerr.ErMalformedGTIDSpec, "Malformed GTID set specification '%s'.", text)
	}
	add := set
	if !plus {
		old := n.log.Purged()
		if !old.IsSubset(set) {
			return purgedConstraint("the new value must be a superset of the old value")
		}
		add = set.Subtract(old)
	}
	err = n.eng.AddPurged(add)
	var overlap *binlog.PurgedOverlapError
	if errors.As(err, &overlap) {
		return purgedConstraint("the added gtid set must not overlap with @@GLOBAL.GTID_EXECUTED")
	}
	if err != nil {
		return err
	}
	if !add.IsEmpty() {
		n.cfg.Logger.Info("gtid_purged: added to gtid_executed and gtid_purged", "added", add.String())
	}
	return nil
}

// gtidPurgedValue refuses NULL, which a string variable would otherwise take as empty.
func gtidPurgedValue(v any) (any, error) {
	if v == nil {
		return nil, mysqlerr.New(mysqlerr.ErWrongValueForVar, "Variable 'gtid_purged' can't be set to the value of 'NULL'")
	}
	return sysvar.Format(v), nil
}

func purgedConstraint(why string) error {
	return mysqlerr.New(mysqlerr.ErCantSetGTIDPurgedDueSetsConstraints, "@@GLOBAL.GTID_PURGED cannot be changed: %s", why)
}
