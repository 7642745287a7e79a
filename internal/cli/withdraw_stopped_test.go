package cli

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestWithdrawStoppedOnceSignedSaysSo: a withdrawal stopped after its
// signature came and before its request left (the service's
// ErrStoppedOnceSigned) is said as signed and not sent, exit 130; the
// words for a stop at a question, "nothing was signed or sent", were
// said of it.
func TestWithdrawStoppedOnceSignedSaysSo(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	stop()
	stopped := exchange.Worded(errors.Join(withdrawal.ErrStoppedOnceSigned, ctx.Err()), "stopped")
	err := withdrawCmd{}.finish(ctx, nil, config.Environment{}, withdrawTarget{}, nil, withdrawal.Order{}, withdrawal.Sent{Err: stopped}, withdrawFlags{})
	if err == nil || !strings.Contains(err.Error(), "signed, but nothing was sent") || strings.Contains(err.Error(), "nothing was signed") {
		t.Fatalf("stopped once signed: %v", err)
	}
	if err := (withdrawCmd{}).finish(ctx, nil, config.Environment{}, withdrawTarget{}, nil, withdrawal.Order{}, withdrawal.Sent{Err: ctx.Err()}, withdrawFlags{}); err == nil || !strings.Contains(err.Error(), nothingSent) {
		t.Fatalf("stopped before signing: %v", err)
	}
}
