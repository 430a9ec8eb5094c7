//go:build !linux

package proc

import "errors"

// AllowedCPUs lists the CPUs this process may run on; only Linux says.
func AllowedCPUs() ([]int, error) {
	return nil, errors.New("pinning runs to CPUs needs Linux")
}
