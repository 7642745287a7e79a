package signer

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// TestLookupOrder: the key that signs for an account is looked for in one
// order for every review: the environment's clef or signing command, the
// raw key, the sandbox's demo key, the keystore file; a key of another
// account is passed over, and a named source that cannot sign says why.
func TestLookupOrder(t *testing.T) {
	rawHex, rawAddr := freshKeyHex(t)
	demoHex, demoAddr := freshKeyHex(t)
	storedHex, storedAddr := freshKeyHex(t)
	dir := t.TempDir()
	if _, _, err := ImportRawKey(dir, storedHex, testPassphrase); err != nil {
		t.Fatal(err)
	}
	base := Lookup{Opening: Opening{RawKey: rawHex, KeystoreDir: dir}, DemoKey: demoHex}
	for _, tc := range []struct {
		name  string
		l     Lookup
		want  common.Address
		place KeyPlace
	}{
		{"the raw key", base, rawAddr, KeyInEnv},
		{"the demo key", base, demoAddr, KeyDemo},
		{"the keystore", base, storedAddr, KeyInKeystore},
		{"nowhere", base, common.HexToAddress("0x1111111111111111111111111111111111111111"), KeyNowhere},
		{"the environment's source first", func() Lookup {
			l := base
			l.Signer, l.SignCommand, l.Start = "command", "signer-cmd {file}", SignCommandStarter(false)
			return l
		}(), rawAddr, KeyOfEnvironment},
		{"the environment's source of another account", func() Lookup {
			l := base
			l.Signer, l.Account, l.SignCommand, l.Start = "command", storedAddr.Hex(), "signer-cmd {file}", SignCommandStarter(false)
			return l
		}(), rawAddr, KeyInEnv},
	} {
		f := tc.l.Find(context.Background(), tc.want)
		if f.Place != tc.place || f.Err != nil {
			t.Errorf("%s: place %d, %v; want %d", tc.name, f.Place, f.Err, tc.place)
		}
		if f.Place == KeyInKeystore && f.Path == "" || (f.Place == KeyInEnv || f.Place == KeyDemo) && f.Key.Address() != tc.want {
			t.Errorf("%s: %+v", tc.name, f)
		}
		if f.Place == KeyOfEnvironment && f.From != "the signing command signer-cmd" {
			t.Errorf("%s: from %q", tc.name, f.From)
		}
	}
	l := base
	l.Signer = "command" // no signing command configured
	if f := l.Find(context.Background(), rawAddr); f.Place != KeyNowhere || f.Err == nil {
		t.Errorf("a named source that cannot sign: %+v", f)
	}
}

// TestNoKeySaysWhy: where Find found no key, every face says why in the
// one sentence (NoKeyError): the environment's signer, named as the config
// has it, with its own error kept, or no key here at all.
func TestNoKeySaysWhy(t *testing.T) {
	want := common.HexToAddress("0x1111111111111111111111111111111111111111")
	l := Lookup{Signer: "command"}
	f, err := l.Signing(context.Background(), false, want)
	if !errors.Is(err, f.Err) || f.Err == nil || err.Error() != "no key here signs for "+want.Hex()+` (the environment's signer, signer = "command" in the config: `+f.Err.Error()+")" {
		t.Errorf("a signer that cannot sign: %v", err)
	}
	if got := l.NoKey(want, f); got.Error() != err.Error() {
		t.Errorf("a review's look says %q, Signing %q", got, err)
	}
	if got := (Lookup{}).NoKey(want, Found{}).Error(); got != "no key here signs for "+want.Hex() {
		t.Errorf("no key: %q", got)
	}
}

// TestNoKeyStepsFitTheCase: after no key here, one set of next steps
// fitting the case, whichever face words the ways: a signer set but
// unusable is fixed first, its config key named (sign_command for a
// signing command), and never set again; one set for another account is
// not set again; none set, setting one is a way.
func TestNoKeyStepsFitTheCase(t *testing.T) {
	want := common.HexToAddress("0x1111111111111111111111111111111111111111")
	f, err := Lookup{Signer: "command"}.Signing(context.Background(), false, want)
	nk, _ := errors.AsType[*NoKeyError](err)
	if nk == nil || f.Err == nil {
		t.Fatalf("a signer that cannot sign: %v", err)
	}
	for _, c := range []struct {
		nk   *NoKeyError
		want string
	}{
		{nk, "fix sign_command, wallet, set $SVCWALLET_PRIVATE_KEY, or import"},
		{&NoKeyError{Signer: "clef", Err: errors.New("refused")}, "fix signer, wallet, set $SVCWALLET_PRIVATE_KEY, or import"},
		{&NoKeyError{Signer: "command"}, "wallet, set $SVCWALLET_PRIVATE_KEY, or import"},
		{&NoKeyError{}, "wallet, set $SVCWALLET_PRIVATE_KEY or signer (config), or import"},
	} {
		if got := c.nk.Steps("wallet", "import"); got != c.want {
			t.Errorf("signer %q, error %v: %q, want %q", c.nk.Signer, c.nk.Err, got, c.want)
		}
	}
}

// TestNoKeyWaysSayTheFixOnce: after For's words, which say the signer's
// error, the ways do not say again a fix that error says (no signing
// command: set sign_command …); where it says none, fixing the setting
// is the first way, as in Steps.
func TestNoKeyWaysSayTheFixOnce(t *testing.T) {
	want := common.HexToAddress("0x1111111111111111111111111111111111111111")
	_, err := Lookup{Signer: "command"}.Signing(context.Background(), false, want)
	nk, _ := errors.AsType[*NoKeyError](err)
	if nk == nil || !errors.Is(nk, ErrNoSignCommand) {
		t.Fatalf("no signing command: %v", err)
	}
	for _, c := range []struct {
		nk   *NoKeyError
		want string
	}{
		{nk, "Other ways: wallet, set $SVCWALLET_PRIVATE_KEY, or import"},
		{&NoKeyError{Signer: "clef", Err: errors.New("refused")}, "Ways: fix signer, wallet, set $SVCWALLET_PRIVATE_KEY, or import"},
		{&NoKeyError{}, "Ways: wallet, set $SVCWALLET_PRIVATE_KEY or signer (config), or import"},
	} {
		said := c.nk.Error() + ". " + c.nk.Ways("wallet", "import")
		if got := c.nk.Ways("wallet", "import"); got != c.want || strings.Count(said, "sign_command") > 1 {
			t.Errorf("signer %q, error %v: %q, want %q", c.nk.Signer, c.nk.Err, got, c.want)
		}
	}
	// In the fewest words the error leaves its fix to the steps.
	if said := nk.Cause() + ": " + nk.Steps("wallet", "import"); said != "no signing command: fix sign_command, wallet, set $SVCWALLET_PRIVATE_KEY, or import" {
		t.Errorf("the cause and its steps: %q", said)
	}
}
