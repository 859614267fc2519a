package harness

import (
	"math"
	"testing"
)

const sysbenchReport = `sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

Running the test with following options:
Number of threads: 16
Initializing random number generator from current time


Initializing worker threads...

Threads started!

SQL statistics:
    queries performed:
        read:                            0
        write:                           107414
        other:                           0
        total:                           107414
    transactions:                        107414 (21461.23 per sec.)
    queries:                             107414 (21461.23 per sec.)
    ignored errors:                      3      (0.60 per sec.)
    reconnects:                          0      (0.00 per sec.)

General statistics:
    total time:                          5.0032s
    total number of events:              107414

Latency (ms):
         min:                                    0.10
         avg:                                    0.74
         max:                                   13.15
         95th percentile:                        1.52
         sum:                                79941.61

Threads fairness:
    events (avg/stddev):           6713.3750/25.74
    execution time (avg/stddev):   4.9964/0.00
`

func TestParseSysbench(t *testing.T) {
	r, err := ParseSysbench([]byte(sysbenchReport))
	if err != nil {
		t.Fatal(err)
	}
	want := SysbenchResult{Transactions: 107414, TPS: 21461.23, Queries: 107414, IgnoredErrors: 3, TotalSeconds: 5.0032,
		LatAvgMs: 0.74, LatP95Ms: 1.52, LatMaxMs: 13.15}
	if r != want {
		t.Fatalf("got %+v\nwant %+v", r, want)
	}
	if _, err := ParseSysbench([]byte("FATAL: mysql_drv_query() returned error 2013 (Lost connection to MySQL server during query)\n")); err == nil {
		t.Fatal("a report without a transactions line parsed")
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{{[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}, {[]float64{7}, 7}} {
		if got := Median(c.in); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	if !math.IsNaN(Median(nil)) {
		t.Error("Median(nil) is not NaN")
	}
}

func TestMariaDBGTIDCount(t *testing.T) {
	if n := MariaDBGTIDCount("0-1-100220"); n != 100220 {
		t.Fatalf("got %d", n)
	}
	if n := MariaDBGTIDCount("0-1-5,1-1-7"); n != 12 {
		t.Fatalf("got %d", n)
	}
	if n := MariaDBGTIDCount(""); n != 0 {
		t.Fatalf("got %d", n)
	}
}
