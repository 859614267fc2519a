package mysqlerr

import "errors"

// Errors of connection limits, timeouts and exhausted resources.
const (
	ErCantCreateDB             uint16 = 1006 // ER_CANT_CREATE_DB
	ErDiskFull                 uint16 = 1021 // ER_DISK_FULL
	ErNetReadInterrupted       uint16 = 1159 // ER_NET_READ_INTERRUPTED
	ErNetWriteInterrupted      uint16 = 1161 // ER_NET_WRITE_INTERRUPTED
	ErTooManyUserConnections   uint16 = 1203 // ER_TOO_MANY_USER_CONNECTIONS
	ErClientInteractionTimeout uint16 = 4031 // ER_CLIENT_INTERACTION_TIMEOUT
)

// ErrOutcomeUnknown, wrapped in a statement's error, says that the statement may
// have taken effect or not: the binary log holds (or may hold) its transaction
// and storage could not commit it, which recovery does at the next start. The
// server ends the client's connection without an answer, as a client of a MySQL
// server that stopped sees it: an ERR packet would say the transaction failed
// when it may commit.
var ErrOutcomeUnknown = errors.New("outcome unknown")
