package cli

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionText(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-11-23T08:00:00Z"}, {Key: "vcs.modified", Value: "true"},
	}}
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		ok   bool
		want string
	}{
		{"release with revision", bi, true, "svcwallet v1.2.3 (revision 0123456789ab+changes, 2026-11-23T08:00:00Z), go1.26.8"},
		{"source build", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, true, "svcwallet devel, go1.26.8"},
		{"no build info", nil, false, "svcwallet devel"},
	} {
		if got := versionText(tc.bi, tc.ok); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	for _, arg := range []string{"version", "--version"} {
		r := depositCmd(t, nil, arg)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "svcwallet ") || r.stderr != "" {
			t.Errorf("%s: exit %d, %q %q", arg, r.code, r.stdout, r.stderr)
		}
	}
}
