//go:build !linux

package proc

// RSS is not known here.
func RSS(pid int) (int64, bool) { return 0, false }

// SelfPeakRSSMB is 0: not known here.
func SelfPeakRSSMB() float64 { return 0 }
