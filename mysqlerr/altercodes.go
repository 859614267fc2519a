package mysqlerr

// Codes of ALTER TABLE's refusals (names follow MySQL's ER_* constants).
const (
	ErCantRemoveAllFields        uint16 = 1090 // ER_CANT_REMOVE_ALL_FIELDS
	ErInvalidUseOfNull           uint16 = 1138 // ER_INVALID_USE_OF_NULL
	ErKeyDoesNotExist            uint16 = 1176 // ER_KEY_DOES_NOT_EXITS
	ErFKColumnCannotDrop         uint16 = 1828 // ER_FK_COLUMN_CANNOT_DROP
	ErFKColumnCannotDropChild    uint16 = 1829 // ER_FK_COLUMN_CANNOT_DROP_CHILD
	ErDependentByGeneratedColumn uint16 = 3108 // ER_DEPENDENT_BY_GENERATED_COLUMN
	ErCheckConstraintNotFound    uint16 = 3821 // ER_CHECK_CONSTRAINT_NOT_FOUND
	ErCheckConstraintDupName     uint16 = 3822 // ER_CHECK_CONSTRAINT_DUP_NAME
	ErConstraintNotFound         uint16 = 3940 // ER_CONSTRAINT_NOT_FOUND
	ErDependentByCheckConstraint uint16 = 3959 // ER_DEPENDENT_BY_CHECK_CONSTRAINT
)
