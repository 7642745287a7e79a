package builder_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/loopback"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestFundsGrantNeedsItsOwnAnswer: an API key allowed any permission but
// Trade (each of Admin, InternalTransfer, ExternalTransfer, Withdraw,
// VaultInvestor, alone or beside Trade) is signed only on its own answer
// (ErrGrantUnanswered), or with the grant named beforehand exactly; a
// grant named unlike the key's is refused (*GrantUnlike), and Trade alone,
// or no key, needs nothing.
func TestFundsGrantNeedsItsOwnAnswer(t *testing.T) {
	trade := signer.Permissions(0).With(signer.PermTrade)
	none := builder.NamedGrant{}
	for _, p := range signer.AllPermissions {
		if p == signer.PermTrade {
			continue
		}
		for _, perms := range []signer.Permissions{signer.Permissions(0).With(p), trade.With(p)} {
			a := builder.Auth{WithKey: true, Perms: perms}
			if a.FundsGrant() == 0 {
				t.Errorf("%s: no funds grant", perms)
			}
			if err := builder.AcceptsGrant(a, none); !errors.Is(err, builder.ErrGrantUnanswered) {
				t.Errorf("%s unnamed: %v, want ErrGrantUnanswered", perms, err)
			}
			if err := builder.AcceptsGrant(a, builder.NamedGrant{Perms: perms, Valid: true}); err != nil {
				t.Errorf("%s named exactly: %v", perms, err)
			}
			var unlike *builder.GrantUnlike
			if err := builder.AcceptsGrant(a, builder.NamedGrant{Perms: trade, Valid: true}); !errors.As(err, &unlike) || unlike.Grant != perms {
				t.Errorf("%s named as Trade: %v, want *GrantUnlike", perms, err)
			}
		}
	}
	for name, a := range map[string]builder.Auth{"Trade": {WithKey: true, Perms: trade}, "no key": {}} {
		if err := builder.AcceptsGrant(a, none); err != nil || a.FundsGrant() != 0 {
			t.Errorf("%s: %v, funds grant %s", name, err, a.FundsGrant())
		}
	}
	// Named for an authorization without a key: not what is granted.
	if err := builder.AcceptsGrant(builder.Auth{}, builder.NamedGrant{Perms: trade, Valid: true}); err == nil {
		t.Error("a grant named for an authorization without an API key was taken")
	}
}

// TestParseNamedGrant reads the grant named beforehand as --permissions
// is read (any case and order, & or commas); "" names none.
func TestParseNamedGrant(t *testing.T) {
	g, err := builder.ParseNamedGrant("trade,ADMIN")
	if err != nil || !g.Valid || g.Perms.String() != "Admin&Trade" {
		t.Fatalf("trade,ADMIN: %+v, %v", g, err)
	}
	if g, err := builder.ParseNamedGrant(""); err != nil || g.Valid {
		t.Fatalf("empty: %+v, %v", g, err)
	}
	if _, err := builder.ParseNamedGrant("Admin&Admin"); err == nil {
		t.Fatal("a repeated name was taken")
	}
}

// TestUngrantedOrderNeitherSignedNorPrepared: an order of a key that may
// move funds that no face recorded as granted (Order.Granted) is refused
// by Authorize and Prepare themselves (ErrGrantUnanswered, saying what to
// do), before a key is loaded or a request made; granted, it is authorized.
func TestUngrantedOrderNeitherSignedNorPrepared(t *testing.T) {
	w := loopback.NewWorld(t, sandbox.Options{})
	rec := &loopback.Recorder{}
	c := w.Client(exchange.Options{HTTPClient: rec.HTTPClient()})
	a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05",
		Label: "bot", KeySigner: sandbox.NoChainAddress, Permissions: "Withdraw&Trade"})
	if err != nil {
		t.Fatal(err)
	}
	o := builder.NewOrder(a, w.Env.Domain(), 42, w.Clock.Now())
	loaded := 0
	load := func() (signer.Key, error) { loaded++; return loopback.MustKey(t, sandbox.DemoPrivateKey), nil }
	if _, _, err := o.Authorize(context.Background(), c, nil, load); !errors.Is(err, builder.ErrGrantUnanswered) || loaded != 0 || rec.Count(exchange.PathBuilderAuthorize) != 0 {
		t.Fatalf("authorized ungranted: %v, key loaded %d, %d sent", err, loaded, rec.Count(exchange.PathBuilderAuthorize))
	} else if !strings.HasSuffix(err.Error(), ": nothing was signed or sent; review the authorization again and answer its second question, or give the API key only Trade") {
		t.Errorf("the refusal says no next step: %v", err)
	}
	if _, err := builder.Prepare(context.Background(), c, nil, o, w.Clock.Now()); !errors.Is(err, builder.ErrGrantUnanswered) {
		t.Fatalf("prepared ungranted: %v", err)
	}
	o.Granted = true
	if _, _, err := o.Authorize(context.Background(), c, nil, load); err != nil || rec.Count(exchange.PathBuilderAuthorize) != 1 {
		t.Fatalf("granted: %v, %d sent", err, rec.Count(exchange.PathBuilderAuthorize))
	}
}
