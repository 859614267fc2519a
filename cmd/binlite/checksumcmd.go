package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/binlite/binlite/checksum"
)

func runChecksum(args []string) error {
	fs := flag.NewFlagSet("checksum", flag.ExitOnError)
	src := fs.String("source", "127.0.0.1:3306", "source address host:port")
	dst := fs.String("replica", "", "replica address host:port")
	user := fs.String("user", "root", "user on both servers")
	password := fs.String("password", "", "password on both servers")
	dbs := fs.String("databases", "", "comma-separated databases (default: all but system ones)")
	chunk := fs.Int("chunk-size", 1000, "rows per chunk")
	fs.Parse(args)
	if *dst == "" {
		return fmt.Errorf("checksum: --replica is required")
	}
	open := func(addr string) (*sql.DB, error) {
		return sql.Open("mysql", fmt.Sprintf("%s:%s@tcp(%s)/", *user, *password, addr))
	}
	a, err := open(*src)
	if err != nil {
		return err
	}
	defer a.Close()
	b, err := open(*dst)
	if err != nil {
		return err
	}
	defer b.Close()
	o := checksum.Options{ChunkSize: *chunk, Out: os.Stdout}
	if *dbs != "" {
		o.Databases = strings.Split(*dbs, ",")
	}
	rep, err := checksum.Compare(context.Background(), a, b, o)
	if err != nil {
		return err
	}
	for _, d := range rep.Diffs {
		fmt.Println("DIFF", d)
	}
	fmt.Printf("%d tables, %d rows compared, %d differences\n", rep.Tables, rep.Rows, len(rep.Diffs))
	if len(rep.Diffs) > 0 {
		os.Exit(1)
	}
	return nil
}
