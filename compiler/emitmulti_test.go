package compiler

import (
	"errors"
	"slices"
	"testing"

	"github.com/binlite/binlite/mysqlerr"
)

// TestEmitSteps pins statements compiled to several SQLite steps: writes to
// several tables through a snapshot of the join's rowids, UPDATE ... ORDER BY
// row by row in MySQL's order, INSERT IGNORE rows apart where a CHECK or a
// foreign key may refuse one, and IGNORE writes that count the rows they meet.
func TestEmitSteps(t *testing.T) {
	cat := testCatalog{
		"d.a": mustTable(t, "CREATE TABLE a (id INT PRIMARY KEY, n INT)"),
		"d.o": mustTable(t, "CREATE TABLE o (id INT PRIMARY KEY, a_id INT, s VARCHAR(5), FOREIGN KEY (a_id) REFERENCES a (id))"),
		"d.p": mustTable(t, "CREATE TABLE p (id INT PRIMARY KEY, q INT CHECK (q >= 0))"),
	}
	cases := []struct {
		mysql   string
		steps   []string
		eachRow string
		apart   bool
		counts  bool
	}{
		{mysql: "UPDATE a JOIN o ON o.a_id = a.id SET o.s = 'x', a.n = a.n + 1 WHERE o.id > 1", steps: []string{
			"CREATE TEMP TABLE `binlite_multi` AS SELECT `a`.rowid AS r0, `o`.rowid AS r1 FROM `a` JOIN `o` ON (`o`.`a_id` = `a`.`id`) WHERE (`o`.`id` > 1)",
			"UPDATE `o` AS `o` SET `s` = 'x' WHERE `o`.rowid IN (SELECT r1 FROM temp.`binlite_multi`)",
			"UPDATE `a` AS `a` SET `n` = (`a`.`n` + 1) WHERE `a`.rowid IN (SELECT r0 FROM temp.`binlite_multi`)",
			"DROP TABLE temp.`binlite_multi`"}},
		// children before parents
		{mysql: "DELETE a, o FROM a JOIN o ON o.a_id = a.id WHERE a.id = 1", steps: []string{
			"CREATE TEMP TABLE `binlite_multi` AS SELECT `a`.rowid AS r0, `o`.rowid AS r1 FROM `a` JOIN `o` ON (`o`.`a_id` = `a`.`id`) WHERE (`a`.`id` = 1)",
			"DELETE FROM `o` WHERE rowid IN (SELECT r1 FROM temp.`binlite_multi`)",
			"DELETE FROM `a` WHERE rowid IN (SELECT r0 FROM temp.`binlite_multi`)",
			"DROP TABLE temp.`binlite_multi`"}},
		{mysql: "UPDATE a SET id = id + 1 WHERE n > ? ORDER BY id DESC", steps: []string{"UPDATE `a` SET `id` = (`id` + 1) WHERE rowid = ?2"},
			eachRow: "SELECT rowid FROM `a` WHERE (`n` > ?1) ORDER BY `id` DESC"},
		{mysql: "INSERT IGNORE INTO p VALUES (1, -1), (2, 2)", apart: true, steps: []string{
			"INSERT INTO `p` (`id`, `q`) VALUES (1, -1) ON CONFLICT DO NOTHING",
			"INSERT INTO `p` (`id`, `q`) VALUES (2, 2) ON CONFLICT DO NOTHING"}},
		{mysql: "INSERT IGNORE INTO a SELECT id, q FROM p", counts: true, steps: []string{
			"INSERT OR IGNORE INTO `a` (`id`, `n`) SELECT * FROM (SELECT `id`, `q` FROM `p`) WHERE binlite_counted()"}},
		{mysql: "UPDATE IGNORE a SET id = 2 WHERE n = 1 OR n = 2", counts: true, steps: []string{
			"UPDATE OR IGNORE `a` SET `id` = 2 WHERE ((`n` = 1) OR (`n` = 2)) AND binlite_counted()"}},
	}
	for _, c := range cases {
		em, err := NewCache(8).Emit(c.mysql, "d", "utf8mb4_general_ci", cat)
		if err != nil || em == nil {
			t.Errorf("%s: not compiled (%v)", c.mysql, err)
			continue
		}
		got := append([]string{em.SQL}, em.Then...)
		if !slices.Equal(got, c.steps) || em.EachRow != c.eachRow || em.RowsApart != c.apart || em.CountsRows != c.counts {
			t.Errorf("%s\n got: %q each %q apart %v counts %v\nwant: %q each %q apart %v counts %v", c.mysql, got, em.EachRow, em.RowsApart, em.CountsRows, c.steps, c.eachRow, c.apart, c.counts)
		}
	}
	// A value reading a column another table's assignment changes depends on the
	// order MySQL writes the tables in: refused, not guessed.
	_, err := NewCache(8).Emit("UPDATE a JOIN o ON o.a_id = a.id SET a.n = 1, o.s = a.n", "d", "utf8mb4_general_ci", cat)
	var me *mysqlerr.Error
	if !errors.As(err, &me) || me.Code != mysqlerr.ErNotSupportedYet {
		t.Errorf("cross-reading multi-table UPDATE: %v, want 1235", err)
	}
}
