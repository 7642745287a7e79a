package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"golang.org/x/term"

	"github.com/svcwallet/svcwallet/internal/termdraw"
	"github.com/svcwallet/svcwallet/tui"
)

// runDrawn runs the console with the console's own drawer: a frame is drawn
// when it changes, never on a ticker (an idle console wakes for nothing): at
// once, but at most once a second for paced messages, the watch board's
// asking (tui.Paced, termdraw.Model). Bubble Tea runs the model, the input and the messages; its
// renderer is off, and its ticker, which it keeps even then, runs at its
// slowest (once a second, with nothing to flush). Windows, and a terminal
// the drawer cannot take, keep Bubble Tea's renderer (runTicked).
func runDrawn(ctx context.Context, env CLIEnv, model *tui.Model, profile colorprofile.Profile) error {
	in, inOK := env.Stdin.(*os.File)
	out, outOK := env.Stdout.(*os.File)
	if !inOK || !outOK || runtime.GOOS == "windows" {
		return runTicked(ctx, env, model, profile)
	}
	d, err := termdraw.Open(in, out, profile, os.Environ())
	if err != nil {
		return runTicked(ctx, env, model, profile)
	}
	defer d.Close()
	w, h := d.Size()
	model.FirstFrame(w, h)
	d.FirstFrame(model.View())
	if asksTmuxColours(env.Getenv, profile) {
		// Beside the background colour's question: the answer draws the
		// screen again, as that one does.
		go func() {
			if tmuxTrueColour() {
				d.SetProfile(colorprofile.TrueColor)
			}
		}()
	}
	m := termdraw.NewModel(model, d)
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithoutSignalHandler(), tea.WithoutRenderer(), tea.WithFPS(1),
		tea.WithWindowSize(w, h), tea.WithFilter(d.Filter), tea.WithColorProfile(profile), tea.WithInput(in), tea.WithOutput(out))
	defer sayLockWaitsIn(p.Send)()
	watching, stop := context.WithCancel(ctx)
	defer stop()
	d.WatchSize(watching, out, p.Send)
	d.WatchStops(watching, p.Send)
	_, err = p.Run()
	return err
}

// runTicked runs the console with Bubble Tea's renderer, stopped as the
// drawer is (tickedStops), which draws on its frame ticker: 20 frames a
// second, not its 60, each tick being most of what an idle console costs
// (docs/testing.md, "Speed"). The first frame
// does not wait for the first tick: the console draws it itself
// (drawFirstFrame).
func runTicked(ctx context.Context, env CLIEnv, model *tui.Model, profile colorprofile.Profile) error {
	stops := newTickedStops()
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithoutSignalHandler(), tea.WithFPS(consoleFPS), tea.WithColorProfile(profile),
		tea.WithFilter(tickedFilter(outputSize(env.Stdout), stops))}
	p := tea.NewProgram(model, opts...)
	defer sayLockWaitsIn(p.Send)()
	if stops != nil {
		watching, stop := context.WithCancel(ctx)
		defer stop()
		stops.on(watching, p)
	}
	drewFirst := drawFirstFrame(env.Stdout, model, profile)
	_, err := p.Run()
	if err != nil && drewFirst {
		// Ended before it drew (a signal at once), Bubble Tea leaves the
		// alternate screen the first frame entered as it is.
		fmt.Fprint(env.Stdout, ansi.ResetModeAltScreenSaveCursor+ansi.ShowCursor)
	}
	return err
}

// tickedFilter is runTicked's message filter: stops's (ctrl+z), when there
// are any, and the size the model and Bubble Tea's renderer lay out for is
// the one measure gives as the message comes, never a size report in the
// input (ESC[8;90;250t after a paste's forged end mark, which the parser
// takes as a resize): the drawer's rule (termdraw.Drawer.Filter) where
// there is no drawer, Windows and a terminal it cannot take. A terminal
// that cannot be measured is told no size.
func tickedFilter(measure func() (int, int, error), stops *tickedStops) func(tea.Model, tea.Msg) tea.Msg {
	return func(m tea.Model, msg tea.Msg) tea.Msg {
		if _, ok := msg.(tea.WindowSizeMsg); ok {
			w, h, err := measure()
			if err != nil {
				return nil
			}
			return tea.WindowSizeMsg{Width: w, Height: h}
		}
		if stops == nil {
			return msg
		}
		return stops.filter(m, msg)
	}
}

// outputSize measures the terminal out is (on Windows the console's
// window, by its API): an error when out is no file.
func outputSize(out io.Writer) func() (int, int, error) {
	return func() (int, int, error) {
		f, ok := out.(*os.File)
		if !ok {
			return 0, 0, errors.New("standard output is not a terminal")
		}
		return term.GetSize(int(f.Fd()))
	}
}

// drawFirstFrame draws the console's first frame at once, in the alternate
// screen Bubble Tea then takes over: Bubble Tea draws only on its frame
// ticker, one frame period after it starts, and draws this frame again
// there. It tells whether it drew: not when the terminal's size is unknown,
// nor on Windows, whose console takes escape sequences only once Bubble Tea
// has turned their processing on.
func drawFirstFrame(out io.Writer, model *tui.Model, profile colorprofile.Profile) bool {
	f, ok := out.(*os.File)
	if !ok || runtime.GOOS == "windows" {
		return false
	}
	w, h, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return false
	}
	frame := ansi.SetModeAltScreenSaveCursor + ansi.HideCursor + ansi.CursorHomePosition + ansi.EraseEntireScreen +
		strings.ReplaceAll(model.FirstFrame(w, h), "\n", "\r\n")
	_, err = io.WriteString(&colorprofile.Writer{Forward: f, Profile: profile}, frame)
	return err == nil
}

// consoleFPS is Bubble Tea's frame rate where it draws (runTicked).
// consoleProcs: the console runs on one processor once started: it waits on
// the terminal and the network, and with two every wake-up also woke a
// second thread to look for work (docs/testing.md, "Speed"). $GOMAXPROCS
// still rules.
const (
	consoleFPS   = 20
	consoleProcs = 1
)
