package mysqlerr

// Codes of authentication and transport security (SQLSTATE HY000).
const (
	ErPluginIsNotLoaded       uint16 = 1524 // ER_PLUGIN_IS_NOT_LOADED
	ErSecureTransportRequired uint16 = 3159 // ER_SECURE_TRANSPORT_REQUIRED
)
