package main

import (
	"runtime/debug"
	"strings"
)

// commit is set by the Makefile (-ldflags -X main.commit=...) to what
// "git describe" says, for builds that carry no VCS information (Go omits
// it with -buildvcs=false, and in builds outside a checkout).
var commit string

// version is the module version and the commit this binary was built
// from, as Go records them: "v1.2.3", or "(devel)" for a build from a
// checkout, then the commit and "+dirty" for a tree with changes.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, dirty, at string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		case "vcs.time":
			at = s.Value
		}
	}
	if rev == "" && commit != "" {
		return v + ", commit " + commit + ", " + bi.GoVersion
	}
	if rev == "" {
		return v + ", " + bi.GoVersion
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	out := v + ", commit " + rev + dirty
	if at != "" {
		out += " of " + strings.TrimSuffix(at, "Z")
	}
	return out + ", " + bi.GoVersion
}
