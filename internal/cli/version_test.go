package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionText: each way svcwallet is built says its version, revision
// and date from the source that has them.
func TestVersionText(t *testing.T) {
	vcs := func(rev, at, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: at}, {Key: "vcs.modified", Value: modified}}
	}
	info := func(version string, settings []debug.BuildSetting) *debug.BuildInfo {
		return &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/svcwallet/svcwallet", Version: version}, Settings: settings}
	}
	for _, tc := range []struct {
		name  string
		stamp Stamp
		bi    *debug.BuildInfo
		ok    bool
		want  string
	}{
		{"release build (goreleaser's ldflags; its {{.Version}} has no v)",
			Stamp{Version: "1.2.3", Commit: "0123456789abcdef0123456789abcdef01234567", Date: "2026-11-23T08:00:00Z"},
			info("(devel)", nil), true,
			"svcwallet v1.2.3 (revision 0123456789ab, 2026-11-23T08:00:00Z), go1.26.8"},
		{"release build stamped with the tag itself",
			Stamp{Version: "v1.2.3", Commit: "0123456789abcdef", Date: "2026-11-23T08:00:00Z"},
			info("v1.2.3", nil), true,
			"svcwallet v1.2.3 (revision 0123456789ab, 2026-11-23T08:00:00Z), go1.26.8"},
		{"go install module@v1.2.3: the tag only, the module zip has no revision",
			Stamp{}, info("v1.2.3", nil), true,
			"svcwallet v1.2.3, go1.26.8"},
		{"go install module@commit: the pseudo-version's revision and time",
			Stamp{}, info("v0.0.0-20261123080000-0123456789ab", nil), true,
			"svcwallet v0.0.0-20261123080000-0123456789ab (revision 0123456789ab, 2026-11-23T08:00:00Z), go1.26.8"},
		{"go install module@commit after a tag",
			Stamp{}, info("v1.2.4-0.20261123080000-0123456789ab", nil), true,
			"svcwallet v1.2.4-0.20261123080000-0123456789ab (revision 0123456789ab, 2026-11-23T08:00:00Z), go1.26.8"},
		{"go build in a clone, Go before 1.24 or no tag: devel and the VCS settings",
			Stamp{}, info("(devel)", vcs("0123456789abcdef0123", "2026-11-23T08:00:00Z", "false")), true,
			"svcwallet devel (revision 0123456789ab, 2026-11-23T08:00:00Z), go1.26.8"},
		{"go build in a modified clone at a tag",
			Stamp{}, info("v1.2.3+dirty", vcs("0123456789abcdef0123", "2026-11-23T08:00:00Z", "true")), true,
			"svcwallet v1.2.3+dirty (revision 0123456789ab+changes, 2026-11-23T08:00:00Z), go1.26.8"},
		{"go build -buildvcs=false", Stamp{}, info("(devel)", nil), true, "svcwallet devel, go1.26.8"},
		{"no build info", Stamp{}, nil, false, "svcwallet devel"},
	} {
		if got := versionText(tc.stamp, tc.bi, tc.ok); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
	for _, arg := range []string{"version", "--version"} {
		r := depositCmd(t, nil, arg)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "svcwallet ") || r.stderr != "" {
			t.Errorf("%s: exit %d, %q %q", arg, r.code, r.stdout, r.stderr)
		}
	}
}

// A tag is not a pseudo-version: it names no revision.
func TestPseudoVersionRevision(t *testing.T) {
	for in, want := range map[string]string{
		"v0.0.0-20261123080000-0123456789ab":       "0123456789ab 2026-11-23T08:00:00Z",
		"v1.2.4-pre.0.20261123080000-0123456789ab": "0123456789ab 2026-11-23T08:00:00Z",
		"v0.0.0-20261123080000-0123456789ab+dirty": "0123456789ab 2026-11-23T08:00:00Z",
		"v1.2.3":                             " ",
		"v1.2.3-rc.1":                        " ",
		"v1.2.3-beta-1":                      " ",
		"v0.0.0-20261123080000-0123456789AB": " ",
		"v0.0.0-2026112308000-0123456789ab":  " ",
		"v0.0.0-20261123080000-0123456789ab+incompatible": "0123456789ab 2026-11-23T08:00:00Z",
	} {
		rev, at := pseudoVersionRevision(in)
		if got := rev + " " + at; got != want {
			t.Errorf("%s: %q, want %q", in, got, want)
		}
	}
}

// TestVersionJSONModified: --json says modified only when the build knows
// (its VCS settings); without them it says nothing rather than false.
func TestVersionJSONModified(t *testing.T) {
	noVCS := buildVersion(Stamp{}, &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true)
	clean := buildVersion(Stamp{}, &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.modified", Value: "false"}}}, true)
	for v, want := range map[*versionJSON]string{&noVCS: `"version":"devel"}`, &clean: `"modified":false`} {
		b, err := json.Marshal(v)
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s, %v: want %s", b, err, want)
		}
	}
}

// TestPrintsOnlyCatchesNoSignal: version, help, man and completion only
// print, and start no signal catching; every other command, the console
// included, is interruptible.
func TestPrintsOnlyCatchesNoSignal(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		caught bool
	}{
		{[]string{"version"}, false}, {[]string{"--help"}, false}, {[]string{"man"}, false}, {[]string{"completion", "bash"}, false},
		{[]string{"history"}, true}, {[]string{"status", "--help"}, true}, {[]string{"bogus"}, true},
	} {
		caught := false
		var out bytes.Buffer
		env := CLIEnv{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" },
			Interrupt: func(ctx context.Context) (context.Context, func()) { caught = true; return ctx, func() {} }}
		Run(tc.args, env)
		if caught != tc.caught {
			t.Errorf("%v: signals caught %v, want %v", tc.args, caught, tc.caught)
		}
	}
}
