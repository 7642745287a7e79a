//go:build e2e && unix

package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/creack/pty"

	"github.com/svcwallet/svcwallet/tui"
)

// sizeScreen is a console screen that says the widths it is given and
// the keys it is typed, one a line, and ends the console at a z.
type sizeScreen struct {
	said io.Writer
	end  func()
}

func (s *sizeScreen) Init() tea.Cmd { return nil }
func (s *sizeScreen) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		fmt.Fprintln(s.said, "key", k.String())
		if k.String() == "z" {
			s.end()
		}
	}
	return s, nil
}
func (s *sizeScreen) View() string         { return "sized" }
func (s *sizeScreen) SetSize(w, _ int)     { fmt.Fprintln(s.said, "width", w) }
func (s *sizeScreen) Title() string        { return "Sized" }
func (s *sizeScreen) KeyMap() help.KeyMap  { return sizeKeys{} }
func (sizeKeys) ShortHelp() []key.Binding  { return nil }
func (sizeKeys) FullHelp() [][]key.Binding { return nil }

type sizeKeys struct{}

// TestTickedConsoleLaysOutForTheMeasuredSize: the console Bubble Tea draws
// (runTicked) on a 100x32 terminal is never laid out for a size report in
// its input (a paste's ESC[8;90;250t after a forged end mark), which its
// parser takes as a resize: tickedFilter is its filter. The child is this
// test binary running the console on a pseudo-terminal; the key typed
// after the report finds every size given before it.
func TestTickedConsoleLaysOutForTheMeasuredSize(t *testing.T) {
	if os.Getenv("CLI_TEST_TICKED") != "" {
		ctx, cancel := context.WithCancel(context.Background())
		s := &sizeScreen{said: os.Stderr, end: cancel}
		_ = runTicked(ctx, CLIEnv{Stdin: os.Stdin, Stdout: os.Stdout}, tui.New(s, tui.Options{Theme: "dark"}), colorprofile.ANSI256)
		return
	}
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: 100, Rows: 32}); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, ptmx)
	// A bound, not an order: a child that never ends is killed.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestTickedConsoleLaysOutForTheMeasuredSize$", "-test.count=1")
	cmd.Env = append(os.Environ(), "CLI_TEST_TICKED=1", "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout = tty, tty
	said, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(said)
	var widths []string
	until := func(k string) {
		for lines.Scan() {
			if w, ok := strings.CutPrefix(lines.Text(), "width "); ok {
				widths = append(widths, w)
			}
			if lines.Text() == "key "+k {
				return
			}
		}
		t.Fatalf("the console was never typed %q (widths %q)", k, widths)
	}
	_, _ = ptmx.WriteString("a")
	until("a") // the console reads its input
	_, _ = ptmx.WriteString("\x1b[8;90;250tz")
	until("z")
	_ = cmd.Wait()
	for _, w := range widths {
		if w != "100" {
			t.Errorf("the console was laid out %s wide on a 100-column terminal (a size report in its input)", w)
		}
	}
}
