// Command binlite is the one binary: a MySQL-compatible server on SQLite with a
// GTID binary log (serve), a local demonstration (demo), and log tools.
package main

import (
	"fmt"
	"os"
)

const usage = `binlite: a MySQL-compatible SQL server on SQLite with a GTID binary log

Usage:
  binlite serve --datadir DIR [--port P] [--server-id N] [--bind ADDR] [--http-port P] [--config FILE]
  binlite demo [--seconds N] [--dir DIR]
  binlite binlog dump FILE
  binlite checksum --source HOST:PORT --replica HOST:PORT [--user U --password P --databases a,b]
  binlite version
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = runServe(os.Args[2:])
	case "demo":
		err = runDemo(os.Args[2:])
	case "binlog":
		err = runBinlog(os.Args[2:])
	case "checksum":
		err = runChecksum(os.Args[2:])
	case "version", "--version":
		fmt.Println(versionString())
	case "help", "-h", "--help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "binlite: unknown command %q\n\n%s", os.Args[1], usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "binlite: %v\n", err)
		os.Exit(1)
	}
}
