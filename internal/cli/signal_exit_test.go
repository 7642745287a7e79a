package cli

import (
	"context"
	"syscall"
	"testing"
)

// TestInterruptExitIsTheSignals: a command a signal ended exits 128 + its
// number, at a prompt (interrupted), in plain mode and in the console
// (signalExit); ended otherwise, an interruption is ctrl+c's 130 and the
// console's end is no signal's.
func TestInterruptExitIsTheSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT} {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(signalCause(sig))
		if got := interrupted(ctx, "").(*interruptError).exit; got != 128+int(sig) {
			t.Errorf("%v: interrupted exits %d, want %d", sig, got, 128+int(sig))
		}
		if got, ok := signalExit(ctx); !ok || got != 128+int(sig) {
			t.Errorf("%v: signalExit %d %v, want %d true", sig, got, ok, 128+int(sig))
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := interruptExit(ctx); got != 130 {
		t.Errorf("cancelled without a signal: exit %d, want 130", got)
	}
	if _, ok := signalExit(ctx); ok {
		t.Error("cancelled without a signal: signalExit says a signal ended it")
	}
}
