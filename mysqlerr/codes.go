package mysqlerr

// MySQL server error codes used by binlite (names follow MySQL's ER_* constants).
const (
	ErConCountError                     uint16 = 1040
	ErInvalidDefault                    uint16 = 1067
	ErBlobCantHaveDefault               uint16 = 1101
	ErUnknownCharacterSet               uint16 = 1115
	ErCollationCharsetMismatch          uint16 = 1253
	ErUnknownCollation                  uint16 = 1273
	ErMBiggerThanD                      uint16 = 1427
	ErTooBigScale                       uint16 = 1425
	ErTooBigPrecision                   uint16 = 1426
	ErInvalidOnUpdate                   uint16 = 1294
	ErWrongValue                        uint16 = 1525
	ErUnknownTimeZone                   uint16 = 1298
	ErNoDefaultForField                 uint16 = 1364
	ErWrongAutoKey                      uint16 = 1075
	ErTooBigFieldLength                 uint16 = 1074
	ErWarnDataTruncated                 uint16 = 1265
	ErWarnDataOutOfRange                uint16 = 1264
	ErWarnDeprecatedSyntaxNoReplacement uint16 = 1681
	ErWarnDeprecatedSyntax              uint16 = 1287
	ErDivisionByZero                    uint16 = 1365
	ErDataOutOfRange                    uint16 = 1690 // ER_DATA_OUT_OF_RANGE: BIGINT value is out of range in ...

	ErWrongUsage           uint16 = 1221
	ErWrongValueCountOnRow uint16 = 1136

	// Generated columns and default expressions.
	ErGeneratedColumnFunctionIsNotAllowed          uint16 = 3102
	ErNonDefaultValueForGeneratedColumn            uint16 = 3105
	ErGeneratedColumnNonPrior                      uint16 = 3107
	ErGeneratedColumnRefAutoInc                    uint16 = 3109
	ErGeneratedColumnNamedFunctionIsNotAllowed     uint16 = 3763
	ErGeneratedColumnVariables                     uint16 = 3765
	ErDefaultValGeneratedNonPrior                  uint16 = 3767
	ErDefaultValGeneratedRefAutoInc                uint16 = 3768
	ErDefaultValGeneratedFunctionIsNotAllowed      uint16 = 3769
	ErDefaultValGeneratedNamedFunctionIsNotAllowed uint16 = 3770
	ErDefaultValGeneratedVariables                 uint16 = 3772
	ErDefaultAsValGenerated                        uint16 = 3773

	ErColumnCheckConstraintReferencesOtherColumn uint16 = 3813
	ErCheckConstraintNamedFunctionIsNotAllowed   uint16 = 3814
	ErHandshakeError                             uint16 = 1043
	ErDBAccessDenied                             uint16 = 1044
	ErAccessDenied                               uint16 = 1045
	ErNoDB                                       uint16 = 1046
	ErUnknownCom                                 uint16 = 1047
	ErBadNull                                    uint16 = 1048
	ErBadDB                                      uint16 = 1049
	ErTableExists                                uint16 = 1050
	ErBadTable                                   uint16 = 1051
	ErMultiplePriKey                             uint16 = 1068
	ErBadField                                   uint16 = 1054
	ErDupFieldName                               uint16 = 1060
	ErDupKeyName                                 uint16 = 1061
	ErDupEntry                                   uint16 = 1062
	ErParse                                      uint16 = 1064
	ErEmptyQuery                                 uint16 = 1065
	ErCantDropFieldOrKey                         uint16 = 1091
	ErWrongDBName                                uint16 = 1102
	ErWrongTableName                             uint16 = 1103
	ErUnknownSystemVariable                      uint16 = 1193
	ErNetPacketTooLarge                          uint16 = 1153
	ErNetReadError                               uint16 = 1158
	ErNetErrorOnWrite                            uint16 = 1160
	ErNetPacketsOutOfOrder                       uint16 = 1156
	ErUnknownStmtHandler                         uint16 = 1243
	ErDBCreateExists                             uint16 = 1007
	ErDBDropExists                               uint16 = 1008
	ErLockWaitTimeout                            uint16 = 1205
	ErLockDeadlock                               uint16 = 1213
	ErSPDoesNotExist                             uint16 = 1305
	ErNoSuchTable                                uint16 = 1146
	ErSyntaxError                                uint16 = 1149
	ErSpecificAccessDenied                       uint16 = 1227
	ErLocalVariable                              uint16 = 1228
	ErInsideTransactionPreventsSwitchSQLLogBin   uint16 = 1694
	ErGlobalVariable                             uint16 = 1229
	ErWrongValueForVar                           uint16 = 1231
	ErWrongTypeForVar                            uint16 = 1232
	ErVarCantBeRead                              uint16 = 1233
	ErNotSupportedYet                            uint16 = 1235
	ErMasterFatalReadingLog                      uint16 = 1236
	ErWrongArguments                             uint16 = 1210
	ErTableAccessDenied                          uint16 = 1142
	ErColumnAccessDenied                         uint16 = 1143
	ErIllegalGrantForTable                       uint16 = 1144
	ErNonexistingGrant                           uint16 = 1141
	ErNonexistingTableGrant                      uint16 = 1147
	ErCantCreateUserWithGrant                    uint16 = 1410
	ErOptionPreventsStmt                         uint16 = 1290
	ErUnknownError                               uint16 = 1105
	ErServerShutdown                             uint16 = 1053
	ErQueryInterrupted                           uint16 = 1317
	ErNoSuchIndex                                uint16 = 1082
	ErMalformedPacket                            uint16 = 1835
	ErCantDoThisDuringTxn                        uint16 = 1179
	ErWrongParamCount                            uint16 = 1210
	ErUnknownTable                               uint16 = 1109
	ErDataTooLong                                uint16 = 1406
	ErTruncatedWrongValue                        uint16 = 1292
	ErCheckConstraint                            uint16 = 3819
	ErNoReferencedRow                            uint16 = 1452
	ErRowIsReferenced                            uint16 = 1451
	ErWrongFieldWithGroup                        uint16 = 1055
	ErSubqueryNo1Row                             uint16 = 1242
	ErTableNotLockedForWrite                     uint16 = 1099
	ErTableNotLocked                             uint16 = 1100
	ErCantUpdateWithReadlock                     uint16 = 1223
	ErMixOfGroupFuncAndFields                    uint16 = 1140
	ErSavepointDoesNotExist                      uint16 = 1305
	ErIOError                                    uint16 = 1026
	ErErrorOnWrite                               uint16 = 1026
	ErBinlogPurgeProhibited                      uint16 = 1375
	ErUnknownTargetBinlog                        uint16 = 1373
	ErMasterFatalErrorReadLog                    uint16 = 1236
	ErNoBinaryLogging                            uint16 = 1381
	ErSlaveNotRunning                            uint16 = 1198
	ErBadSlave                                   uint16 = 1200
	ErMasterInfo                                 uint16 = 1201
	ErSlaveThread                                uint16 = 1202
	ErSlaveMustStop                              uint16 = 1198
	ErReadOnlyTransaction                        uint16 = 1792
	ErCantChangeTxCharacteristics                uint16 = 1568
	ErUnknownProcedure                           uint16 = 1106
	ErCantReopenTable                            uint16 = 1137
	ErMalformedGTIDSpec                          uint16 = 1772 // ER_MALFORMED_GTID_SET_SPECIFICATION
	ErMalformedGTIDEncoding                      uint16 = 1773 // ER_MALFORMED_GTID_SET_ENCODING
	ErGTIDExecutedNotEmpty                       uint16 = 1840
	ErCantSetGTIDPurgedDueSetsConstraints        uint16 = 3546
	ErIncorrectGlobalLocalVar                    uint16 = 1238

	// Foreign key definitions and DDL on referenced tables.
	ErKeyColumnDoesNotExist uint16 = 1072 // ER_KEY_COLUMN_DOES_NOT_EXITS
	ErDropIndexFK           uint16 = 1553
	ErTruncateIllegalFK     uint16 = 1701
	ErFKNoIndexParent       uint16 = 1822
	ErFKCannotOpenParent    uint16 = 1824
	ErFKColumnNotNull       uint16 = 1830
	ErFKCannotDropParent    uint16 = 3730
	ErFKNoColumnParent      uint16 = 3734
	ErFKIncompatibleColumns uint16 = 3780
	ErFKNoUniqueIndexParent uint16 = 6125
)

// states maps codes to SQLSTATEs; codes absent here use HY000, MySQL's general state.
var states = map[uint16]string{
	ErConCountError:               "08004",
	ErTooManyUserConnections:      "42000",
	ErNetReadInterrupted:          "08S01",
	ErNetWriteInterrupted:         "08S01",
	ErHandshakeError:              "08S01",
	ErDBAccessDenied:              "42000",
	ErAccessDenied:                "28000",
	ErNoDB:                        "3D000",
	ErUnknownCom:                  "08S01",
	ErBadNull:                     "23000",
	ErBadDB:                       "42000",
	ErTableExists:                 "42S01",
	ErBadTable:                    "42S02",
	ErMultiplePriKey:              "42000",
	ErBadField:                    "42S22",
	ErDupFieldName:                "42S21",
	ErInvalidDefault:              "42000",
	ErWrongAutoKey:                "42000",
	ErTooBigFieldLength:           "42000",
	ErBlobCantHaveDefault:         "42000",
	ErUnknownCharacterSet:         "42000",
	ErMBiggerThanD:                "42000",
	ErTooBigScale:                 "42000",
	ErTooBigPrecision:             "42000",
	ErInvalidOnUpdate:             "HY000",
	ErDupKeyName:                  "42000",
	ErDupEntry:                    "23000",
	ErParse:                       "42000",
	ErEmptyQuery:                  "42000",
	ErCantDropFieldOrKey:          "42000",
	ErWrongDBName:                 "42000",
	ErWrongTableName:              "42000",
	ErUnknownSystemVariable:       "HY000",
	ErNetPacketTooLarge:           "08S01",
	ErNetReadError:                "08S01",
	ErNetErrorOnWrite:             "08S01",
	ErNetPacketsOutOfOrder:        "08S01",
	ErUnknownStmtHandler:          "HY000",
	ErNoSuchTable:                 "42S02",
	ErSyntaxError:                 "42000",
	ErSpecificAccessDenied:        "42000",
	ErWrongValueForVar:            "42000",
	ErWrongTypeForVar:             "42000",
	ErNotSupportedYet:             "42000",
	ErWrongArguments:              "HY000",
	ErTableAccessDenied:           "42000",
	ErColumnAccessDenied:          "42000",
	ErIllegalGrantForTable:        "42000",
	ErNonexistingGrant:            "42000",
	ErNonexistingTableGrant:       "42000",
	ErCantCreateUserWithGrant:     "42000",
	ErServerShutdown:              "08S01",
	ErQueryInterrupted:            "70100",
	ErNoSuchIndex:                 "42S12",
	ErCantDoThisDuringTxn:         "25000",
	ErUnknownTable:                "42S02",
	ErDataTooLong:                 "22001",
	1264:                          "22003", // ER_WARN_DATA_OUT_OF_RANGE
	ErDataOutOfRange:              "22003",
	ErDivisionByZero:              "22012",
	ErWarnDataTruncated:           "01000",
	ErWrongValueCountOnRow:        "21S01",
	ErTruncatedWrongValue:         "22007",
	ErNoReferencedRow:             "23000",
	ErRowIsReferenced:             "23000",
	ErWrongFieldWithGroup:         "42000",
	ErSubqueryNo1Row:              "21000",
	ErTableNotLockedForWrite:      "HY000",
	ErTableNotLocked:              "HY000",
	ErCantUpdateWithReadlock:      "HY000",
	ErMixOfGroupFuncAndFields:     "42000",
	ErSPDoesNotExist:              "42000",
	ErLockDeadlock:                "40001",
	ErReadOnlyTransaction:         "25006",
	ErCantChangeTxCharacteristics: "25001",
	ErUnknownProcedure:            "42000",
	ErKeyColumnDoesNotExist:       "42000",
	ErTruncateIllegalFK:           "42000",

	ErCollationCharsetMismatch: "42000",
	ErCantRemoveAllFields:      "42000",
	ErInvalidUseOfNull:         "22004",
	ErKeyDoesNotExist:          "42000",
	ErSpNoRetset:               "0A000",
}

// State returns the SQLSTATE MySQL uses for code.
func State(code uint16) string {
	if s, ok := states[code]; ok {
		return s
	}
	return "HY000"
}
