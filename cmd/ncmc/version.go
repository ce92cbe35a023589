package main

import (
	"fmt"
	"runtime/debug"
)

// version is ncmc's release number.
const version = "0.1"

// versionCmd prints the version (BenchExec's tool-info module reads it).
type versionCmd struct{}

func (versionCmd) run(e *env) int {
	fmt.Fprintln(e.stdout, versionString())
	return exitVerified
}

// versionString is the release number followed by the VCS revision the
// binary was built from, when the build recorded it ("0.1+1a2b3c4d5e6f",
// with "-dirty" for a modified tree).
func versionString() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return version
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return version
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return version + "+" + rev
}
