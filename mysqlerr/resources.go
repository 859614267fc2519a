package mysqlerr

// Errors of connection limits, timeouts and exhausted resources.
const (
	ErCantCreateDB             uint16 = 1006 // ER_CANT_CREATE_DB
	ErNetReadInterrupted       uint16 = 1159 // ER_NET_READ_INTERRUPTED
	ErNetWriteInterrupted      uint16 = 1161 // ER_NET_WRITE_INTERRUPTED
	ErTooManyUserConnections   uint16 = 1203 // ER_TOO_MANY_USER_CONNECTIONS
	ErClientInteractionTimeout uint16 = 4031 // ER_CLIENT_INTERACTION_TIMEOUT
)
