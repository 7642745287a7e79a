package builder_test

import (
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestFeeWarnings: a fee cap is warned of above 1% (HighFeeRate, signed
// 10000), each kind on its own, and not at 1%; a builder that is the main
// account itself is warned of first.
func TestFeeWarnings(t *testing.T) {
	for _, tc := range []struct {
		futures, spot uint32
		warns         []string
	}{
		{1000, 500, nil},
		{builder.HighFeeRate, builder.HighFeeRate, nil},
		{builder.HighFeeRate + 1, 500, []string{"The futures fee cap 1.0001% is above 1%"}},
		{500, 100000, []string{"The spot fee cap 10% is above 1%: the builder may charge up to 10% of every spot trade"}},
		{20000, 20000, []string{"The futures fee cap 2%", "The spot fee cap 2%"}},
		{0, 20000, []string{builder.OwnAccountWarning, "The spot fee cap 2%"}},
	} {
		a := builder.Auth{Builder: common.HexToAddress(sandbox.BuilderAddress), Futures: tc.futures, Spot: tc.spot}
		if tc.futures == 0 {
			a.Builder = a.Main
		}
		got := a.Warnings()
		if len(got) != len(tc.warns) {
			t.Errorf("futures %d, spot %d: warnings %q, want %d", tc.futures, tc.spot, got, len(tc.warns))
			continue
		}
		for i, w := range tc.warns {
			if !strings.HasPrefix(got[i], w) {
				t.Errorf("futures %d, spot %d: warning %q, want one starting %q", tc.futures, tc.spot, got[i], w)
			}
		}
	}
}

// TestPermsWarning: a builder's API key given more than Trade is warned
// of, naming what else it may do (without Trade, not "also"); Trade alone,
// or no key, is not.
func TestPermsWarning(t *testing.T) {
	for _, tc := range []struct {
		perms   string
		withKey bool
		want    string
	}{
		{"Trade", true, ""},
		{"Admin&Trade", false, ""},
		{"Admin&Trade", true, "The builder's API key also gets Admin; a builder needs only Trade."},
		{"Withdraw", true, "The builder's API key gets Withdraw, not Trade; a builder needs only Trade."},
		{"trade,withdraw,vaultinvestor", true, "The builder's API key also gets Withdraw, VaultInvestor; a builder needs only Trade."},
	} {
		perms, err := signer.ParsePermissions(tc.perms)
		if err != nil {
			t.Fatal(err)
		}
		a := builder.Auth{Builder: common.HexToAddress(sandbox.BuilderAddress), WithKey: tc.withKey, Perms: perms}
		got := a.Warnings()
		switch {
		case tc.want == "" && len(got) != 0:
			t.Errorf("%s (key %v): warned %q", tc.perms, tc.withKey, got)
		case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
			t.Errorf("%s: warnings %q, want one holding %q", tc.perms, got, tc.want)
		}
	}
}

// TestOrderReview: the review of an order shows each signed field beside
// what it means: the fee caps as percentages of the integers signed, the
// expiration as the date the message carries, and whether signing creates
// an API key.
func TestOrderReview(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	d := signer.Domain{Name: signer.DefaultDomainName, ChainID: sandbox.DefaultChainID}
	plain, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05", Expires: "3d"})
	if err != nil {
		t.Fatal(err)
	}
	withKey, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05",
		Label: "bot", KeySigner: sandbox.NoChainAddress, Permissions: "Trade"})
	if err != nil {
		t.Fatal(err)
	}

	o := builder.NewOrder(plain, d, 7, now)
	if want := plain.Expiration(now); o.Expiration().UnixNano() != want {
		t.Fatalf("the order expires %s, its message %d", o.Expiration(), want)
	}
	r := o.Review()
	meaning := map[string]string{}
	values := map[string]string{}
	for _, f := range r.Fields() {
		meaning[f.Name], values[f.Name] = f.Meaning, f.Value
	}
	exp := o.Expiration().UTC().Format("2006-01-02 15:04:05 UTC")
	for field, want := range map[string]string{
		"maxFutureFeeRate": "= 0.1% futures cap", "maxSpotFeeRate": "= 0.05% spot cap",
		"mainAccountID": "your funding account", "builderAccountID": "the builder", "expiration": exp + ", 3 days",
	} {
		if meaning[field] != want {
			t.Errorf("%s (signed %s) means %q, want %q", field, values[field], meaning[field], want)
		}
	}
	if values["maxFutureFeeRate"] != "1000" || values["maxSpotFeeRate"] != "500" {
		t.Errorf("signed fee caps %s and %s, want 1000 and 500", values["maxFutureFeeRate"], values["maxSpotFeeRate"])
	}
	if r.Signer != plain.Main || r.Domain != d || r.Purpose != "authorize only, no API key" {
		t.Errorf("review signed by %s in %+v for %q", r.Signer, r.Domain, r.Purpose)
	}

	r = builder.NewOrder(withKey, d, 8, now).Review()
	if r.Purpose != "authorize and create an API key" {
		t.Errorf("with an API key: purpose %q", r.Purpose)
	}
	shown := false
	for _, f := range r.Fields() {
		if f.Name == "signer" {
			shown = f.Meaning == "the builder's API-key signer" && strings.EqualFold(f.Value, sandbox.NoChainAddress)
		}
	}
	if !shown {
		t.Errorf("the key's signer is not shown as such: %+v", r.Fields())
	}
}

// TestBriefWarnings: a review with no row to spare warns of an API key
// beyond Trade without naming its permissions again, with or without
// Trade, and keeps every other warning as it is.
func TestBriefWarnings(t *testing.T) {
	for _, tc := range []struct{ perms, want string }{
		{"Withdraw&VaultInvestor&Trade", "The key gets more than Trade, all a builder needs."},
		{"Withdraw&VaultInvestor", "The key gets other rights, not Trade, all a builder needs."},
	} {
		a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.DemoAddress, FuturesFee: "2", SpotFee: "0.05",
			Label: "mybot", KeySigner: sandbox.NoChainAddress, Permissions: tc.perms})
		if err != nil {
			t.Fatal(err)
		}
		got, all := a.BriefWarnings(), a.Warnings()
		if len(got) != 3 || got[0] != builder.OwnAccountWarning || got[1] != tc.want || got[2] != all[2] {
			t.Errorf("%s: brief warnings %q; want %q between the others %q", tc.perms, got, tc.want, all)
		}
	}
}

// TestTightReview: the tightest review says the expiration by its date
// alone and, asked to, the API key's label in the signer's note; without
// a key there is no label to say.
func TestTightReview(t *testing.T) {
	in := builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05",
		Label: "mybot", KeySigner: sandbox.NoChainAddress, Permissions: "Trade"}
	a, err := builder.Check(in)
	if err != nil {
		t.Fatal(err)
	}
	o := builder.NewOrder(a, signer.Domain{}, 1, time.Date(2026, 3, 21, 9, 26, 53, 0, time.UTC).Add(-a.Validity))
	r, labelled := o.TightReview(true)
	if !labelled || r.Meanings["signer"] != `builder's API key "mybot"` || r.Meanings["expiration"] != "2026-03-21 09:26:53Z" {
		t.Errorf("tight review: labelled %v, meanings %q", labelled, r.Meanings)
	}
	if r, labelled := o.TightReview(false); labelled || strings.Contains(r.Meanings["signer"], "mybot") {
		t.Errorf("a label not asked for is said: %q", r.Meanings["signer"])
	}
	in.Label, in.KeySigner, in.Permissions = "", "", ""
	if a, err = builder.Check(in); err != nil {
		t.Fatal(err)
	}
	if _, labelled := builder.NewOrder(a, signer.Domain{}, 1, time.Now()).TightReview(true); labelled {
		t.Error("an authorization without a key is labelled")
	}
}
