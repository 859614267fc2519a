package repltest

import "testing"

// TestTriggersAndViewsReplicate: pt-online-schema-change's three triggers on a
// table copy its writes into the new table on the source; the replica stores
// the rows the source logged (the triggers' rows included) without firing its
// own copies of the triggers, so each row is there once, and both end
// identical. A view made on the source reads the same on the replica.
func TestTriggersAndViewsReplicate(t *testing.T) {
	t.Parallel()
	src := startNode(t, "source", 1)
	rep := startNode(t, "replica", 2)
	createReplUser(t, src.db)
	replicate(t, rep.db, src.port())
	exec(t, src.db,
		"CREATE DATABASE osc",
		"CREATE TABLE osc.t (id INT AUTO_INCREMENT PRIMARY KEY, c VARCHAR(20), n INT)",
		"CREATE TABLE osc._t_new (id INT AUTO_INCREMENT PRIMARY KEY, c VARCHAR(20), n INT, x INT)",
		"INSERT INTO osc.t (c, n) VALUES ('a', 1), ('b', 2)",
		"CREATE TRIGGER `pt_osc_osc_t_del` AFTER DELETE ON `osc`.`t` FOR EACH ROW DELETE IGNORE FROM `osc`.`_t_new` WHERE `osc`.`_t_new`.`id` <=> OLD.`id`",
		"CREATE TRIGGER `pt_osc_osc_t_upd` AFTER UPDATE ON `osc`.`t` FOR EACH ROW BEGIN DELETE IGNORE FROM `osc`.`_t_new` WHERE !(OLD.`id` <=> NEW.`id`) AND `osc`.`_t_new`.`id` <=> OLD.`id`;REPLACE INTO `osc`.`_t_new` (`id`, `c`, `n`) VALUES (NEW.`id`, NEW.`c`, NEW.`n`);END ",
		"CREATE TRIGGER `pt_osc_osc_t_ins` AFTER INSERT ON `osc`.`t` FOR EACH ROW REPLACE INTO `osc`.`_t_new` (`id`, `c`, `n`) VALUES (NEW.`id`, NEW.`c`, NEW.`n`)",
		"INSERT LOW_PRIORITY IGNORE INTO osc._t_new (id, c, n) SELECT id, c, n FROM osc.t",
		"INSERT INTO osc.t (c, n) VALUES ('c', 3), ('d', 4)",
		"UPDATE osc.t SET n = n * 10 WHERE id <= 2",
		"UPDATE osc.t SET id = 20 WHERE id = 3",
		"DELETE FROM osc.t WHERE id = 4",
		"CREATE VIEW osc.v AS SELECT id, c FROM osc.t WHERE n > 5",
	)
	waitCaughtUp(t, src.db, rep.db)
	for _, c := range []struct{ q, want string }{
		{"SELECT id, c, n FROM osc.t ORDER BY id", "1|a|10 2|b|20 20|c|3"},
		{"SELECT id, c, n FROM osc._t_new ORDER BY id", "1|a|10 2|b|20 20|c|3"},
		{"SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = 'osc'", "3"},
		{"SELECT id, c FROM osc.v ORDER BY id", "1|a 2|b"},
	} {
		for _, db := range []struct {
			name string
			n    *node
		}{{"source", src}, {"replica", rep}} {
			if got := flatRows(rows(t, db.n.db, c.q)); got != c.want {
				t.Errorf("%s: %s = %s, want %s", db.name, c.q, got, c.want)
			}
		}
	}
	assertInSync(t, src.db, rep.db)
	// pt-osc's swap and clean-up.
	exec(t, src.db,
		"RENAME TABLE osc.t TO osc._t_old, osc._t_new TO osc.t",
		"DROP TABLE IF EXISTS osc._t_old",
		"DROP TRIGGER IF EXISTS osc.pt_osc_osc_t_del",
		"DROP TRIGGER IF EXISTS osc.pt_osc_osc_t_upd",
		"DROP TRIGGER IF EXISTS osc.pt_osc_osc_t_ins",
		"INSERT INTO osc.t (c, n, x) VALUES ('e', 5, 1)",
	)
	waitCaughtUp(t, src.db, rep.db)
	if got := flatRows(rows(t, rep.db, "SELECT id, c, n, x FROM osc.t ORDER BY id")); got != "1|a|10|NULL 2|b|20|NULL 20|c|3|NULL 21|e|5|1" {
		t.Errorf("replica after the swap: %s", got)
	}
	assertInSync(t, src.db, rep.db)
}

func flatRows(rs [][]string) string {
	out := ""
	for i, r := range rs {
		if i > 0 {
			out += " "
		}
		for j, v := range r {
			if j > 0 {
				out += "|"
			}
			out += v
		}
	}
	return out
}
