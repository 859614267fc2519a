package compiler

import (
	"strings"
	"testing"

	"github.com/binlite/binlite/mysqlerr"
)

// TestTriggerStatements: the statements pt-online-schema-change's triggers run
// compile with NEW and OLD naming SQLite's trigger rows; a SELECT is refused as
// MySQL refuses it, and OLD in an INSERT trigger is an unknown column.
func TestTriggerStatements(t *testing.T) {
	def := mustTable(t, "CREATE TABLE t (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, c VARCHAR(10), d DECIMAL(6,2), u BIGINT UNSIGNED)")
	cat := testCatalog{
		"d.t":      def,
		"d._t_new": mustTable(t, "CREATE TABLE _t_new (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, c VARCHAR(10), d DECIMAL(6,2), u BIGINT UNSIGNED, x INT)"),
	}
	for _, tc := range []struct {
		event, sql string
		has        []string
	}{
		{"INSERT", "REPLACE INTO `d`.`_t_new` (`id`, `c`, `d`, `u`) VALUES (NEW.`id`, NEW.`c`, NEW.`d`, NEW.`u`)", []string{"REPLACE INTO `_t_new`", "`NEW`.`c`"}},
		{"UPDATE", "DELETE IGNORE FROM `d`.`_t_new` WHERE !(OLD.`id` <=> NEW.`id`) AND `d`.`_t_new`.`id` <=> OLD.`id`", []string{"DELETE FROM `_t_new`", "`OLD`.`id`"}},
		{"DELETE", "DELETE IGNORE FROM `d`.`_t_new` WHERE `d`.`_t_new`.`id` <=> OLD.`id`", []string{"`OLD`.`id`"}},
	} {
		stmts, tables, err := TriggerStatement(tc.sql, Trigger{DB: "d", Table: def, Event: tc.event}, cat)
		if err != nil {
			t.Fatalf("%s: %v", tc.sql, err)
		}
		all := strings.Join(stmts, "\n")
		for _, h := range tc.has {
			if !strings.Contains(all, h) {
				t.Errorf("%s:\n%s\nlacks %s", tc.sql, all, h)
			}
		}
		if len(tables) == 0 || tables[0] != "_t_new" {
			t.Errorf("%s: tables %v", tc.sql, tables)
		}
		t.Log(all)
	}
	if _, _, err := TriggerStatement("SELECT 1", Trigger{DB: "d", Table: def, Event: "INSERT"}, cat); !mysqlerr.Is(err, mysqlerr.ErSpNoRetset) {
		t.Errorf("SELECT in a trigger: %v", err)
	}
	if _, _, err := TriggerStatement("DELETE FROM _t_new WHERE id = OLD.id", Trigger{DB: "d", Table: def, Event: "INSERT"}, cat); err == nil {
		t.Errorf("OLD in an INSERT trigger compiled")
	}
}
