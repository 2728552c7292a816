package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// version is the release version, set at link time by a release build:
//
//	go build -ldflags "-X github.com/nqcount/nqcount/internal/cli.version=v1.2.3" ./cmd/...
//
// When it is empty the module version from the build information is used
// (v1.2.3 after 'go install github.com/nqcount/nqcount/cmd/nqueens@v1.2.3').
var version string

// Version returns the program's version: the one set at link time, else
// the main module's version, else "(devel)".
func Version() string {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(version, bi)
}

func versionOf(ldflags string, bi *debug.BuildInfo) string {
	switch {
	case ldflags != "":
		return ldflags
	case bi != nil && bi.Main.Version != "":
		return bi.Main.Version
	}
	return "(devel)"
}

// VersionLine is what --version prints: the program, its version, the
// VCS revision it was built from and whether the tree had uncommitted
// changes (from the build information that go build records in a git
// checkout), the Go version and the platform, e.g.
//
//	nqueens v1.2.3 (commit 24354f4a8b1c, modified; go1.26.0 linux/amd64)
func VersionLine(prog string) string {
	bi, _ := debug.ReadBuildInfo()
	return versionLine(prog, version, bi)
}

func versionLine(prog, ldflags string, bi *debug.BuildInfo) string {
	var rev, modified string
	goVersion := runtime.Version()
	if bi != nil {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if bi.GoVersion != "" {
			goVersion = bi.GoVersion
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s (", prog, versionOf(ldflags, bi))
	switch {
	case rev == "":
		b.WriteString("no commit recorded")
	default:
		if len(rev) > 12 {
			rev = rev[:12]
		}
		b.WriteString("commit " + rev)
		if modified == "true" {
			b.WriteString(", modified")
		}
	}
	fmt.Fprintf(&b, "; %s %s/%s)", goVersion, runtime.GOOS, runtime.GOARCH)
	return b.String()
}
