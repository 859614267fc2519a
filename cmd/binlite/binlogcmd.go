package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/binlite/binlite/binlog"
)

func runBinlog(args []string) error {
	if len(args) != 2 || args[0] != "dump" {
		return fmt.Errorf("usage: binlite binlog dump FILE")
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	return binlog.Dump(w, args[1])
}
