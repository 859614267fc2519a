package users

import (
	"math/bits"
	"slices"
	"strings"
)

// Priv is one privilege: MySQL 8.4's static privileges in the order SHOW GRANTS
// lists them (MySQL's bit order), then the dynamic ones binlite registers, in
// alphabetical order as SHOW GRANTS lists them.
type Priv uint8

// Static privileges.
const (
	Select Priv = iota
	Insert
	Update
	Delete
	Create
	Drop
	Reload
	Shutdown
	Process
	File
	GrantOption
	References
	Index
	Alter
	ShowDatabases
	Super
	CreateTemporaryTables
	LockTables
	Execute
	ReplicationSlave
	ReplicationClient
	CreateView
	ShowView
	CreateRoutine
	AlterRoutine
	CreateUser
	Event
	Trigger
	CreateTablespace
	CreateRole
	DropRole
	numStatic
)

// Dynamic privileges (MySQL 8.4's server-registered ones).
const (
	AllowNonexistentDefiner Priv = numStatic + iota
	ApplicationPasswordAdmin
	AuditAbortExempt
	AuditAdmin
	AuthenticationPolicyAdmin
	BackupAdmin
	BinlogAdmin
	BinlogEncryptionAdmin
	CloneAdmin
	ConnectionAdmin
	EncryptionKeyAdmin
	FirewallExempt
	FlushOptimizerCosts
	FlushPrivileges
	FlushStatus
	FlushTables
	FlushUserResources
	GroupReplicationAdmin
	GroupReplicationStream
	InnodbRedoLogArchive
	InnodbRedoLogEnable
	OptimizeLocalTable
	PasswordlessUserAdmin
	PersistRoVariablesAdmin
	ReplicationApplier
	ReplicationSlaveAdmin
	ResourceGroupAdmin
	ResourceGroupUser
	RoleAdmin
	SensitiveVariablesObserver
	ServiceConnectionAdmin
	SessionVariablesAdmin
	SetAnyDefiner
	ShowRoutine
	SystemUser
	SystemVariablesAdmin
	TableEncryptionAdmin
	TelemetryLogAdmin
	TransactionGTIDTag
	XARecoverAdmin
	numPrivs
)

var privNames = [numPrivs]string{
	"SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "RELOAD", "SHUTDOWN", "PROCESS", "FILE",
	"GRANT OPTION", "REFERENCES", "INDEX", "ALTER", "SHOW DATABASES", "SUPER", "CREATE TEMPORARY TABLES",
	"LOCK TABLES", "EXECUTE", "REPLICATION SLAVE", "REPLICATION CLIENT", "CREATE VIEW", "SHOW VIEW",
	"CREATE ROUTINE", "ALTER ROUTINE", "CREATE USER", "EVENT", "TRIGGER", "CREATE TABLESPACE",
	"CREATE ROLE", "DROP ROLE",
	"ALLOW_NONEXISTENT_DEFINER", "APPLICATION_PASSWORD_ADMIN", "AUDIT_ABORT_EXEMPT", "AUDIT_ADMIN",
	"AUTHENTICATION_POLICY_ADMIN", "BACKUP_ADMIN", "BINLOG_ADMIN", "BINLOG_ENCRYPTION_ADMIN", "CLONE_ADMIN",
	"CONNECTION_ADMIN", "ENCRYPTION_KEY_ADMIN", "FIREWALL_EXEMPT", "FLUSH_OPTIMIZER_COSTS", "FLUSH_PRIVILEGES",
	"FLUSH_STATUS", "FLUSH_TABLES", "FLUSH_USER_RESOURCES", "GROUP_REPLICATION_ADMIN",
	"GROUP_REPLICATION_STREAM", "INNODB_REDO_LOG_ARCHIVE", "INNODB_REDO_LOG_ENABLE", "OPTIMIZE_LOCAL_TABLE",
	"PASSWORDLESS_USER_ADMIN", "PERSIST_RO_VARIABLES_ADMIN", "REPLICATION_APPLIER", "REPLICATION_SLAVE_ADMIN",
	"RESOURCE_GROUP_ADMIN", "RESOURCE_GROUP_USER", "ROLE_ADMIN", "SENSITIVE_VARIABLES_OBSERVER",
	"SERVICE_CONNECTION_ADMIN", "SESSION_VARIABLES_ADMIN", "SET_ANY_DEFINER", "SHOW_ROUTINE", "SYSTEM_USER",
	"SYSTEM_VARIABLES_ADMIN", "TABLE_ENCRYPTION_ADMIN", "TELEMETRY_LOG_ADMIN", "TRANSACTION_GTID_TAG",
	"XA_RECOVER_ADMIN",
}

// String is the privilege's name as GRANT and SHOW GRANTS spell it.
func (p Priv) String() string {
	if p < numPrivs {
		return privNames[p]
	}
	return "?"
}

// Dynamic reports whether p is one of MySQL's dynamic privileges.
func (p Priv) Dynamic() bool { return p >= numStatic }

// Set is a set of privileges.
type Set uint128

// uint128 holds numPrivs bits (fewer than 128).
type uint128 struct{ lo, hi uint64 }

// Of is the set holding ps.
func Of(ps ...Priv) Set {
	var s Set
	for _, p := range ps {
		s = s.With(p)
	}
	return s
}

// Has reports whether p is in s.
func (s Set) Has(p Priv) bool {
	if p < 64 {
		return s.lo&(1<<p) != 0
	}
	return s.hi&(1<<(p-64)) != 0
}

// With is s plus p.
func (s Set) With(p Priv) Set {
	if p < 64 {
		s.lo |= 1 << p
	} else {
		s.hi |= 1 << (p - 64)
	}
	return s
}

// Union is s ∪ o.
func (s Set) Union(o Set) Set { return Set{s.lo | o.lo, s.hi | o.hi} }

// Minus is s \ o.
func (s Set) Minus(o Set) Set { return Set{s.lo &^ o.lo, s.hi &^ o.hi} }

// Contains reports whether o ⊆ s.
func (s Set) Contains(o Set) bool { return o.Minus(s).Empty() }

// Empty reports whether s holds nothing.
func (s Set) Empty() bool { return s.lo == 0 && s.hi == 0 }

// Len is how many privileges s holds.
func (s Set) Len() int { return bits.OnesCount64(s.lo) + bits.OnesCount64(s.hi) }

// List is s's privileges in SHOW GRANTS order.
func (s Set) List() []Priv {
	var out []Priv
	for p := Priv(0); p < numPrivs; p++ {
		if s.Has(p) {
			out = append(out, p)
		}
	}
	return out
}

// Level is where a grant applies.
type Level int

// Grant levels.
const (
	Global Level = iota // ON *.*
	DB                  // ON db.*
	Table               // ON db.tbl
)

// Levels' privileges: what ALL [PRIVILEGES] means at each (without GRANT OPTION),
// as MySQL's GLOBAL_ACLS, DB_OP_ACLS and TABLE_OP_ACLS define them.
var (
	allGlobal = func() Set {
		var s Set
		for p := Priv(0); p < numPrivs; p++ {
			if p != GrantOption {
				s = s.With(p)
			}
		}
		return s
	}()
	allDB = Of(Select, Insert, Update, Delete, Create, Drop, References, Index, Alter, CreateTemporaryTables,
		LockTables, Execute, CreateView, ShowView, CreateRoutine, AlterRoutine, Event, Trigger)
	allTable = Of(Select, Insert, Update, Delete, Create, Drop, References, Index, Alter, CreateView, ShowView, Trigger)
)

// All is what ALL PRIVILEGES grants at a level (GRANT OPTION apart).
func All(l Level) Set {
	switch l {
	case DB:
		return allDB
	case Table:
		return allTable
	}
	return allGlobal
}

// Everything is every privilege, GRANT OPTION included (the built-in root).
var Everything = allGlobal.With(GrantOption)

// ParsePriv names a privilege as GRANT spells it (upper case, words separated by
// one space; REPLICATION REPLICA is REPLICATION SLAVE).
func ParsePriv(name string) (Priv, bool) {
	name = strings.Join(strings.Fields(strings.ToUpper(name)), " ")
	switch name {
	case "REPLICATION REPLICA":
		name = "REPLICATION SLAVE"
	case "REPLICATION_REPLICA_ADMIN":
		name = "REPLICATION_SLAVE_ADMIN"
	}
	i := slices.Index(privNames[:], name)
	if i < 0 {
		return 0, false
	}
	return Priv(i), true
}

// parseList reads the comma-separated list of the user table's privileges column
// ("ALL" as older binlite versions wrote it means every privilege).
func parseList(text string) Set {
	var s Set
	for _, p := range strings.Split(text, ",") {
		p = strings.TrimSpace(p)
		switch p {
		case "":
		case "ALL", "ALL PRIVILEGES":
			s = s.Union(allGlobal)
		default:
			if x, ok := ParsePriv(p); ok {
				s = s.With(x)
			}
		}
	}
	return s
}

// formatList is how the privileges column stores s.
func formatList(s Set) string {
	var names []string
	for _, p := range s.List() {
		names = append(names, p.String())
	}
	return strings.Join(names, ",")
}
