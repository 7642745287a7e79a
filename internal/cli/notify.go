package cli

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/service/follow"
)

// notifyTimeout bounds a --notify-command run: a hung notifier must not
// stop the others from being followed.
const notifyTimeout = 30 * time.Second

// maxNotifyOutput bounds what is kept of a notify command's output: the
// start of it is said when it fails.
const maxNotifyOutput = 4 << 10

// notifyPipesWait bounds the wait for a notify command's output once it has
// ended (never longer than it may run): a program it left running (a sound
// played in the background) may hold its pipes for as long as it runs.
const notifyPipesWait = 2 * time.Second

// maxNotifyHung is how many runs in a row of a notify command may be ended
// at their time before the watch runs it no more: each run holds every
// other id's asks for its whole time, and 10,000 ids ending under a
// notifier that never ends held the watch 83 hours.
const maxNotifyHung = 3

// notifier runs --notify-command as withdrawals end (run: notify), until
// it has been ended at its time maxNotifyHung times in a row: that is said
// once, and it runs no more in this watch. A nil notifier runs nothing.
type notifier struct {
	c    statusCmd
	run  func(context.Context, *follow.Followed) (hung bool)
	hung int // runs in a row ended at their time
}

// newNotifier is the notifier of command, nil for none.
func (c statusCmd) newNotifier(command string) *notifier {
	if command == "" {
		return nil
	}
	return &notifier{c: c, run: func(ctx context.Context, f *follow.Followed) bool { return c.notify(ctx, command, f) }}
}

// ended tells the notifier that f's withdrawal ended.
func (n *notifier) ended(ctx context.Context, f *follow.Followed) {
	if n == nil || n.hung >= maxNotifyHung {
		return
	}
	if !n.run(ctx, f) {
		n.hung = 0
		return
	}
	if n.hung++; n.hung == maxNotifyHung {
		wait := cmp.Or(n.c.notifyWait, notifyTimeout)
		fmt.Fprintf(n.c.env.Stderr, "%s: --notify-command did not end within %s for %d withdrawals in a row, so it is not run again in this watch: each run held the asks of every other withdrawal; the ones that end are still printed. Make it end within %s\n", n.c.app.name, wait, maxNotifyHung, wait)
	}
}

// notify runs --notify-command for a withdrawal that ended, its final
// record as one JSON line on stdin, and reports whether it was ended at
// its time. The command is split into words, no
// shell, and runs with the environment children get (osguard.ChildEnv), in
// a process group of its own that ends whole at its time, as a signing
// command's does. A failure is said on stderr, with the start of its
// output, and changes no exit status.
func (c statusCmd) notify(ctx context.Context, command string, f *follow.Followed) (hung bool) {
	words := strings.Fields(command)
	var in bytes.Buffer
	kind := kindStatus
	if f.Final {
		kind = kindFinal
	}
	if err := writeJSONLine(&in, c.recordJSON(f, kind)); err != nil {
		return false
	}
	wait := cmp.Or(c.notifyWait, notifyTimeout)
	cx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	g := osguard.GroupCommandContext(cx, words[0], words[1:]...)
	out := osguard.CappedBuffer{Max: maxNotifyOutput}
	g.Cmd.Stdin, g.Cmd.Stdout, g.Cmd.Stderr = &in, &out, &out
	err := g.RunPipesWithin(min(cmp.Or(c.notifyPipesWait, notifyPipesWait), wait))
	switch {
	case err == nil:
	case ctx.Err() != nil:
		// Killed with its group as svcwallet ends (ctrl+c): no failure of it.
		fmt.Fprintf(c.env.Stderr, "%s: --notify-command for %s was interrupted: svcwallet was asked to end, so the notifier was stopped with every process it started, and may not have told of %s\n", c.app.name, f.QuoteID, f.QuoteID)
	case cx.Err() != nil:
		fmt.Fprintf(c.env.Stderr, "%s: --notify-command for %s did not end within %s, so it was ended with every process it started: a notify command must end by then\n", c.app.name, f.QuoteID, wait)
		return true
	default:
		fmt.Fprintf(c.env.Stderr, "%s: --notify-command for %s failed (%v): %s\n", c.app.name, f.QuoteID, err, out.Said())
	}
	return false
}
