package cli

import (
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// Stamp is what a release build is told at link time (goreleaser's
// ldflags: -X main.version, main.commit, main.date); empty in any other
// build, whose build info says the same.
type Stamp struct{ Version, Commit, Date string }

// versionText names the build: its version (the release's tag, the module
// version go install fetched, "devel" for a build without one), then the
// revision and its time when known, "+changes" when the tree was modified,
// then the Go version.
func versionText(s Stamp, bi *debug.BuildInfo, ok bool) string {
	v := buildVersion(s, bi, ok)
	out := "svcwallet " + v.Version
	if v.Revision != "" {
		dirty := ""
		if v.Modified != nil && *v.Modified {
			dirty = "+changes"
		}
		out += fmt.Sprintf(" (revision %.12s%s", v.Revision, dirty)
		if v.Time != "" {
			out += ", " + v.Time
		}
		out += ")"
	}
	if v.Go != "" {
		out += ", " + v.Go
	}
	return out
}

// versionJSON is `svcwallet version --json`.
type versionJSON struct {
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified *bool  `json:"modified,omitempty"` // absent when the build has no VCS information
	Go       string `json:"go,omitempty"`
}

// buildVersion reads each fact from the first source that has it: the
// release's stamp; the build info's module version (go install
// module@version, or a clone's tag); its VCS settings (a build in a clone);
// the revision and time a pseudo-version carries (go install module@commit).
func buildVersion(s Stamp, bi *debug.BuildInfo, ok bool) versionJSON {
	v := versionJSON{Version: "devel"}
	if ok {
		v.Go = bi.GoVersion
		if mv := bi.Main.Version; mv != "" && mv != "(devel)" {
			v.Version = mv
			v.Revision, v.Time = pseudoVersionRevision(mv)
		}
		for _, set := range bi.Settings {
			switch set.Key {
			case "vcs.revision":
				v.Revision = set.Value
			case "vcs.time":
				v.Time = set.Value
			case "vcs.modified":
				modified := set.Value == "true"
				v.Modified = &modified
			}
		}
	}
	if s.Version != "" {
		v.Version = s.Version
		if c := s.Version[0]; c >= '0' && c <= '9' {
			v.Version = "v" + s.Version // goreleaser's {{.Version}} drops the tag's v
		}
	}
	if s.Commit != "" {
		v.Revision = s.Commit
	}
	if s.Date != "" {
		v.Time = s.Date
	}
	return v
}

// pseudoVersionRevision is the revision and UTC time a module
// pseudo-version ends with (v0.0.0-20261123080000-0123456789ab, or
// v1.2.4-0.20261123080000-0123456789ab after a tag); empty for a tag.
func pseudoVersionRevision(mv string) (rev, at string) {
	mv, _, _ = strings.Cut(mv, "+")
	parts := strings.Split(mv, "-")
	if len(parts) < 3 {
		return "", ""
	}
	rev, stamp := parts[len(parts)-1], parts[len(parts)-2]
	stamp = stamp[strings.LastIndex(stamp, ".")+1:]
	t, err := time.Parse("20060102150405", stamp)
	if err != nil || len(rev) != 12 || strings.Trim(rev, "0123456789abcdef") != "" {
		return "", ""
	}
	return rev, t.UTC().Format(time.RFC3339)
}

func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:         "version",
		Annotations: map[string]string{annotationNoFiles: "yes"},
		Short:       "Print the version, revision, its date and the Go version",
		Long: `Prints which build this is: its version (a release's tag, the module version
go install fetched, else devel), the revision and its time when the build
knows them (+changes: built from a modified tree), and the Go version. Give
it when you report a problem or check what an upgrade installed. It reads
none of svcwallet's files and asks no service.`,
		Example: `  svcwallet version
  # The same facts as one JSON object, for a script or a bug report
  svcwallet version --json`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			bi, ok := debug.ReadBuildInfo()
			if a.env.JSON {
				return outputError(writeJSON(a.env.Stdout, buildVersion(a.env.Stamp, bi, ok)))
			}
			fmt.Fprintln(a.env.Stdout, versionText(a.env.Stamp, bi, ok))
			return nil
		},
	}
}
