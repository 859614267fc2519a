package harness

import (
	"bufio"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// Machine describes where a benchmark ran.
type Machine struct {
	Hostname string `json:"hostname"`
	NumCPU   int    `json:"nproc"`
	CPUModel string `json:"cpu_model"`
	MemTotal string `json:"mem_total"`
	Kernel   string `json:"kernel"`
	OS       string `json:"os"`
	Go       string `json:"go"`
}

// DescribeMachine reads /proc and /etc/os-release.
func DescribeMachine() Machine {
	m := Machine{NumCPU: runtime.NumCPU(), Go: runtime.Version()}
	m.Hostname, _ = os.Hostname()
	m.CPUModel = procField("/proc/cpuinfo", "model name", ":")
	m.MemTotal = procField("/proc/meminfo", "MemTotal", ":")
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	m.OS = strings.Trim(procField("/etc/os-release", "PRETTY_NAME", "="), `"`)
	return m
}

func procField(path, key, sep string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), sep)
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// GitRevision is `git describe --always --dirty` of dir ("" if not a work tree).
func GitRevision(dir string) string {
	cmd := exec.Command("git", "describe", "--always", "--dirty")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
