//go:build unix

package safetext

import (
	"os/exec"
	"strings"
	"testing"
)

// TestCommandRunsAsPrinted: the line Command prints, pasted into sh, gives
// the program the words it was made of, --config's path whole, whatever
// the path holds that a shell splits on or expands.
func TestCommandRunsAsPrinted(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	for _, config := range []string{"/tmp/my configs/svc.toml", `/tmp/it's;$(id) "x" ` + "`id`" + ` *.toml`, `/tmp/a\b$HOME|&>~!#.toml`, "/tmp/конфиг.toml", "-x", ""} {
		line := POSIX.Command("--config", config, "svcwallet", "status", "q-1", "--env", "prod")
		// svcwallet is a function printing each argument on a line.
		out, err := exec.Command(sh, "-c", `svcwallet() { for a in "$@"; do printf '%s\n' "$a"; done; }; `+line).Output()
		if err != nil {
			t.Fatalf("%q: sh ran %q: %v", config, line, err)
		}
		want := "status\nq-1\n--env\nprod\n"
		if config != "" {
			want += "--config\n" + config + "\n"
		}
		if string(out) != want {
			t.Errorf("%q: %s gave\n%s\nwant\n%s", config, line, out, want)
		}
	}
	if strings.Contains(POSIX.Command("--config", "/tmp/\x1b[2J", "svcwallet"), "\x1b") {
		t.Error("an escape printed")
	}
	// A line whose --config is left out, copied and pasted whole, runs
	// nothing: run, it would reach the environment of another config.
	line := POSIX.Command("--config", "/tmp/\x1b[2J", "svcwallet", "withdraw", "submit", "t.json", "--env", "prod")
	out, err := exec.Command(sh, "-c", `svcwallet() { echo ran; }; `+line).CombinedOutput()
	if err == nil || strings.Contains(string(out), "ran") {
		t.Errorf("%s, pasted into sh: %v\n%s", line, err, out)
	}
}
