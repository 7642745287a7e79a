package builder_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

func TestBuilderCheckPermissions(t *testing.T) {
	in := builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05",
		Label: "bot", KeySigner: sandbox.NoChainAddress}
	for perms, want := range map[string]string{"trade&admin": "Admin&Trade", "Trade": "Trade", "Fly": "", "Trade&Trade": ""} {
		in.Permissions = perms
		a, err := builder.Check(in)
		var fe *builder.FieldError
		switch {
		case want == "" && (!errors.As(err, &fe) || fe.Field != builder.FieldPermissions):
			t.Errorf("%q: err %v, want a refusal of --permissions", perms, err)
		case want != "" && (err != nil || a.Perms.String() != want || a.Mode() != "AddAccountSignerWithBuilder"):
			t.Errorf("%q: %v %q, want %q", perms, err, a.Perms.String(), want)
		}
	}
	for s, want := range map[string]time.Duration{"": 7 * 24 * time.Hour, "7": 7 * 24 * time.Hour, "30d": 30 * 24 * time.Hour, "72h": 72 * time.Hour, "90m": 90 * time.Minute} {
		if d, err := builder.ParseValidity(s); err != nil || d != want {
			t.Errorf("validity %q: %v %v, want %v", s, d, err, want)
		}
	}
	for _, s := range []string{"0", "31", "31d", "721h", "30s", "-1h", "soon", "1.5d"} {
		if _, err := builder.ParseValidity(s); err == nil {
			t.Errorf("validity %q accepted", s)
		}
	}
}

// TestBuilderKeyLabel: a typed API key label is held to the journal's rule
// of one (journal.ValidKeyLabel), said as the label's refusal: a label the
// journal would refuse to read back is never prepared, nor sent; nor is
// one holding a private key's shape (typed at plain mode's question),
// refused in words that repeat none of it; the question asking for it
// (plain mode's) refuses what the authorization refuses, and asks again.
func TestBuilderKeyLabel(t *testing.T) {
	in := builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05",
		KeySigner: sandbox.NoChainAddress, Permissions: "Trade"}
	for label, ok := range map[string]bool{"bot": true, " my bot ": true, strings.Repeat("x", journal.MaxKeyLabel): true, "bot 12345678": true,
		testKey: false, "0x" + testKey[2:]: false, testKey[:32] + " " + testKey[32:]: false,
		strings.Repeat("a", journal.MaxKeyLabel-2) + "…": false, strings.Repeat("é", 51): false,
		"my\u202ebot": false, "my\tbot": false, "my\nbot": false, "my\x1b[2Jbot": false} {
		in.Label = label
		a, err := builder.Check(in)
		var fe *builder.FieldError
		switch {
		case ok && (err != nil || a.Label != strings.TrimSpace(label)):
			t.Errorf("label %q: %v, label %q", safetext.Quoted(label), err, safetext.Quoted(a.Label))
		case !ok && (!errors.As(err, &fe) || fe.Field != builder.FieldLabel || strings.Contains(err.Error(), testKey[8:16])):
			t.Errorf("label %q: err %v, want a refusal of the label", safetext.Quoted(label), err)
		}
		if check := builder.FieldLabel.Question().Check; check == nil || (check(label) == nil) != ok {
			t.Errorf("label %q: the question (plain mode's) does not check it as the authorization does", safetext.Quoted(label))
		}
	}
}

// TestBuilderExpirationStaysUnderTheCap: a 30-day signature keeps a margin
// under the service's cap for a clock that runs a little ahead; shorter
// ones are exact.
func TestBuilderExpirationStaysUnderTheCap(t *testing.T) {
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	if got := (builder.Auth{Validity: builder.MaxValidity}).Expiration(now); got >= now.Add(builder.MaxValidity-exchange.MaxClockSkew).UnixNano() {
		t.Errorf("30d expiration %d leaves no margin under the cap", got)
	}
	if got, want := (builder.Auth{Validity: builder.DefaultValidity}).Expiration(now), now.Add(builder.DefaultValidity).UnixNano(); got != want {
		t.Errorf("7d expiration %d, want %d", got, want)
	}
}
func TestBuilderHumanDuration(t *testing.T) {
	for in, want := range map[string]string{"90m": "1 h 30 min", "7d": "7 days", "1d": "1 day", "36h": "1 day 12 h",
		"72h": "3 days", "45m": "45 min", "90s": "1 min 30 s", "2h": "2 h"} {
		d, err := builder.ParseValidity(in)
		if got := builder.HumanDuration(d); err != nil || got != want {
			t.Errorf("%s: %q (%v), want %q", in, got, err, want)
		}
	}
}
func TestBuilderFeePercent(t *testing.T) {
	for in, want := range map[string]uint32{"0.05%": 500, "0.05 %": 500, " 0.1% ": 1000, "0.1": 1000} {
		if got, err := builder.ParseFeePercent(in); err != nil || got != want {
			t.Errorf("%q: %d (%v), want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"%", "0.05%%", "%0.05"} {
		if _, err := builder.ParseFeePercent(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

// TestBuilderValidityErrorShortensInput: a validity that is no duration is
// repeated with at most 8 hex digits in a row (issue 17 item 7).
func TestBuilderValidityErrorShortensInput(t *testing.T) {
	_, err := builder.ParseValidity("1234567890abcdef")
	if err == nil || !strings.HasPrefix(err.Error(), `"12345678…" is not a duration`) {
		t.Errorf("the error does not start with the input cut to 8 hex digits; it is (hex runs cut here) %q", safetext.Quoted(fmt.Sprint(err)))
	}
	// What makes it no duration is shown: cleaned, 7d with a zero-width
	// space was said "7d" is not a duration: write it like 7d.
	for in, says := range map[string]string{"7d\u200b": `"7d\u200b" is not a duration`, "72\u04bb": `"72\u04bb" is not a duration`} {
		if _, err := builder.ParseValidity(in); err == nil || !strings.HasPrefix(err.Error(), says) {
			t.Errorf("%q: %v, want it to start %s", in, err, says)
		}
	}
}

// testKey is the sandbox's well-known development key.
const testKey = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
