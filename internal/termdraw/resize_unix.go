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
// drawer redraws at the new size and send tells the model. It measures once
// more as it starts, and once continued after ctrl+z: a resize before it
// listened, or while the console was stopped, sent a signal it missed.
func (d *Drawer) WatchSize(ctx context.Context, out *os.File, send func(tea.Msg)) {
	d.watchSize(ctx, func() (int, int, error) { return term.GetSize(int(out.Fd())) }, send)
}

// watchSize is WatchSize with the terminal's size read by size.
func (d *Drawer) watchSize(ctx context.Context, size func() (int, int, error), send func(tea.Msg)) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGWINCH)
	measure := func(onlyIfChanged bool) {
		w, h, err := size()
		if ow, oh := d.Size(); err != nil || onlyIfChanged && w == ow && h == oh {
			return
		}
		d.Resize(w, h)
		send(tea.WindowSizeMsg{Width: w, Height: h})
	}
	go func() {
		defer signal.Stop(ch)
		measure(true)
		for {
			select {
			case <-ctx.Done():
				return
			case <-ch:
				measure(false)
			case <-d.continued:
				measure(true)
			}
		}
	}()
}
