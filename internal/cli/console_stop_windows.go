package cli

import (
	"context"

	tea "charm.land/bubbletea/v2"
)

// tickedStops: Windows has no jobs to stop.
type tickedStops struct{}

func newTickedStops() *tickedStops { return nil }

func (*tickedStops) on(context.Context, *tea.Program) {}

func (*tickedStops) filter(_ tea.Model, msg tea.Msg) tea.Msg { return msg }
