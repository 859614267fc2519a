package server

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/binlite/binlite/engine"
	"github.com/binlite/binlite/gtid"
	"github.com/binlite/binlite/mysqlerr"
)

// gtidFunctions are MySQL's GTID functions, registered on every SQLite connection.
// The waiting ones block the calling statement, as in MySQL.
func (n *Node) gtidFunctions() engine.Functions {
	parse := func(s string) (gtid.Set, error) {
		set, err := gtid.Parse(s)
		if err != nil {
			return set, mysqlerr.New(mysqlerr.ErMalformedGTIDSpec, "Malformed GTID set specification '%s'.", s)
		}
		return set, nil
	}
	return engine.Functions{
		"gtid_subset": func(a, b string) (int64, error) {
			sa, err := parse(a)
			if err != nil {
				return 0, err
			}
			sb, err := parse(b)
			if err != nil {
				return 0, err
			}
			if sa.IsSubset(sb) {
				return 1, nil
			}
			return 0, nil
		},
		"gtid_subtract": func(a, b string) (string, error) {
			sa, err := parse(a)
			if err != nil {
				return "", err
			}
			sb, err := parse(b)
			if err != nil {
				return "", err
			}
			return sa.Subtract(sb).String(), nil
		},
		// WAIT_FOR_EXECUTED_GTID_SET(set[, timeout]): 0 when executed, 1 on timeout.
		"wait_for_executed_gtid_set": func(s string, timeout ...any) (int64, error) {
			want, err := parse(s)
			if err != nil {
				return 0, err
			}
			var d time.Duration
			if len(timeout) > 0 {
				d = seconds(timeout[0])
			}
			if n.replicas.WaitExecuted(n.ctx, want, d) {
				return 0, nil
			}
			return 1, nil
		},
		"source_pos_wait": n.posWait,
		"master_pos_wait": n.posWait,
		// BINLOG_GTID_POS(file, pos) is MariaDB's: the GTID set executed at a position
		// of this node's binary log (NULL for a file not in the index), in MySQL's
		// form. A dump's CHANGE MASTER comment names a position; this names its GTIDs.
		"binlog_gtid_pos": func(file string, pos any) (any, error) {
			if b, isBytes := pos.([]byte); isBytes {
				pos = string(b)
			}
			p, err := strconv.ParseInt(strings.TrimSpace(fmt.Sprint(pos)), 10, 64)
			if err != nil {
				return nil, nil // not a position: NULL, as MariaDB answers
			}
			set, ok, err := n.log.GTIDsAt(file, p)
			if err != nil || !ok {
				return nil, err
			}
			return set.String(), nil
		},
	}
}

// posWait is SOURCE_POS_WAIT(file, pos[, timeout[, channel]]): 0 when reached, -1 on
// timeout, NULL when the channel's SQL thread is not running.
func (n *Node) posWait(file string, pos int64, rest ...any) (any, error) {
	var timeout time.Duration
	channel := ""
	if len(rest) > 0 {
		timeout = seconds(rest[0])
	}
	if len(rest) > 1 {
		if c, ok := rest[1].(string); ok {
			channel = c
		}
	}
	v, ok := n.replicas.WaitPosition(context.Background(), channel, file, pos, timeout)
	if !ok {
		return nil, nil
	}
	return v, nil
}

// seconds converts a SQL timeout argument (integer, real or text seconds).
func seconds(v any) time.Duration {
	switch t := v.(type) {
	case int64:
		return time.Duration(t) * time.Second
	case float64:
		return time.Duration(t * float64(time.Second))
	case string:
		if f, err := strconv.ParseFloat(t, 64); err == nil {
			return time.Duration(f * float64(time.Second))
		}
	}
	return 0
}
