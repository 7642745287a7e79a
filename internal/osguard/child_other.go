//go:build !unix

package osguard

import (
	"context"
	"os/exec"
)

// GroupCommandContext is CommandContext where process groups are not
// unix's: only the child itself is killed when ctx ends.
func GroupCommandContext(ctx context.Context, name string, arg ...string) *exec.Cmd {
	return CommandContext(ctx, name, arg...)
}

// LendForeground lends nothing where terminals have no process groups.
func LendForeground(*exec.Cmd) func() { return nil }
