package proc

import "syscall"

// DevNullStdout reports whether the standard output is /dev/null opened
// for reading and writing: what the Go runtime puts on a descriptor that
// was closed when the process started (runtime.checkfds), since a shell's
// redirection to /dev/null opens it for writing only. Output written there
// is lost: a command that has output to print should fail, as a C program
// writing to a closed descriptor does (EBADF).
func DevNullStdout() bool {
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, 1, syscall.F_GETFL, 0)
	if errno != 0 || flags&syscall.O_ACCMODE != syscall.O_RDWR {
		return false
	}
	var st syscall.Stat_t
	if syscall.Fstat(1, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFCHR {
		return false
	}
	var null syscall.Stat_t
	return syscall.Stat("/dev/null", &null) == nil && null.Rdev == st.Rdev
}
