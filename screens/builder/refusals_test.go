package builder

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestBuilderFormRefuses: enter on a form builder.Check refuses stays on
// the form and puts the focus on the first field refused, with the reason
// under it (issue 21 item 16), wherever the focus was.
func TestBuilderFormRefuses(t *testing.T) {
	cases := []struct {
		name     string
		fill     func(r *bldRig)
		field    string
		wantText string
	}{
		{"fee with 5 decimals", func(r *bldRig) { r.fill(sandbox.BuilderAddress, "0.00001", "0.05", "") }, "Max futures fee", "5 decimal places; at most 4"},
		{"negative fee", func(r *bldRig) { r.fill(sandbox.BuilderAddress, "0.1", "-0.05", "") }, "Max spot fee", "cannot be negative"},
		{"expiration over 30 days", func(r *bldRig) { r.fill(sandbox.BuilderAddress, "0.1", "0.05", "31d") }, "Valid for", "choose 1 to 30 days"},
		{"expiration over 30 days in hours", func(r *bldRig) { r.fill(sandbox.BuilderAddress, "0.1", "0.05", "721h") }, "Valid for", "longer than 30 days"},
		{"bad checksum", func(r *bldRig) {
			r.fill(strings.Replace(sandbox.BuilderAddress, "C8", "c8", 1), "0.1", "0.05", "")
		}, "Builder account", "checksum"},
		{"no builder", func(r *bldRig) { r.fill("", "0.1", "0.05", "") }, "Builder account", "enter the builder account's address"},
		{"label without signer", func(r *bldRig) {
			r.fill(sandbox.BuilderAddress, "0.1", "0.05", "")
			r.keySection("bot", "")
		}, "Key signer", "needs all three"},
		{"signer without label", func(r *bldRig) {
			r.fill(sandbox.BuilderAddress, "0.1", "0.05", "")
			r.keySection("", sandbox.NoChainAddress)
		}, "Key label", "needs all three"},
		{"no permission chosen", func(r *bldRig) {
			r.fill(sandbox.BuilderAddress, "0.1", "0.05", "")
			r.keySection("bot", sandbox.NoChainAddress)
			r.Press("6") // Trade off: none left
		}, "Permissions", "needs all three"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newBldRig(t, 120, 40)
			b := r.openForm()
			c.fill(r)
			r.Press("enter")
			r.UntilSays(c.wantText)
			// Still the form: nothing was signed or sent.
			if v := r.Plain(); strings.Contains(v, "Builder: review and sign") || !strings.Contains(v, "Max futures fee") {
				t.Fatalf("left the form:\n%s", v)
			}
			if fd := b.form.Focused(); fd.Label != c.field {
				t.Fatalf("the focus is on %s, want %s:\n%s", fd.Label, c.field, r.Plain())
			}
			// The reason is beside the field or under it.
			_, at, _ := strings.Cut(r.Plain(), "› "+c.field)
			if at := screentest.OneLine(strings.Join(strings.SplitN(at, "\n", 4)[:3], "\n")); !strings.Contains(at, "✗ ") || !strings.Contains(at, c.wantText) {
				t.Fatalf("the reason is not by %s:\n%s", c.field, r.Plain())
			}
			if strings.Contains(r.Plain(), "Error:") {
				t.Errorf("the reason is also in an error block:\n%s", r.Plain())
			}
		})
	}
}

// TestBuilderRejections sends each refused authorization through the real
// client to the sandbox and checks the code and the words the user sees.
func TestBuilderRejections(t *testing.T) {
	r := newBldRig(t, 120, 40)
	client := r.App.Client()
	demo, _ := signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey)
	builderKey, _ := signer.ParsePrivateKeyHex(sandbox.BuilderPrivateKey)
	domain := r.App.Target.Env.Domain()
	week := bldStart.Add(7 * 24 * time.Hour).UnixNano()
	base := builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05"}
	withKey := base
	withKey.Label, withKey.KeySigner, withKey.Permissions = "bot", sandbox.NoChainAddress, "Trade"
	signed := func(in builder.Input, k signer.Key, nonce uint32, exp int64) exchange.BuilderAuthorizeRequest {
		a, err := builder.Check(in)
		if err != nil {
			t.Fatal(err)
		}
		sig, err := signer.Sign(context.Background(), k, domain, a.Message(nonce, exp))
		if err != nil {
			t.Fatal(err)
		}
		return a.Request(sig)
	}
	cases := []struct {
		name string
		req  func() exchange.BuilderAuthorizeRequest
		code exchange.Code
		says string
	}{
		{"wrong signer: the builder's key signs for the main account", func() exchange.BuilderAuthorizeRequest {
			return signed(base, builderKey, 1, week)
		}, exchange.CodeUnauthorizedSigner, "main account's own key"},
		{"fee with 5 decimals sent raw", func() exchange.BuilderAuthorizeRequest {
			req := signed(base, demo, 2, week)
			req.MaxFuturesFeeRate = "0.00001"
			return req
		}, exchange.CodeBadFeeRate, "at most 4 decimals"},
		{"negative fee sent raw", func() exchange.BuilderAuthorizeRequest {
			req := signed(base, demo, 3, week)
			req.MaxSpotFeeRate = "-0.05"
			return req
		}, exchange.CodeBuilderFeeNegative, "cannot be negative"},
		{"fee over the limit sent raw", func() exchange.BuilderAuthorizeRequest {
			req := signed(base, demo, 10, week)
			req.MaxFuturesFeeRate = "429496.7296"
			return req
		}, exchange.CodeBuilderFeeOverLimit, "above the builder program's limit"},
		{"non-canonical permissions sent raw", func() exchange.BuilderAuthorizeRequest {
			// Signed over the very string sent: only the canonical rule refuses it.
			a, _ := builder.Check(withKey)
			m := a.Message(4, week).(signer.AddAccountSignerWithBuilder)
			m.Permissions = "Trade&Admin"
			sig, _ := signer.Sign(context.Background(), demo, domain, m)
			req := a.Request(sig)
			req.BuilderAPIKeyPermissions = "Trade&Admin"
			return req
		}, exchange.CodeBadPermissions, "pick from the listed names"},
		{"unknown permission sent raw", func() exchange.BuilderAuthorizeRequest {
			req := signed(withKey, demo, 5, week)
			req.BuilderAPIKeyPermissions = "Trade&Fly"
			return req
		}, exchange.CodeBadPermissions, "pick from the listed names"},
		{"partial API-key fields sent raw", func() exchange.BuilderAuthorizeRequest {
			req := signed(base, demo, 6, week)
			req.BuilderAPIKeyLabel = "bot"
			return req
		}, exchange.CodeBuilderFields, "fill all three or none"},
		{"signer and permissions without the label, sent raw", func() exchange.BuilderAuthorizeRequest {
			req := signed(withKey, demo, 7, week)
			req.BuilderAPIKeyLabel = ""
			return req
		}, exchange.CodeBuilderFields, "fill all three or none"},
		{"expiration over 30 days sent raw", func() exchange.BuilderAuthorizeRequest {
			return signed(base, demo, 8, bldStart.Add(30*24*time.Hour+time.Minute).UnixNano())
		}, exchange.CodeExpirationTooFar, "more than 30 days"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := client.AuthorizeBuilder(context.Background(), c.req())
			var ae *exchange.APIError
			if !errors.As(err, &ae) || ae.Code != c.code || ae.Status != c.code.Status() {
				t.Fatalf("err %v, want code %d", err, c.code)
			}
			if words := builder.Explain(err).Error(); !strings.Contains(words, c.says) {
				t.Fatalf("explained as %q, want %q in it", words, c.says)
			}
		})
	}
	t.Run("replayed nonce", func(t *testing.T) {
		req := signed(base, demo, 9, week)
		if _, err := client.AuthorizeBuilder(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		_, err := client.AuthorizeBuilder(context.Background(), req)
		if !errors.Is(err, exchange.CodeDuplicateSignature) {
			t.Fatalf("replay: %v, want 4007", err)
		}
		if words := builder.Explain(err).Error(); !strings.Contains(words, "nonce was already used") {
			t.Fatalf("explained as %q", words)
		}
	})
}

// TestBuilderReviewExplainsRefusal: a refusal reaches the review screen in words.
func TestBuilderReviewExplainsRefusal(t *testing.T) {
	r := newBldRig(t, 120, 40)
	// Spend the rig's nonce first, so the console's own authorization is a replay.
	demo, _ := signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey)
	a, _ := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05"})
	exp := bldStart.Add(7 * 24 * time.Hour).UnixNano()
	sig, _ := signer.Sign(context.Background(), demo, r.App.Target.Env.Domain(), a.Message(bldNonce, exp))
	if _, err := r.App.Client().AuthorizeBuilder(context.Background(), a.Request(sig)); err != nil {
		t.Fatal(err)
	}
	r.openForm()
	r.fill(sandbox.BuilderAddress, "0.1", "0.05", "")
	r.toReview()
	r.Press("enter")
	r.UntilShows("Not authorized", "nonce was already used", "keys are enabled in 2 s")
	// esc is held with the review's keys, as the words say: it stays.
	r.Press("esc")
	r.UntilShows("Not authorized", "nonce was already used", "keys are enabled in 2 s")
	r.clock.Advance(kit.ShownGuard) // esc is named once it acts
	r.UntilShows("Not authorized", "nonce was already used", "press esc and review it again")
	r.Press("esc")
	r.UntilShows("Max futures fee")
	if strings.Contains(r.Plain(), "Builder authorized") {
		t.Fatal("shown as authorized")
	}
}

// TestBuilderReviewOnARolledBackJournal: once the journal lost lines
// svcwallet wrote to it (an older copy put back), the review signs
// nothing and names the doctor (issue 33 item 4, builder.Signable).
func TestBuilderReviewOnARolledBackJournal(t *testing.T) {
	r := newBldRig(t, 120, 40)
	a, _ := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05"})
	o := builder.NewOrder(a, r.App.Target.Env.Domain(), 1, bldStart)
	if _, err := builder.Prepare(context.Background(), r.App.Client(), r.App.Journal(), o, bldStart); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(r.App.Journal().Path(), 0); err != nil {
		t.Fatal(err)
	}
	r.openForm()
	r.fill(sandbox.BuilderAddress, "0.1", "0.05", "")
	r.toReview()
	r.Press("enter")
	r.UntilShows("Not authorized", "Nothing can be signed", "lost lines svcwallet wrote", "which says what was lost")
	if strings.Contains(r.Plain(), "Builder authorized") {
		t.Fatal("shown as authorized")
	}
}
