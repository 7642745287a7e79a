package cli

import (
	"errors"
	"strings"
	"testing"
)

// TestDoctorSaysProtections: doctor names the process's protections the
// system has (both on Linux, core files off on macOS and FreeBSD, none on
// Windows, said as none), and warns with a fix when they cannot be turned on.
func TestDoctorSaysProtections(t *testing.T) {
	cfg, _ := localConfig(t)
	for goos, want := range map[string]string{
		"linux":   "protections on: not dumpable (no debugger attaches, and no other process of yours reads its memory through /proc), core files off (core size limit 0)",
		"darwin":  "protections on: core files off (core size limit 0); a debugger run by your user is not kept out on macOS",
		"freebsd": "protections on: core files off (core size limit 0); a debugger run by your user is not kept out on FreeBSD",
		"windows": "no process protections on Windows: crash dumps and debuggers are not kept from svcwallet's memory there",
	} {
		code, rep, out := doctorOn(t, doctorCmd{tmuxOption: noTmux, goos: goos, protect: func() error { return nil }}, t.TempDir(), nil, "--config", cfg)
		if p := rep.check("process"); code != 0 || p == nil || p.Status != "ok" || p.Detail != want {
			t.Errorf("%s: exit %d, want an ok process line %q:\n%s", goos, code, want, out)
		}
	}
	failed := func() error { return errors.New("cannot turn off core files: operation not permitted") }
	code, rep, out := doctorOn(t, doctorCmd{tmuxOption: noTmux, goos: "linux", protect: failed}, t.TempDir(), nil, "--config", cfg)
	if w := rep.warning("process"); code != 1 || w == nil || !strings.Contains(w.Detail, "could not be turned on: cannot turn off core files") || !strings.Contains(w.Fix, "set its own limits") {
		t.Errorf("protections refused: exit %d, want a process warning with the fix:\n%s", code, out)
	}
}

// check finds the report's line about a check, whatever its status.
func (r doctorReport) check(check string) *doctorCheck {
	for i, c := range r.Checks {
		if c.Check == check {
			return &r.Checks[i]
		}
	}
	return nil
}
