package mysqlerr

// Views and triggers.
const (
	ErNonUpdatableTable         uint16 = 1288 // The target table %s of the %s is not updatable
	ErWrongObject               uint16 = 1347 // '%s.%s' is not %s
	ErViewWrongList             uint16 = 1353
	ErViewInvalid               uint16 = 1356
	ErTrgAlreadyExists          uint16 = 1359
	ErTrgDoesNotExist           uint16 = 1360
	ErTrgOnViewOrTempTable      uint16 = 1361
	ErTrgCantChangeRow          uint16 = 1362
	ErTrgNoSuchRowInTrg         uint16 = 1363
	ErSpNoRetset                uint16 = 1415
	ErCantUpdateUsedTableInTrg  uint16 = 1442
	ErTrgInWrongSchema          uint16 = 1435
	ErReferencedTrgDoesNotExist uint16 = 3062
)
