//go:build !linux

package proc

// RSS is not known here.
func RSS(pid int) (int64, bool) { return 0, false }
