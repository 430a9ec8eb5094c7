//go:build unix

package proc

import (
	"os"
	"runtime"
	"syscall"
)

// MaxRSSMB is the peak resident memory of a finished process in MiB, or 0
// where the system does not say. On Linux it is at least the parent's
// resident memory when the child was started (see SelfPeakRSSMB): a child
// that reports its own peak is to be believed first.
func MaxRSSMB(ps *os.ProcessState) float64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return float64(ru.Maxrss) / (1 << 20) // bytes
	}
	return float64(ru.Maxrss) / 1024 // KiB
}
