package termdraw

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"os/exec"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestHeldStderrKeepsTheLogAndItsTail: what the log package writes (the
// embedded sandbox's server errors) is held with standard error, not drawn
// over the console; past keptMax only the last bytes are kept, and the
// release says earlier lines were dropped.
func TestHeldStderrKeepsTheLogAndItsTail(t *testing.T) {
	was := os.Stderr
	var got bytes.Buffer
	d := &Drawer{}
	if err := d.holdStderr(&got); err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(os.Stderr, "the first line\n"+strings.Repeat("x", keptMax))
	log.Print("from the log package")
	d.held.release()
	if os.Stderr != was {
		t.Error("standard error was not given back")
	}
	out := got.String()
	if !strings.HasSuffix(out, "from the log package\n") || !strings.Contains(out, "earlier lines dropped") {
		t.Errorf("held %d bytes ending %q", len(out), out[max(len(out)-60, 0):])
	}
	if strings.Contains(out, "the first line") || len(out) > keptMax+100 {
		t.Errorf("held %d bytes, the first line kept: not bounded to its tail", len(out))
	}
}

// TestAPanicInTheDrawerGivesTheTerminalBack: a panic while drawing (the
// drawer's own goroutine, outside Bubble Tea's recovery) gives raw mode back
// before it ends the program. The panic runs in a child test process.
func TestAPanicInTheDrawerGivesTheTerminalBack(t *testing.T) {
	if os.Getenv("TERMDRAW_PANIC_CHILD") == "1" {
		writes := 0
		d := New(writerFunc(func(b []byte) (int, error) {
			if writes++; writes == 1 {
				panic("the terminal broke")
			}
			return len(b), nil
		}), 20, 5, 0, nil)
		d.restore = func() error { fmt.Println("raw mode given back"); return nil }
		d.Frame(tea.View{Content: "x", AltScreen: true})
		select {}
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestAPanicInTheDrawerGivesTheTerminalBack$")
	cmd.Env = append(os.Environ(), "TERMDRAW_PANIC_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "raw mode given back") || !strings.Contains(string(out), "the terminal broke") {
		t.Errorf("the child ended with %v, saying:\n%s", err, out)
	}
}
