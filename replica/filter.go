package replica

import (
	"slices"
	"strings"

	"github.com/binlite/binlite/binlog"
	"github.com/binlite/binlite/engine"
	"github.com/binlite/binlite/mysqlerr"
)

// Replication filters (CHANGE REPLICATION FILTER, per channel) decide, event by
// event, what the applier applies, with MySQL's rules for row-based replication
// (the schema of the changed table, then its table): a DO_DB list admits only its
// schemas, else IGNORE_DB drops its schemas; then DO_TABLE admits, IGNORE_TABLE
// drops, WILD_DO_TABLE admits, WILD_IGNORE_TABLE drops, and a table matching none
// of them is dropped if a DO_TABLE or WILD_DO_TABLE list exists. DDL (a Query
// event) is judged by its schema alone. A transaction whose events are all
// filtered is still recorded, empty, with its GTID (as MySQL does), so
// gtid_executed stays complete and failover by GTID works.

// Filter rule names, as CHANGE REPLICATION FILTER and SHOW REPLICA STATUS spell them.
const (
	DoDB            = "REPLICATE_DO_DB"
	IgnoreDB        = "REPLICATE_IGNORE_DB"
	DoTable         = "REPLICATE_DO_TABLE"
	IgnoreTable     = "REPLICATE_IGNORE_TABLE"
	WildDoTable     = "REPLICATE_WILD_DO_TABLE"
	WildIgnoreTable = "REPLICATE_WILD_IGNORE_TABLE"
	RewriteDB       = "REPLICATE_REWRITE_DB"
)

// Filters are a channel's rules: rule name to its list.
type Filters map[string][]string

// merge replaces the rules named in change (an empty list clears one).
func (f Filters) merge(change map[string][]string) (Filters, error) {
	out := Filters{}
	for k, v := range f {
		out[k] = v
	}
	for k, v := range change {
		if k == RewriteDB && len(v)%2 != 0 {
			return nil, mysqlerr.New(mysqlerr.ErWrongArguments, "Incorrect arguments to %s", k)
		}
		if k == DoTable || k == IgnoreTable || k == WildDoTable || k == WildIgnoreTable {
			for _, t := range v {
				if !strings.Contains(t, ".") {
					return nil, mysqlerr.New(mysqlerr.ErWrongArguments, "Incorrect arguments to %s: '%s' is not db.table", k, t)
				}
			}
		}
		out[k] = slices.Clone(v) // an empty list stays: it clears an option-file rule
	}
	return out, nil
}

// empty reports whether no rule is set.
func (f Filters) empty() bool {
	for _, v := range f {
		if len(v) > 0 {
			return false
		}
	}
	return true
}

// text is SHOW REPLICA STATUS's value for rule: its list, comma-separated.
func (f Filters) text(rule string) string { return strings.Join(f[rule], ",") }

// admitsDB applies the schema rules.
func (f Filters) admitsDB(db string) bool {
	if do := f[DoDB]; len(do) > 0 {
		return slices.Contains(do, db)
	}
	return !slices.Contains(f[IgnoreDB], db)
}

// admitsTable applies the schema rules, then the table rules.
func (f Filters) admitsTable(db, table string) bool {
	if !f.admitsDB(db) {
		return false
	}
	do, wildDo := f[DoTable], f[WildDoTable]
	ignore, wildIgnore := f[IgnoreTable], f[WildIgnoreTable]
	if len(do)+len(wildDo)+len(ignore)+len(wildIgnore) == 0 {
		return true
	}
	name := db + "." + table
	switch {
	case slices.Contains(do, name):
		return true
	case slices.Contains(ignore, name):
		return false
	case slices.ContainsFunc(wildDo, func(p string) bool { return wildMatch(p, name) }):
		return true
	case slices.ContainsFunc(wildIgnore, func(p string) bool { return wildMatch(p, name) }):
		return false
	}
	return len(do)+len(wildDo) == 0
}

// rewrite is REPLICATE_REWRITE_DB's new name for db ("" when none).
func (f Filters) rewrite(db string) string {
	pairs := f[RewriteDB]
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i] == db {
			return pairs[i+1]
		}
	}
	return ""
}

// rewriteSchemas renames the schemas of tx's events and its schema list
// (REPLICATE_REWRITE_DB, before the other rules, as in MySQL). CREATE and DROP
// DATABASE and names qualified inside DDL text are not rewritten, as in MySQL.
func (f Filters) rewriteSchemas(tx *binlog.Transaction) {
	if len(f[RewriteDB]) == 0 {
		return
	}
	changed := false
	for i, ev := range tx.Events {
		switch e := ev.(type) {
		case *binlog.RowsEvent:
			if to := f.rewrite(e.Schema); to != "" {
				tx.Events[i], changed = e.InSchema(to), true
			}
		case *binlog.QueryEvent:
			if _, _, schemaLevel := engine.SchemaDDL(e.SQL); schemaLevel {
				continue
			}
			if to := f.rewrite(e.Schema); to != "" {
				tx.Events[i], changed = &binlog.QueryEvent{Schema: to, SQL: e.SQL}, true
			}
		}
	}
	if !changed {
		return
	}
	schemas := make([]string, 0, len(tx.Schemas))
	for _, ev := range tx.Events {
		if s := eventSchema(ev); s != "" && !slices.Contains(schemas, s) {
			schemas = append(schemas, s)
		}
	}
	tx.Schemas = schemas
}

// apply filters tx's events in place; the schemas left are those still written.
// A transaction with nothing left is applied empty (its GTID recorded).
func (f Filters) apply(tx *binlog.Transaction) {
	if f.empty() {
		return
	}
	f.rewriteSchemas(tx)
	kept := tx.Events[:0:0]
	for _, ev := range tx.Events {
		switch e := ev.(type) {
		case *binlog.RowsEvent:
			if !f.admitsTable(e.Schema, e.Table) {
				continue
			}
		case *binlog.QueryEvent:
			if !f.admitsDB(e.Schema) {
				continue
			}
		}
		kept = append(kept, ev)
	}
	if len(kept) == len(tx.Events) {
		return
	}
	var schemas []string
	for _, s := range tx.Schemas {
		if slices.ContainsFunc(kept, func(ev binlog.Event) bool { return eventSchema(ev) == s }) {
			schemas = append(schemas, s)
		}
	}
	tx.Events, tx.Schemas = kept, schemas
}

func eventSchema(ev binlog.Event) string {
	switch e := ev.(type) {
	case *binlog.RowsEvent:
		return e.Schema
	case *binlog.QueryEvent:
		return e.Schema
	}
	return ""
}

// wildMatch matches name against a LIKE pattern (% any run, _ one character, \
// escapes the next), as REPLICATE_WILD_DO_TABLE does.
func wildMatch(pattern, name string) bool {
	p, n := []rune(pattern), []rune(name)
	var match func(i, j int) bool
	match = func(i, j int) bool {
		for i < len(p) {
			switch c := p[i]; {
			case c == '%':
				for k := j; k <= len(n); k++ {
					if match(i+1, k) {
						return true
					}
				}
				return false
			case c == '\\' && i+1 < len(p):
				if j >= len(n) || n[j] != p[i+1] {
					return false
				}
				i, j = i+2, j+1
			case c == '_':
				if j >= len(n) {
					return false
				}
				i, j = i+1, j+1
			default:
				if j >= len(n) || n[j] != c {
					return false
				}
				i, j = i+1, j+1
			}
		}
		return j == len(n)
	}
	return match(0, 0)
}

// ChangeFilter runs CHANGE REPLICATION FILTER: on the named channel, or on every
// channel when none is named. The SQL threads concerned must be stopped.
func (m *Manager) ChangeFilter(name string, named bool, change map[string][]string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	chs, err := m.targets(name, !named)
	if err != nil {
		return err
	}
	for _, ch := range chs {
		ch.mu.Lock()
		running := ch.sql != nil
		ch.mu.Unlock()
		if running {
			return mysqlerr.New(3017, "This operation cannot be performed with a running replica sql thread; run STOP REPLICA SQL_THREAD first")
		}
	}
	for _, ch := range chs {
		ch.mu.Lock()
		f, err := ch.settings.Filters.merge(change)
		if err == nil {
			ch.settings.Filters = f
		}
		ch.mu.Unlock()
		if err != nil {
			return err
		}
	}
	return m.save()
}

// OptionFilters are the filters of the option file (replicate-do-db = db1, and
// MySQL's channel form replicate-do-db = channel:db1): Global for every channel,
// PerChannel for one. CHANGE REPLICATION FILTER overrides them rule by rule.
type OptionFilters struct {
	Global     Filters
	PerChannel map[string]Filters
}

// optionRules maps option names (normalised, underscores) to filter rules.
var optionRules = map[string]string{
	"replicate_do_db": DoDB, "replicate_ignore_db": IgnoreDB, "replicate_do_table": DoTable,
	"replicate_ignore_table": IgnoreTable, "replicate_wild_do_table": WildDoTable,
	"replicate_wild_ignore_table": WildIgnoreTable, "replicate_rewrite_db": RewriteDB,
}

// Add takes one option-file filter setting; repeated settings add to the list.
func (o *OptionFilters) Add(name, value string) error {
	rule := optionRules[name]
	value = strings.TrimSpace(value)
	channel, v, named := "", value, false
	// MySQL's channel form: "channel:value". A table pattern never holds ':'.
	if c, rest, ok := strings.Cut(value, ":"); ok && validChannel.MatchString(c) {
		channel, v, named = c, rest, true
	}
	items := []string{v}
	if rule == RewriteDB {
		from, to, ok := strings.Cut(v, "->")
		if !ok {
			return mysqlerr.New(mysqlerr.ErWrongArguments, "Incorrect arguments to %s: '%s' is not from->to", name, value)
		}
		items = []string{strings.TrimSpace(from), strings.TrimSpace(to)}
	}
	target := &o.Global
	if named {
		if o.PerChannel == nil {
			o.PerChannel = map[string]Filters{}
		}
		f := o.PerChannel[channel]
		target = &f
		defer func() { o.PerChannel[channel] = f }()
	}
	if *target == nil {
		*target = Filters{}
	}
	merged, err := (*target).merge(map[string][]string{rule: append(slices.Clone((*target)[rule]), items...)})
	if err != nil {
		return err
	}
	*target = merged
	return nil
}

// effective is a channel's filters: the option file's, global then the channel's,
// with those CHANGE REPLICATION FILTER set on top (an empty list there clears the
// rule).
func (o OptionFilters) effective(channel string, set Filters) Filters {
	out := Filters{}
	for _, src := range []Filters{o.Global, o.PerChannel[channel], set} {
		for k, v := range src {
			out[k] = v
		}
	}
	for k, v := range out {
		if len(v) == 0 {
			delete(out, k)
		}
	}
	return out
}
