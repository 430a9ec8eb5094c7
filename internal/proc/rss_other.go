//go:build !unix

package proc

import "os"

// MaxRSSMB is 0: the system does not say.
func MaxRSSMB(*os.ProcessState) float64 { return 0 }
