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
// ErrStoppedOnceSigned) is said in the service's words, exit 130: the
// words for a stop at a question, "nothing was signed or sent", were said
// of it, then "the signature expires unused" of a prepared Transfer too.
func TestWithdrawStoppedOnceSignedSaysSo(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	stop()
	// The service's words, placed: they differ for a prepared Transfer
	// (submitted again) and after a refusal (nothing paid).
	stopped := exchange.Worded(errors.Join(withdrawal.ErrStoppedOnceSigned, ctx.Err()), "Stopped once signed, before the request left: nothing was sent; the prepared Transfer may be submitted again")
	err := withdrawCmd{}.finish(ctx, nil, config.Environment{}, withdrawTarget{}, nil, withdrawal.Order{}, withdrawal.Sent{Err: stopped}, withdrawFlags{})
	if err == nil || err.Error() != "interrupted: stopped once signed, before the request left: nothing was sent; the prepared Transfer may be submitted again" {
		t.Fatalf("stopped once signed: %v", err)
	}
	if err := (withdrawCmd{}).finish(ctx, nil, config.Environment{}, withdrawTarget{}, nil, withdrawal.Order{}, withdrawal.Sent{Err: ctx.Err()}, withdrawFlags{}); err == nil || !strings.Contains(err.Error(), nothingSent) {
		t.Fatalf("stopped before signing: %v", err)
	}
}
