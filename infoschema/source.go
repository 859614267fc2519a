package infoschema

import (
	"time"

	"github.com/binlite/binlite/catalog"
)

// Source is the node's state the rows are built from. The session fills it; each
// function is called only when a table that reads it is asked for.
type Source struct {
	// Schemas are the node's schemas (not the virtual ones) with their tables.
	Schemas func() []Schema
	// Processes are the connected sessions (PROCESSLIST, threads).
	Processes func() []Process
	// Variables are the system variables as SHOW [GLOBAL] VARIABLES lists them.
	Variables func(global bool) [][2]string
	// Status is what SHOW [GLOBAL] STATUS lists.
	Status func() [][2]string
	// Channels are the replication channels, each as SHOW REPLICA STATUS's
	// fields by name (Source_Host, Replica_IO_Running ...).
	Channels func() []map[string]any
	// Workers are the replication applier's workers.
	Workers func() []Worker
	// Started is when the node started: binlite keeps no creation time of a
	// table, and reports this one.
	Started time.Time
	// DefaultCollation is @@collation_server, the schemas' default collation.
	DefaultCollation string
}

// Schema is one schema with its tables.
type Schema struct {
	Name   string
	Tables []Table
}

// Table is one base table.
type Table struct {
	Name string
	// Def is the table's MySQL definition (nil for a table made before the
	// catalog existed: it is listed, without columns or keys).
	Def *catalog.Table
	// NextAutoIncrement is the AUTO_INCREMENT counter's next value, 0 if the
	// table has no AUTO_INCREMENT column.
	NextAutoIncrement uint64
}

// Process is one connection, as SHOW PROCESSLIST lists it.
type Process struct {
	ID                      uint64
	User, Host, DB, Command string
	Time                    int64
	State, Info             string
}

// Worker is one applier worker of a replication channel.
type Worker struct {
	Channel               string
	ID                    uint64
	Running               bool
	Schema                string
	LastApplied, Applying string
	Applied               uint64
	LastErrno             int64
	LastError             string
	// The source's commit times and this node's apply times of the last applied
	// and of the applying transaction (zero = none).
	LastOriginalCommit, LastImmediateCommit, LastStartApply, LastEndApply time.Time
	ApplyingOriginalCommit, ApplyingImmediateCommit, ApplyingStartApply   time.Time
}
