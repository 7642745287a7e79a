package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestStatusInterruptedSaysWhatWasAnswered: ctrl+c (or SIGTERM) while
// status asks many ids prints the records already answered, as a run that
// ended prints them, then says it was interrupted (exit 130): a support
// agent who stopped a run over thousands of ids after an hour lost every
// answer. Here the stop comes in the budget's wait after the third answer;
// a watch's records are said as records asked, not final ones.
func TestStatusInterruptedSaysWhatWasAnswered(t *testing.T) {
	r := newStatusRig(t)
	done := r.seed(sandbox.DestCompleted, 8)
	r.clock.Advance(sandbox.DefaultSettle)
	r.takeAsks()
	for _, args := range [][]string{nil, {"--json"}, {"--watch", "--json"}} {
		json := strings.Join(args, " ")
		args = append(append([]string{"--config", r.config}, done...), args...)
		var out, errOut bytes.Buffer
		env := CLIEnv{Stdout: &out, Stderr: &errOut, Getenv: func(k string) string {
			if k == apiKeyVar {
				return sandbox.DemoAPIKey
			}
			return ""
		}}
		ctx, stop := context.WithCancel(context.Background())
		defer stop()
		r.takeAsks()
		cmd := statusCmd{env: env, now: r.now, jitter: func(int64) int64 { return 0 }, sleep: func(cx context.Context, d time.Duration) error {
			r.mu.Lock()
			asked := len(r.asks)
			r.mu.Unlock()
			if asked >= 3 {
				stop()
				return cx.Err()
			}
			r.clock.Advance(d)
			return nil
		}, terminal: func() bool { return false }}
		a := newApp(env)
		a.status, a.ctx = cmd, ctx
		code := a.execute(append([]string{"status"}, args...))
		answered := 0
		for _, id := range done {
			if strings.Contains(out.String(), id) {
				answered++
			}
		}
		if code != 130 || answered == 0 || answered == len(done) || !strings.Contains(out.String()+errOut.String(), "interrupted") ||
			strings.Contains(out.String(), `"kind":"final"`) {
			t.Errorf("%s: exit %d, %d of %d answers printed\nstdout:\n%s\nstderr:\n%s", json, code, answered, len(done), out.String(), errOut.String())
		}
	}
}
