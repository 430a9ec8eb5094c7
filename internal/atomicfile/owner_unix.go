//go:build unix

package atomicfile

import (
	"os"
	"syscall"
)

// keepOwner gives f the owner and group of old, as far as we may (root
// may; anyone else keeps their own, as install(1) does).
func keepOwner(f *os.File, old os.FileInfo) {
	if st, ok := old.Sys().(*syscall.Stat_t); ok && os.Geteuid() == 0 {
		f.Chown(int(st.Uid), int(st.Gid))
	}
}
