package osguard

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"
)

// OpenWait bounds the wait for the desktop's opener (xdg-open, open): most
// hand the link to a browser and end at once, but one may run a browser it
// started in the foreground, or hang on a broken desktop.
const OpenWait = 5 * time.Second

// Opener is the desktop's opener of links where goos is the system and
// getenv reads the environment: open on macOS, xdg-open where a graphical
// session runs (DISPLAY or WAYLAND_DISPLAY), else "" (an SSH session, a
// container, Windows: the link is said instead).
func Opener(goos string, getenv func(string) string) string {
	switch {
	case goos == "darwin":
		return "open"
	case goos == "windows", getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == "":
		return ""
	}
	return "xdg-open"
}

// OpenLink hands link to the opener name, in a process group of its own
// (GroupCommandContext: not the terminal's foreground group, so a text
// browser it runs cannot take the console's keys), its output kept, never
// shown raw. An opener that fails is an error naming it with its output
// cleaned to one line; one still running after wait is *OpenerRunning and
// left to run, its end reaped: it may run the browser it opened in its
// foreground, which ending it would close, or hang on a broken desktop.
func OpenLink(wait time.Duration, name, link string) error {
	g := GroupCommandContext(context.Background(), name, link)
	out := CappedBuffer{Max: 4 << 10}
	g.Cmd.Stdout, g.Cmd.Stderr = &out, &out
	// A browser it leaves running holds its output: an opener that ended
	// well has ended well (RunPipesWithin's rule).
	g.Cmd.WaitDelay = time.Second
	if err := g.Start(); err != nil {
		return fmt.Errorf("%s could not start: %w", name, err)
	}
	done := make(chan error, 1)
	go func() { done <- g.Wait() }()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case err := <-done:
		if err == nil || errors.Is(err, exec.ErrWaitDelay) {
			return nil
		}
		said := out.Said()
		if said == "" {
			return fmt.Errorf("%s failed (%v)", name, err)
		}
		return fmt.Errorf("%s failed (%v): %s", name, err, said)
	case <-timer.C:
		return &OpenerRunning{Name: name, Wait: wait}
	}
}

// OpenerRunning is an opener still running at OpenLink's wait: the link
// was handed to it, and whether a browser shows it is not known.
type OpenerRunning struct {
	Name string
	Wait time.Duration
}

func (e *OpenerRunning) Error() string {
	return fmt.Sprintf("%s still running after %s", e.Name, e.Wait)
}
