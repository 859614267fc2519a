package main

import (
	"math"
	"testing"
)

func TestLagSeconds(t *testing.T) {
	// The source commits 100 transactions per second; the replica is 2 s behind from
	// t=3 on.
	var s []Sample
	for i := 0; i <= 10; i++ {
		t0 := float64(i)
		x := Sample{T: t0, TSrc: t0, SrcLast: uint64(100 * i)}
		if i >= 3 {
			x.OldestMissing = uint64(100*(i-2)) + 1
			x.Distance = 200
		}
		s = append(s, x)
	}
	lagSeconds(s)
	for i, x := range s {
		want := 0.0
		if i >= 3 {
			want = 2 - 0.01 // the oldest missing one was committed 1/100 s after the reading 2 s earlier
		}
		if math.Abs(x.LagSec-want) > 1e-9 {
			t.Errorf("sample %d: lag %v, want %v", i, x.LagSec, want)
		}
	}
}

func TestWindows(t *testing.T) {
	var s []Sample
	for i := 0; i < 130; i++ {
		s = append(s, Sample{T: float64(i) / 10, TSrc: float64(i) / 10, Load: i < 120, LagSec: float64(i%10) / 100, Distance: uint64(i % 7)})
	}
	w := windows(s, 12, 10)
	if len(w) != 3 || w[0].Label != "0–10" || w[1].Label != "10–12" || w[2].Label != "drain" {
		t.Fatalf("windows: %+v", w)
	}
	if w[0].SamplesCount != 100 || w[1].SamplesCount != 20 || w[2].SamplesCount != 10 {
		t.Errorf("samples per window: %d %d %d", w[0].SamplesCount, w[1].SamplesCount, w[2].SamplesCount)
	}
	if w[0].MaxLagMs != 90 || w[0].MaxDistance != 6 {
		t.Errorf("window 0: max lag %v ms, max distance %v", w[0].MaxLagMs, w[0].MaxDistance)
	}
}
