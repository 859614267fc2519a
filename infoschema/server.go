package infoschema

import (
	"sort"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/charset"

	"github.com/binlite/binlite/catalog"
	"github.com/binlite/binlite/collation"
)

// The server's tables: PROCESSLIST, CHARACTER_SETS, COLLATIONS, ENGINES, PLUGINS.

func processlist(_ *Schemas, src *Source) []Values {
	var out []Values
	for _, p := range src.Processes() {
		out = append(out, processValues(p))
	}
	return out
}

func processValues(p Process) Values {
	return Values{"ID": int64(p.ID), "USER": p.User, "HOST": p.Host, "DB": nullIfEmpty(p.DB), "COMMAND": p.Command,
		"TIME": p.Time, "STATE": p.State, "INFO": nullIfEmpty(p.Info)}
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// Charset is one character set binlite stores text in.
type Charset struct {
	Name, Description, DefaultCollation string
	MaxLen                              int64
}

// Charsets are the character sets binlite has collations for, as SHOW CHARACTER
// SET and information_schema.CHARACTER_SETS list them (MySQL 8.4's descriptions
// and default collations), by name.
func Charsets() []Charset {
	desc := map[string]string{"ascii": "US ASCII", "binary": "Binary pseudo charset", "latin1": "cp1252 West European",
		"utf8mb3": "UTF-8 Unicode", "utf8mb4": "UTF-8 Unicode"}
	seen := map[string]bool{"binary": true}
	for _, c := range collation.All() {
		seen[c.Charset] = true
	}
	var out []Charset
	for cs := range seen {
		out = append(out, Charset{Name: cs, Description: desc[cs], DefaultCollation: catalog.DefaultCollationOf(cs), MaxLen: int64(catalog.MaxCharBytes(cs))})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Collation is one collation as SHOW COLLATION lists it.
type Collation struct {
	Name, Charset string
	ID            int64
	Default       bool
	SortLen       int64
	PadSpace      bool
}

// Collations are the collations binlite compares by, and binary, by name.
func Collations() []Collation {
	out := []Collation{{Name: "binary", Charset: "binary", ID: 63, Default: true, SortLen: 1}}
	for _, c := range collation.All() {
		co := Collation{Name: c.Name, Charset: c.Charset, Default: catalog.DefaultCollationOf(c.Charset) == c.Name, SortLen: 1, PadSpace: c.PadSpace}
		if tc, err := charset.GetCollationByName(strings.Replace(c.Name, "utf8mb3_", "utf8_", 1)); err == nil {
			co.ID = int64(tc.ID)
		}
		switch {
		case strings.Contains(c.Name, "_0900_"):
			co.SortLen = 0
		case strings.Contains(c.Name, "_unicode_"):
			co.SortLen = 8
		}
		out = append(out, co)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func characterSets(_ *Schemas, _ *Source) []Values {
	var out []Values
	for _, c := range Charsets() {
		out = append(out, Values{"CHARACTER_SET_NAME": c.Name, "DEFAULT_COLLATE_NAME": c.DefaultCollation, "DESCRIPTION": c.Description, "MAXLEN": c.MaxLen})
	}
	return out
}

func collations(_ *Schemas, _ *Source) []Values {
	var out []Values
	for _, c := range Collations() {
		pad := "NO PAD"
		if c.PadSpace {
			pad = "PAD SPACE"
		}
		def := ""
		if c.Default {
			def = "Yes"
		}
		out = append(out, Values{"COLLATION_NAME": c.Name, "CHARACTER_SET_NAME": c.Charset, "ID": c.ID, "IS_DEFAULT": def,
			"IS_COMPILED": "Yes", "SORTLEN": c.SortLen, "PAD_ATTRIBUTE": pad})
	}
	return out
}

func applicability(_ *Schemas, _ *Source) []Values {
	var out []Values
	for _, c := range Collations() {
		out = append(out, Values{"COLLATION_NAME": c.Name, "CHARACTER_SET_NAME": c.Charset})
	}
	return out
}

// Engine is one storage engine as SHOW ENGINES lists it.
type Engine struct{ Name, Support, Comment, Transactions, XA, Savepoints string }

// Engines are the storage engines binlite names: InnoDB, the default (every
// table is stored in SQLite, with InnoDB's transactional behaviour), and
// performance_schema's.
func Engines() []Engine {
	return []Engine{
		{"InnoDB", "DEFAULT", "binlite: SQLite storage, one file per schema", "YES", "NO", "YES"},
		{"PERFORMANCE_SCHEMA", "YES", "Performance Schema", "NO", "NO", "NO"},
	}
}

func engines(_ *Schemas, _ *Source) []Values {
	var out []Values
	for _, e := range Engines() {
		out = append(out, Values{"ENGINE": e.Name, "SUPPORT": e.Support, "COMMENT": e.Comment, "TRANSACTIONS": e.Transactions, "XA": e.XA, "SAVEPOINTS": e.Savepoints})
	}
	return out
}

// Plugin is one plugin as SHOW PLUGINS lists it.
type Plugin struct{ Name, Type, Description string }

// Plugins are the parts of binlite that MySQL ships as plugins.
func Plugins() []Plugin {
	return []Plugin{
		{"binlog", "STORAGE ENGINE", "This is a pseudo storage engine to represent the binlog in a transaction"},
		{"mysql_native_password", "AUTHENTICATION", "Native MySQL authentication"},
		{"InnoDB", "STORAGE ENGINE", "Supports transactions, row-level locking, and foreign keys"},
		{"PERFORMANCE_SCHEMA", "STORAGE ENGINE", "Performance Schema"},
		{"rpl_semi_sync_source", "REPLICATION", "Source-side semi-synchronous replication."},
		{"rpl_semi_sync_replica", "REPLICATION", "Replica-side semi-synchronous replication."},
	}
}

func plugins(_ *Schemas, _ *Source) []Values {
	var out []Values
	for _, p := range Plugins() {
		out = append(out, Values{"PLUGIN_NAME": p.Name, "PLUGIN_VERSION": "1.0", "PLUGIN_STATUS": "ACTIVE", "PLUGIN_TYPE": p.Type,
			"PLUGIN_TYPE_VERSION": "80400.0", "PLUGIN_AUTHOR": "binlite", "PLUGIN_DESCRIPTION": p.Description,
			"PLUGIN_LICENSE": "GPL", "LOAD_OPTION": "ON"})
	}
	return out
}
