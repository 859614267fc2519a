package server_test

// Exact round trips through real drivers: go-sql-driver/mysql (text and binary
// protocol) and, from Debian, PyMySQL (python3-pymysql) and mysqlclient
// (python3-mysqldb): DECIMAL(30,10) at its full 30 digits, BIGINT UNSIGNED at
// the top of its range (2^64-1, kept as a BLOB: package u64), DATETIME(6), bytes
// with NUL, NULL.

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	tn "github.com/binlite/binlite/internal/testnode"
)

const roundTripDDL = "CREATE TABLE rt (id INT PRIMARY KEY, d DECIMAL(30,10), u BIGINT UNSIGNED, dt DATETIME(6), b BLOB, n INT)"

func TestRoundTripGoDriver(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, n *tn.Node, p protocol) {
		tn.Exec(t, n.DB(""), "CREATE DATABASE rt")
		s := p.session(t, n, "rt")
		tn.Exec(t, s, roundTripDDL)
		dt := time.Date(2024, 1, 2, 3, 4, 5, 123456000, time.UTC)
		tn.Exec(t, s, "INSERT INTO rt (id, d, u, dt, b, n) VALUES (?, ?, ?, ?, ?, ?)", 1, "12345678901234567890.0123456789", uint64(18446744073709551615), dt, []byte{0, 1, 0, 255}, nil)
		rows, err := s.QueryContext(context.Background(), "SELECT d, u, dt, b, n, LENGTH(b) FROM rt WHERE id = 1")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		if !rows.Next() {
			t.Fatal("no row")
		}
		var d, dts string
		var u uint64
		var b []byte
		var nv *int64
		var length int64
		if err := rows.Scan(&d, &u, &dts, &b, &nv, &length); err != nil {
			t.Fatal(err)
		}
		if d != "12345678901234567890.0123456789" || u != 18446744073709551615 || dts != "2024-01-02 03:04:05.123456" || !bytes.Equal(b, []byte{0, 1, 0, 255}) || nv != nil || length != 4 {
			t.Errorf("read back d=%s u=%d dt=%s b=%x n=%v LENGTH(b)=%d", d, u, dts, b, nv, length)
		}
	})
}

func TestRoundTripPythonDrivers(t *testing.T) {
	py := "/usr/bin/python3" // Debian's, where python3-pymysql and python3-mysqldb install
	for _, lib := range []string{"pymysql", "mysqldb"} {
		module := map[string]string{"pymysql": "pymysql", "mysqldb": "MySQLdb"}[lib]
		if err := exec.Command(py, "-c", "import "+module).Run(); err != nil {
			t.Fatalf("%s cannot import %s (install python3-pymysql and python3-mysqldb; .ci/run does): %v", py, module, err)
		}
	}
	n := tn.Start(t)
	tn.Exec(t, n.DB(""), "CREATE DATABASE rt")
	tn.Exec(t, n.DB("rt"), roundTripDDL)
	for i, lib := range []string{"pymysql", "mysqldb"} {
		t.Run(lib, func(t *testing.T) {
			out, err := exec.Command(py, "testdata/roundtrip.py", lib, strconv.Itoa(n.Port()), strconv.Itoa(10+i)).CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			var got map[string]any
			if err := json.Unmarshal(bytes.TrimSpace(out), &got); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			want := map[string]any{"d": "12345678901234567890.0123456789", "d_type": "Decimal", "u": "18446744073709551615", "u_type": "int", "dt": "2024-01-02T03:04:05.123456", "b": "000100ff", "n": nil, "len": float64(4)}
			for k, w := range want {
				if got[k] != w {
					t.Errorf("%s: %s = %v, want %v (all: %s)", lib, k, got[k], w, strings.TrimSpace(string(out)))
				}
			}
		})
	}
}
