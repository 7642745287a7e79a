package builder_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/svcwallet/svcwallet/internal/loopback"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestRolledBackJournalAuthorizesNothing is issue 33 item 4 for a builder
// authorization: on a journal that lost lines svcwallet wrote to it, none
// is signed (no key loaded, no request), prepared for offline signing or
// submitted, as a withdrawal is refused; once the journal is accepted as
// it now is (the user has looked), one is signed again.
func TestRolledBackJournalAuthorizesNothing(t *testing.T) {
	var sent atomic.Int64
	w := loopback.NewWorldBehind(t, sandbox.Options{}, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, req *http.Request) {
			if req.URL.Path == exchange.PathBuilderAuthorize {
				sent.Add(1)
			}
			next.ServeHTTP(rw, req)
		})
	})
	c, ctx := w.Client(exchange.Options{}), context.Background()
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := builder.Prepare(ctx, c, j, builder.NewOrder(a, w.Env.Domain(), 1, w.Clock.Now()), w.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(j.Path(), 0); err != nil { // an older copy put back
		t.Fatal(err)
	}
	loads := 0
	key := func() (signer.Key, error) { loads++; return loopback.MustKey(t, sandbox.DemoPrivateKey), nil }
	var lost *journal.RolledBackError
	if _, _, err := builder.NewOrder(a, w.Env.Domain(), 2, w.Clock.Now()).Authorize(ctx, c, j, key); !errors.As(err, &lost) || loads != 0 || sent.Load() != 0 {
		t.Fatalf("on a rolled-back journal: %v, %d keys loaded, %d sent; want it refused before the key", err, loads, sent.Load())
	}
	if _, err := builder.Prepare(ctx, c, j, builder.NewOrder(a, w.Env.Domain(), 3, w.Clock.Now()), w.Clock.Now()); !errors.As(err, &lost) {
		t.Fatalf("prepared on a rolled-back journal: %v", err)
	}
	if _, _, err := builder.Submit(ctx, c, j, p, [65]byte{}, w.Clock.Now); !errors.As(err, &lost) || sent.Load() != 0 {
		t.Fatalf("submitted on a rolled-back journal: %v, %d sent", err, sent.Load())
	}
	if _, err := j.AcceptAsItIs(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := builder.NewOrder(a, w.Env.Domain(), 4, w.Clock.Now()).Authorize(ctx, c, j, key); err != nil || loads != 1 || sent.Load() != 1 {
		t.Fatalf("once accepted: %v, %d keys loaded, %d sent", err, loads, sent.Load())
	}
}
