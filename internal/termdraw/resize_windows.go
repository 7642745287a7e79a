//go:build windows

package termdraw

import (
	"context"
	"os"

	tea "charm.land/bubbletea/v2"
)

// WatchSize does nothing on Windows, whose console keeps Bubble Tea's
// renderer (it has no SIGWINCH).
func (d *Drawer) WatchSize(context.Context, *os.File, func(tea.Msg)) {}
