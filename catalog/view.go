package catalog

import "strings"

// View is a view's MySQL definition. A view is kept as a Table whose View is set
// (tables and views share one namespace in MySQL, and in binlite_catalog): its
// Columns are empty, the query names them.
type View struct {
	// Select is the query as MySQL prints it (SHOW CREATE VIEW): every column
	// named under its alias, every name quoted.
	Select string `json:"select"`
	// Columns is the view's own column list, if it was given one.
	Columns     []string `json:"columns,omitempty"`
	Algorithm   string   `json:"algorithm"`    // UNDEFINED, MERGE, TEMPTABLE
	DefinerUser string   `json:"definer_user"` // DEFINER=user@host
	DefinerHost string   `json:"definer_host"`
	Security    string   `json:"security"`               // DEFINER, INVOKER
	CheckOption string   `json:"check_option,omitempty"` // "", CASCADED, LOCAL
	// CharsetClient and CollationConnection are the creating session's, as
	// MySQL keeps them.
	CharsetClient       string `json:"charset_client"`
	CollationConnection string `json:"collation_connection"`
}

// IsView reports whether the definition is a view's.
func (t *Table) IsView() bool { return t != nil && t.View != nil }

// Definer is DEFINER's value as MySQL prints it: `user`@`host`.
func definer(user, host string) string {
	return quoteName(user) + "@" + quoteName(host)
}

func quoteName(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// ShowCreateView is the view's statement as SHOW CREATE VIEW prints it.
func (t *Table) ShowCreateView() string {
	v := t.View
	s := "CREATE ALGORITHM=" + v.Algorithm + " DEFINER=" + definer(v.DefinerUser, v.DefinerHost) +
		" SQL SECURITY " + v.Security + " VIEW " + quoteName(t.Name)
	if len(v.Columns) > 0 {
		cols := make([]string, len(v.Columns))
		for i, c := range v.Columns {
			cols[i] = quoteName(c)
		}
		s += " (" + strings.Join(cols, ",") + ")"
	}
	s += " AS " + v.Select
	if v.CheckOption != "" {
		s += " WITH " + v.CheckOption + " CHECK OPTION"
	}
	return s
}

// Trigger is one trigger of a table, as MySQL keeps it.
type Trigger struct {
	Name   string `json:"name"`
	Timing string `json:"timing"` // BEFORE, AFTER
	Event  string `json:"event"`  // INSERT, UPDATE, DELETE
	// Body is the trigger's statement as written (a single statement or
	// BEGIN ... END).
	Body        string `json:"body"`
	DefinerUser string `json:"definer_user"`
	DefinerHost string `json:"definer_host"`
	// SQLMode, CharsetClient, CollationConnection are the creating session's;
	// the body is compiled under them.
	SQLMode             string `json:"sql_mode"`
	CharsetClient       string `json:"charset_client"`
	CollationConnection string `json:"collation_connection"`
	// Created is when it was made, as MySQL shows it (YYYY-MM-DD hh:mm:ss.ss),
	// written by the DDL's SQLite statement.
	Created string `json:"created,omitempty"`
	// SQLite is the body compiled to the statements of a SQLite trigger body,
	// each ending with ';', NEW and OLD naming the row; Refs are the tables
	// those statements name (a trigger whose table is gone fails when it fires,
	// as MySQL's does).
	SQLite string   `json:"sqlite"`
	Refs   []string `json:"refs,omitempty"`
}

// Definer is DEFINER's value as SHOW TRIGGERS prints it: user@host.
func (tr *Trigger) Definer() string { return tr.DefinerUser + "@" + tr.DefinerHost }

// ShowCreateTrigger is the trigger's statement as SHOW CREATE TRIGGER prints it.
func (tr *Trigger) ShowCreateTrigger(table string) string {
	return "CREATE DEFINER=" + definer(tr.DefinerUser, tr.DefinerHost) + " TRIGGER " + quoteName(tr.Name) + " " +
		tr.Timing + " " + tr.Event + " ON " + quoteName(table) + " FOR EACH ROW " + tr.Body
}

// Trigger finds a trigger of the table by name (names are case-insensitive).
func (t *Table) Trigger(name string) (*Trigger, int) {
	for i := range t.Triggers {
		if strings.EqualFold(t.Triggers[i].Name, name) {
			return &t.Triggers[i], i
		}
	}
	return nil, -1
}
