//go:build !windows

package termdraw

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/term"
)

// WatchSize measures the terminal out on each SIGWINCH until ctx ends: the
// drawer redraws at the new size and send tells the model.
func (d *Drawer) WatchSize(ctx context.Context, out *os.File, send func(tea.Msg)) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGWINCH)
	go func() {
		defer signal.Stop(ch)
		for {
			select {
			case <-ctx.Done():
				return
			case <-ch:
			}
			w, h, err := term.GetSize(int(out.Fd()))
			if err != nil {
				continue
			}
			d.Resize(w, h)
			send(tea.WindowSizeMsg{Width: w, Height: h})
		}
	}()
}
