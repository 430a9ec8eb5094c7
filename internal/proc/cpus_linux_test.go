package proc

import (
	"runtime"
	"slices"
	"testing"
)

func TestCPUList(t *testing.T) {
	got, err := parseCPUList("0-3,6,8-9")
	if err != nil || !slices.Equal(got, []int{0, 1, 2, 3, 6, 8, 9}) {
		t.Errorf("%v %v", got, err)
	}
	for _, bad := range []string{"", "a", "3-1", "1-"} {
		if _, err := parseCPUList(bad); err == nil {
			t.Errorf("%q read", bad)
		}
	}
	if cpus, err := AllowedCPUs(); err != nil || len(cpus) != runtime.NumCPU() {
		t.Errorf("allowed %v (%v), NumCPU %d", cpus, err, runtime.NumCPU())
	}
}
