package excerpt

import (
	"strings"
	"testing"
)

func TestOf(t *testing.T) {
	if Of("short") != "short" || Quote("a\tb") != `"a\tb"` {
		t.Error("short strings changed")
	}
	long := strings.Repeat("é", 100) // 200 bytes
	got := Of(long)
	if len(got) > Max+30 || !strings.HasSuffix(got, "(200 bytes)") || !strings.HasPrefix(got, "éé") {
		t.Errorf("Of(200 bytes) = %q", got)
	}
	if q := Quote(strings.Repeat("x", 1<<20)); len(q) > Max+30 {
		t.Errorf("Quote of 1 MiB is %d bytes", len(q))
	}
}
