package mysqlproto

// MySQL column types (enum_field_types), as sent in column definitions and
// COM_STMT_EXECUTE parameter types.
const (
	TypeDecimal    byte = 0x00
	TypeTiny       byte = 0x01
	TypeShort      byte = 0x02
	TypeLong       byte = 0x03
	TypeFloat      byte = 0x04
	TypeDouble     byte = 0x05
	TypeNull       byte = 0x06
	TypeTimestamp  byte = 0x07
	TypeLongLong   byte = 0x08
	TypeInt24      byte = 0x09
	TypeDate       byte = 0x0a
	TypeTime       byte = 0x0b
	TypeDatetime   byte = 0x0c
	TypeYear       byte = 0x0d
	TypeNewDate    byte = 0x0e
	TypeVarchar    byte = 0x0f
	TypeBit        byte = 0x10
	TypeJSON       byte = 0xf5
	TypeNewDecimal byte = 0xf6
	TypeEnum       byte = 0xf7
	TypeSet        byte = 0xf8
	TypeTinyBlob   byte = 0xf9
	TypeMediumBlob byte = 0xfa
	TypeLongBlob   byte = 0xfb
	TypeBlob       byte = 0xfc
	TypeVarString  byte = 0xfd
	TypeString     byte = 0xfe
	TypeGeometry   byte = 0xff
)

// Column definition flags.
const (
	NotNullFlag        uint16 = 0x0001
	PriKeyFlag         uint16 = 0x0002
	UniqueKeyFlag      uint16 = 0x0004
	MultipleKeyFlag    uint16 = 0x0008
	BlobFlag           uint16 = 0x0010
	UnsignedFlag       uint16 = 0x0020
	ZerofillFlag       uint16 = 0x0040
	BinaryFlag         uint16 = 0x0080
	EnumFlag           uint16 = 0x0100
	AutoIncrementFlag  uint16 = 0x0200
	TimestampFlag      uint16 = 0x0400
	SetFlag            uint16 = 0x0800
	NoDefaultValueFlag uint16 = 0x1000
	OnUpdateNowFlag    uint16 = 0x2000
	NumFlag            uint16 = 0x8000
)

// Character set / collation ids.
const (
	CharsetUTF8MB4     uint16 = 45  // utf8mb4_general_ci: understood by MySQL and MariaDB clients
	CharsetUTF8MB40900 uint16 = 255 // utf8mb4_0900_ai_ci, MySQL 8's default
	CharsetBinary      uint16 = 63
)

// Capability flags (CLIENT_*).
const (
	ClientLongPassword               uint32 = 1 << 0
	ClientFoundRows                  uint32 = 1 << 1
	ClientLongFlag                   uint32 = 1 << 2
	ClientConnectWithDB              uint32 = 1 << 3
	ClientNoSchema                   uint32 = 1 << 4
	ClientCompress                   uint32 = 1 << 5
	ClientODBC                       uint32 = 1 << 6
	ClientLocalFiles                 uint32 = 1 << 7
	ClientIgnoreSpace                uint32 = 1 << 8
	ClientProtocol41                 uint32 = 1 << 9
	ClientInteractive                uint32 = 1 << 10
	ClientSSL                        uint32 = 1 << 11
	ClientIgnoreSigpipe              uint32 = 1 << 12
	ClientTransactions               uint32 = 1 << 13
	ClientReserved                   uint32 = 1 << 14
	ClientSecureConnection           uint32 = 1 << 15
	ClientMultiStatements            uint32 = 1 << 16
	ClientMultiResults               uint32 = 1 << 17
	ClientPSMultiResults             uint32 = 1 << 18
	ClientPluginAuth                 uint32 = 1 << 19
	ClientConnectAttrs               uint32 = 1 << 20
	ClientPluginAuthLenencClientData uint32 = 1 << 21
	ClientCanHandleExpiredPasswords  uint32 = 1 << 22
	ClientSessionTrack               uint32 = 1 << 23
	ClientDeprecateEOF               uint32 = 1 << 24
)

// serverCapabilities is what the greeting advertises; CLIENT_SSL is added when a
// certificate is configured, and CLIENT_COMPRESS is absent (not implemented).
const serverCapabilities = ClientLongPassword | ClientFoundRows | ClientLongFlag |
	ClientConnectWithDB | ClientIgnoreSpace | ClientProtocol41 | ClientInteractive |
	ClientIgnoreSigpipe | ClientTransactions | ClientSecureConnection |
	ClientMultiStatements | ClientMultiResults | ClientPSMultiResults |
	ClientPluginAuth | ClientConnectAttrs | ClientPluginAuthLenencClientData |
	ClientDeprecateEOF

// Server status flags (SERVER_STATUS_*), sent in every OK and EOF packet.
const (
	StatusInTrans           uint16 = 0x0001
	StatusAutocommit        uint16 = 0x0002
	StatusMoreResultsExists uint16 = 0x0008
	StatusNoGoodIndexUsed   uint16 = 0x0010
	StatusNoIndexUsed       uint16 = 0x0020
	StatusCursorExists      uint16 = 0x0040
	StatusLastRowSent       uint16 = 0x0080
	// StatusNoBackslashEscapes: the session's sql_mode has NO_BACKSLASH_ESCAPES;
	// clients that escape strings themselves (mysql_real_escape_string, drivers
	// interpolating parameters) double quotes instead of using backslashes.
	StatusNoBackslashEscapes uint16 = 0x0200
)

// Command bytes (COM_*).
const (
	ComSleep            byte = 0x00
	ComQuit             byte = 0x01
	ComInitDB           byte = 0x02
	ComQuery            byte = 0x03
	ComFieldList        byte = 0x04
	ComStatistics       byte = 0x09
	ComPing             byte = 0x0e
	ComChangeUser       byte = 0x11
	ComBinlogDump       byte = 0x12
	ComRegisterSlave    byte = 0x15
	ComStmtPrepare      byte = 0x16
	ComStmtExecute      byte = 0x17
	ComStmtSendLongData byte = 0x18
	ComStmtClose        byte = 0x19
	ComStmtReset        byte = 0x1a
	ComSetOption        byte = 0x1b
	ComStmtFetch        byte = 0x1c
	ComResetConnection  byte = 0x1f
	ComBinlogDumpGTID   byte = 0x1e
)

// Authentication plugins.
const (
	PluginNativePassword = "mysql_native_password"
	PluginCachingSHA2    = "caching_sha2_password" // MySQL 8.4's default
)

// Packet header bytes.
const (
	headerOK  byte = 0x00
	headerEOF byte = 0xfe
	headerErr byte = 0xff
)

const (
	nativePasswordPlugin = PluginNativePassword
	scrambleLen          = 20
	maxPacketChunk       = 1<<24 - 1 // a payload of this size continues in the next packet
	defaultMaxPacket     = 64 << 20
	defaultVersion       = "8.4.0-binlite"
)
