package sqlitec

/*
#include <malloc.h>
*/
import "C"

// ReleaseMemory gives the C heap's free memory back to the system (glibc's
// malloc_trim): what SQLite and the driver allocated for a large statement
// (its text, the copies of its literals) is otherwise kept by the allocator
// for reuse after it is freed.
func ReleaseMemory() {
	C.malloc_trim(0)
}
