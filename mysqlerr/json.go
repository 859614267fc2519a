package mysqlerr

// MySQL's errors for JSON values, paths and functions.
const (
	ErInvalidJSONText          uint16 = 3140 // a column's JSON value is not JSON text
	ErInvalidJSONTextInParam   uint16 = 3141 // a function's JSON argument is not JSON text
	ErInvalidJSONPath          uint16 = 3143
	ErInvalidTypeForJSON       uint16 = 3146 // a number where a JSON document is required
	ErInvalidJSONPathWildcard  uint16 = 3149 // * or ** where a path must name one place
	ErJSONVacuousPath          uint16 = 3153 // JSON_REMOVE(doc, '$')
	ErJSONBadOneOrAllArg       uint16 = 3154
	ErJSONDocumentTooDeep      uint16 = 3157
	ErJSONDocumentNullKey      uint16 = 3158
	ErInvalidJSONPathArrayCell uint16 = 3165 // JSON_ARRAY_INSERT with a path not to an array cell
	ErWrongParamcountToNative  uint16 = 1582
)

func init() {
	for _, c := range []uint16{ErInvalidJSONText, ErInvalidJSONTextInParam, ErInvalidTypeForJSON, ErJSONDocumentTooDeep, ErJSONDocumentNullKey} {
		states[c] = "22032"
	}
	states[ErInvalidJSONPath] = "42000"
	states[ErWrongParamcountToNative] = "42000"
}
