package engine

import (
	"fmt"
	"strings"

	"github.com/binlite/binlite/mysqlerr"
)

// Users' triggers (CREATE TRIGGER) are kept in their table's MySQL definition,
// body compiled (catalog.Trigger.SQLite). After every DDL the SQLite triggers
// are made to match them (syncTriggers), as foreign keys' are: a table that an
// ALTER rebuilt, renamed or dropped carries the right ones again without each
// DDL knowing about triggers.
//
// One SQLite trigger runs, in MySQL's order, every trigger of a table with the
// same timing and event (SQLite does not promise an order between triggers).
// None fires while a connection replays logged row changes: MySQL replicas
// apply the rows a source's triggers changed, which its binary log holds, and
// fire no trigger. A trigger that names a table which no longer exists fails
// when it fires (1146), as MySQL's does; SQLite could not keep such a trigger
// without refusing every later ALTER TABLE of the schema.

// trgPrefix names the SQLite triggers syncTriggers owns.
const trgPrefix = "binlite_trg:"

// userTriggers are the SQLite triggers cat's definitions ask for, by name.
func userTriggers(cat catalog, schema string) map[string]string {
	out := map[string]string{}
	for _, t := range cat {
		if t.Def == nil || len(t.Def.Triggers) == 0 || len(t.Columns) == 0 {
			continue
		}
		bodies := map[[2]string][]string{}
		for _, tr := range t.Def.Triggers {
			k := [2]string{tr.Timing, tr.Event}
			missing := ""
			for _, r := range tr.Refs {
				if cat.lookup(r) == nil {
					missing = r
					break
				}
			}
			if missing != "" {
				msg := fmt.Sprintf("Table '%s.%s' doesn't exist", schema, missing)
				bodies[k] = append(bodies[k], "SELECT binlite_fail("+fmt.Sprint(mysqlerr.ErNoSuchTable)+", "+sqlQuote(msg)+");")
				continue
			}
			bodies[k] = append(bodies[k], tr.SQLite)
		}
		for k, b := range bodies {
			name := trgPrefix + t.Name + ":" + strings.ToLower(k[0]+":"+k[1])
			out[name] = "CREATE TRIGGER " + quoteIdent(name) + " " + k[0] + " " + k[1] + " ON " + quoteIdent(t.Name) +
				" FOR EACH ROW WHEN NOT binlite_replaying() BEGIN " + strings.Join(b, " ") + " END"
		}
	}
	return out
}

// syncTriggers makes the schema's SQLite triggers for users' triggers those of
// cat, inside the caller's transaction.
func syncTriggers(c *sqliteConn, cat catalog, schema string) error {
	if err := syncTriggerSet(c, trgPrefix, userTriggers(cat, schema)); err != nil {
		return fmt.Errorf("engine: triggers: %w", err)
	}
	return nil
}

// triggerAutoInc is a trigger's write into an AUTO_INCREMENT column
// (compiler.TriggerAutoIncFunc): the value, or NULL (SQLite's next id) for
// NULL or 0.
func triggerAutoInc(v any) (any, error) {
	gen, big := autoIncKind(v)
	if big {
		return nil, fnError(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'AUTO_INCREMENT values above 9223372036854775807'")
	}
	if gen {
		return nil, nil
	}
	return v, nil
}

// triggerAutoIncNull is triggerAutoInc under NO_AUTO_VALUE_ON_ZERO: only NULL
// asks for the next id.
func triggerAutoIncNull(v any) (any, error) {
	if _, big := autoIncKind(v); big {
		return nil, fnError(mysqlerr.ErNotSupportedYet, "This version of binlite doesn't yet support 'AUTO_INCREMENT values above 9223372036854775807'")
	}
	return v, nil
}
