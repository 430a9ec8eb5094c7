package proc

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// AllowedCPUs lists the CPUs this process may run on (its affinity, as
// taskset sets it: Cpus_allowed_list in /proc/self/status).
func AllowedCPUs() ([]int, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return nil, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		v, ok := strings.CutPrefix(l, "Cpus_allowed_list:")
		if !ok {
			continue
		}
		return parseCPUList(strings.TrimSpace(v))
	}
	return nil, fmt.Errorf("/proc/self/status has no Cpus_allowed_list")
}

// parseCPUList reads a kernel CPU list such as "0-3,6,8-9".
func parseCPUList(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("CPU list %q: %v", s, err)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("CPU list %q: bad range %q", s, part)
			}
		}
		for c := a; c <= b; c++ {
			out = append(out, c)
		}
	}
	return out, nil
}
