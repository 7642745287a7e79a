//go:build e2e && unix

package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTmuxChoicesWithoutAttributes (issue 29 item 2 and 4) runs the built
// binary in tmux under TERM=dumb (with SVCWALLET_PLAIN=0, since TERM=dumb
// alone chooses plain mode), where the console draws no attribute,
// and under NO_COLOR: the captured text (characters only) shows which
// login method and key source is chosen. Under TERM=dumb the window is
// then made 40x16: the console asks for 60x20 and says what it has, and
// ctrl+d, enter and d do nothing there; back at 120x40 the login is as it
// was, its API key field empty.
func TestTmuxChoicesWithoutAttributes(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "svcwallet")
	if out, err := exec.Command("go", "build", "-o", bin, "../..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX") && !strings.HasPrefix(kv, "NO_COLOR=") {
			env = append(env, kv)
		}
	}
	for _, term := range []string{"TERM=dumb SVCWALLET_PLAIN=0", "TERM=xterm-256color NO_COLOR=1"} {
		t.Run(term, func(t *testing.T) {
			home := filepath.Join(dir, strings.Fields(term)[0])
			s := &tmuxSession{t: t, socket: fmt.Sprintf("svcwallet-dumb-%d-%d", os.Getpid(), time.Now().UnixNano()), env: env}
			t.Cleanup(func() { _, _ = s.tmux("kill-server") })
			run := fmt.Sprintf("env %[1]s HOME=%[2]s TMPDIR=%[3]s XDG_CONFIG_HOME=%[2]s/.config XDG_STATE_HOME=%[2]s/.state XDG_DATA_HOME=%[2]s/.data XDG_CACHE_HOME=%[2]s/.cache %[4]s",
				term, home, dir, bin)
			s.must("new-session", "-d", "-s", "main", "-x", "120", "-y", "40", run)
			s.waitShows("  Method           (•) API key   ( ) Wallet signature", "› API key")
			s.keys("BTab", "Right", "Tab")
			s.waitShows("  Method           ( ) API key   (•) Wallet signature", "› Key source       (•) keystore   ( ) $SVCWALLET_PRIVATE_KEY   ( ) sandbox demo key")
			s.keys("Right")
			s.waitShows("› Key source       ( ) keystore   (•) $SVCWALLET_PRIVATE_KEY   ( ) sandbox demo key")
			if !strings.HasPrefix(term, "TERM=dumb") {
				return
			}
			s.keys("BTab", "Left", "Tab")
			s.waitShows("› API key          ▏paste your API key")
			s.must("resize-window", "-t", "main", "-x", "40", "-y", "16")
			s.waitFor("the too-small notice", func() bool {
				flat := strings.Join(strings.Fields(s.pane()), " ")
				return strings.Contains(flat, "need at least 60x20, have 40x16") && strings.Contains(flat, "press q to quit")
			})
			s.keys("C-d", "Enter", "d")
			// Read before the resize, so handled at 40x16: the resize
			// comes by a signal, not in line with the keys.
			s.keysRead("ctrl+d, enter and d read")
			s.must("resize-window", "-t", "main", "-x", "120", "-y", "40")
			// Drawn again at 120x40, the notice gone: tmux shows lines of
			// the login kept from before at once, an x typed then fell on
			// the console still at 40x16.
			s.waitFor("the login drawn again at 120x40", func() bool {
				p := s.pane()
				return !strings.Contains(p, "too small") && strings.Contains(p, "Log in") &&
					strings.Contains(p, "› API key          ▏paste your API key")
			})
			// Keys are read in order: once the x typed now shows, the
			// ones before it were handled, and did nothing.
			s.keys("x")
			s.waitShows("› API key          •▏")
			if p := s.pane(); strings.Contains(p, "••") || !strings.Contains(p, "Log in") {
				t.Fatalf("keys acted at 40x16:\n%s", p)
			}
		})
	}
}
