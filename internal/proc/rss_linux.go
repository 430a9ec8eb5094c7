//go:build linux

package proc

import (
	"os"
	"strconv"
	"strings"
)

// RSS is the resident memory of a running process in bytes (false where
// the system does not say).
func RSS(pid int) (int64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * int64(os.Getpagesize()), true
}

// SelfPeakRSSMB is this process's peak resident memory in MiB (VmHWM), 0
// where the system does not say. A parent cannot read it from the
// child's rusage: Linux carries the parent's peak at the fork into the
// child's ru_maxrss across the exec, so a child of a 90 MB parent reports
// at least 90 MB there, while VmHWM belongs to the new image alone.
func SelfPeakRSSMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) == 0 {
				return 0
			}
			kb, err := strconv.ParseFloat(f[0], 64)
			if err != nil {
				return 0
			}
			return kb / 1024
		}
	}
	return 0
}
