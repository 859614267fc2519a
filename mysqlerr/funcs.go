package mysqlerr

// MySQL's errors and warnings of its built-in functions.
const (
	ErWarnAllowedPacketOverflowed uint16 = 1301 // a string result beyond max_allowed_packet: NULL
	ErInvalidCharacterString      uint16 = 1300 // CHAR(... USING cs) of bytes not valid in cs
	ErUnknownLocale               uint16 = 1649 // FORMAT's third argument
	ErInvalidArgumentForLogarithm uint16 = 3020 // LN(0), LOG(-1): NULL with this warning
	ErWrongParametersToNativeFct  uint16 = 1583 // a built-in function's arguments are not usable
	ErRegexpSyntax                uint16 = 3692 // REGEXP: a pattern ICU does not compile
	ErRegexpIndexOutOfBounds      uint16 = 3686
	ErWrongValueForType           uint16 = 1411 // ER_WRONG_VALUE_FOR_TYPE: UUID_TO_BIN, INET6_ATON of text that is none
	ErCutValueGroupConcat         uint16 = 1260 // GROUP_CONCAT beyond group_concat_max_len
)

func init() {
	states[ErWrongParametersToNativeFct] = "42000"
	states[ErRegexpSyntax] = "HY000"
}
