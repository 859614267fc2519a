package catalog

import "github.com/binlite/binlite/mysqlerr"

func codeOf(err error) uint16 {
	if me, ok := mysqlerr.As(err); ok {
		return me.Code
	}
	return 0
}
