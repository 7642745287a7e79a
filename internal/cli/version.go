package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// versionText names the build: the module version stamped by the Go
// toolchain ("devel" for a source build), then the VCS revision and its time
// when the build recorded them, "+changes" when the tree was modified.
func versionText(bi *debug.BuildInfo, ok bool) string {
	v := buildVersion(bi, ok)
	if !ok {
		return "svcwallet " + v.Version
	}
	out := "svcwallet " + v.Version
	if v.Revision != "" {
		dirty := ""
		if v.Modified {
			dirty = "+changes"
		}
		out += fmt.Sprintf(" (revision %.12s%s", v.Revision, dirty)
		if v.Time != "" {
			out += ", " + v.Time
		}
		out += ")"
	}
	return out + ", " + v.Go
}

// versionJSON is `svcwallet version --json`.
type versionJSON struct {
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified"`
	Go       string `json:"go,omitempty"`
}

func buildVersion(bi *debug.BuildInfo, ok bool) versionJSON {
	if !ok {
		return versionJSON{Version: "devel"}
	}
	v := versionJSON{Version: bi.Main.Version, Go: bi.GoVersion}
	if v.Version == "" || v.Version == "(devel)" {
		v.Version = "devel"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, VCS revision and Go version",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			bi, ok := debug.ReadBuildInfo()
			if a.env.JSON {
				return writeFailed("svcwallet version", writeJSON(a.env.Stdout, buildVersion(bi, ok)))
			}
			fmt.Fprintln(a.env.Stdout, versionText(bi, ok))
			return nil
		},
	}
}

// writeFailed is a failed write of a command's output: status 1.
func writeFailed(cmd string, err error) error {
	if err != nil {
		return failure(cmd, "output", 1, "cannot write the output: %v", err)
	}
	return nil
}
