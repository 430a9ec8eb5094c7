//go:build linux

package proc

import (
	"runtime"
	"testing"
)

// TestSelfPeakRSSMB: the peak grows by what the process touches.
func TestSelfPeakRSSMB(t *testing.T) {
	before := SelfPeakRSSMB()
	if before <= 0 {
		t.Fatalf("peak %.1f MiB", before)
	}
	b := make([]byte, 64<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	after := SelfPeakRSSMB()
	runtime.KeepAlive(b)
	if after < before+60 {
		t.Errorf("peak %.1f MiB after touching 64 MiB (%.1f before)", after, before)
	}
}
