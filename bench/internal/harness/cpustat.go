package harness

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"
)

// MachineCPU is the machine-wide CPU time from the first line of /proc/stat, in
// seconds summed over all cores (100 clock ticks per second).
type MachineCPU struct {
	Busy  float64 // user, nice, system, irq, softirq, steal
	Total float64 // Busy plus idle and iowait
}

// ReadMachineCPU reads /proc/stat.
func ReadMachineCPU() (MachineCPU, error) {
	f, err := os.Open("/proc/stat")
	if err != nil {
		return MachineCPU{}, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		return MachineCPU{}, errors.New("empty /proc/stat")
	}
	fields := strings.Fields(sc.Text())
	if len(fields) < 8 || fields[0] != "cpu" {
		return MachineCPU{}, errors.New("unexpected /proc/stat")
	}
	var c MachineCPU
	for i, f := range fields[1:min(len(fields), 9)] { // user nice system idle iowait irq softirq steal
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return MachineCPU{}, err
		}
		v /= 100
		c.Total += v
		if i != 3 && i != 4 {
			c.Busy += v
		}
	}
	return c, nil
}

// Sub returns c - b.
func (c MachineCPU) Sub(b MachineCPU) MachineCPU {
	return MachineCPU{Busy: c.Busy - b.Busy, Total: c.Total - b.Total}
}
