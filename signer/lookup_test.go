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
// has it, with its own error kept and said in its fewest words (Cause:
// its fix is the steps'), or no key here at all.
func TestNoKeySaysWhy(t *testing.T) {
	want := common.HexToAddress("0x1111111111111111111111111111111111111111")
	l := Lookup{Signer: "command"}
	f, err := l.Signing(context.Background(), false, want)
	if !errors.Is(err, f.Err) || f.Err == nil || err.Error() != "no key here signs for "+want.Hex()+` (the environment's signer, signer = "command" in the config: no signing command)` {
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
// signing command), and never set again; the raw key and the keystore
// folder, which the look never reaches while it is set, are ways only with
// it out of the config, even in the fewest words, but where the signer's
// file was passed over (another account's), which stops no look; one set
// for another account is not set again;
// none set, setting one is a way.
func TestNoKeyStepsFitTheCase(t *testing.T) {
	want := common.HexToAddress("0x1111111111111111111111111111111111111111")
	f, err := Lookup{Signer: "command"}.Signing(context.Background(), false, want)
	nk, _ := errors.AsType[*NoKeyError](err)
	if nk == nil || f.Err == nil {
		t.Fatalf("a signer that cannot sign: %v", err)
	}
	for _, c := range []struct {
		nk        *NoKeyError
		want, now string
	}{
		{nk, "set sign_command or wallet; with signer out of the config, set $SVCWALLET_PRIVATE_KEY or import", "set sign_command or wallet"},
		{&NoKeyError{Signer: "command", Err: errors.New("exit 1")}, "fix sign_command or wallet; with signer out of the config, set $SVCWALLET_PRIVATE_KEY or import", "fix sign_command or wallet"},
		{&NoKeyError{Signer: "clef", Err: errors.New("refused")}, "fix signer or wallet; with signer out of the config, set $SVCWALLET_PRIVATE_KEY or import", "fix signer or wallet"},
		{&NoKeyError{Signer: "keystore", Err: &noFolderFile{want, "/k"}}, "import or wallet; with signer out of the config, set $SVCWALLET_PRIVATE_KEY", "import or wallet"},
		{&NoKeyError{Signer: "keystore:0x2222222222222222222222222222222222222222", Err: passedOver{errors.New("another account's")}},
			"fix signer, wallet, set $SVCWALLET_PRIVATE_KEY, or import", "fix signer, wallet, set $SVCWALLET_PRIVATE_KEY, or import"},
		{&NoKeyError{Signer: "command"}, "wallet, set $SVCWALLET_PRIVATE_KEY, or import", "wallet, set $SVCWALLET_PRIVATE_KEY, or import"},
		{&NoKeyError{}, "wallet, set $SVCWALLET_PRIVATE_KEY or signer (config), or import", "wallet, set $SVCWALLET_PRIVATE_KEY or signer (config), or import"},
	} {
		if got := c.nk.Steps("wallet", "import"); got != c.want {
			t.Errorf("signer %q, error %v: %q, want %q", c.nk.Signer, c.nk.Err, got, c.want)
		}
		if got := c.nk.Now("wallet", "import"); got != c.now {
			t.Errorf("signer %q, error %v, fewest words: %q, want %q", c.nk.Signer, c.nk.Err, got, c.now)
		}
	}
}

// TestNoKeyWaysSayTheFixOnce: For's words say the signer's error in its
// fewest words, and the ways after them (Ways: Steps) its fix, once: no
// signing command, then set sign_command. Its whole error said it again,
// and the ways that followed began "Other ways", which pointed back past
// it.
func TestNoKeyWaysSayTheFixOnce(t *testing.T) {
	want := common.HexToAddress("0x1111111111111111111111111111111111111111")
	_, err := Lookup{Signer: "command"}.Signing(context.Background(), false, want)
	nk, _ := errors.AsType[*NoKeyError](err)
	if nk == nil || !errors.Is(nk, ErrNoSignCommand) {
		t.Fatalf("no signing command: %v", err)
	}
	said := nk.Error() + ". " + nk.Ways("wallet", "import")
	if !strings.Contains(said, "no signing command). Ways: set sign_command or wallet") || strings.Count(said, "sign_command") != 1 || strings.Contains(said, "Other") {
		t.Errorf("the fix said once, after the cause: %q", said)
	}
	if got := (&NoKeyError{}).Ways("wallet", "import"); got != "Ways: wallet, set $SVCWALLET_PRIVATE_KEY or signer (config), or import" {
		t.Errorf("no signer: %q", got)
	}
	if said := nk.Cause() + ": " + nk.Steps("wallet", "import"); !strings.HasPrefix(said, "no signing command: set sign_command or wallet;") {
		t.Errorf("the cause and its steps: %q", said)
	}
}

// TestNoKeyWaysActWhileTheSignerFails: the ways said while the
// environment's signer is set and cannot sign are what the look does: a
// login by wallet signs (its key is held), the raw key and the keystore's
// file are not reached until signer is out of the config; the keystore
// folder's missing file is mended by importing it, signer set.
func TestNoKeyWaysActWhileTheSignerFails(t *testing.T) {
	rawHex, addr := freshKeyHex(t)
	dir := t.TempDir()
	ctx := context.Background()
	for _, set := range []string{"command", "keystore", "/nowhere/key.json"} {
		l := Lookup{Opening: Opening{RawKey: rawHex, KeystoreDir: dir}, Signer: set}
		if _, err := l.Signing(ctx, true, addr); err != nil {
			t.Errorf("signer %q: a login by wallet does not sign: %v", set, err)
		}
		if f := l.Find(ctx, addr); f.Place != KeyNowhere || f.Err == nil {
			t.Errorf("signer %q: the raw key signs though the ways say it does not yet: %+v", set, f)
		}
		l.Signer = ""
		if f := l.Find(ctx, addr); f.Place != KeyInEnv {
			t.Errorf("signer %q taken out: the raw key does not sign: %+v", set, f)
		}
	}
	l := Lookup{Opening: Opening{KeystoreDir: dir}, Signer: "keystore"}
	_, err := l.Signing(ctx, false, addr)
	nk, _ := errors.AsType[*NoKeyError](err)
	if nk == nil || !strings.HasPrefix(nk.Steps("wallet", "import"), "import or wallet;") {
		t.Fatalf("keystore alone, no file: %v", err)
	}
	if _, _, err := ImportRawKey(dir, rawHex, testPassphrase); err != nil {
		t.Fatal(err)
	}
	if f := l.Find(ctx, addr); f.Place != KeyInKeystore {
		t.Errorf("the key imported, signer set: %+v", f)
	}
}
