package signer

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestLookupConfiguredKeystore: after an API-key login the environment's
// signer is looked at whatever its kind: a keystore file it names that
// holds the account's key is the key (asked its passphrase when it signs),
// wherever the file lies, before the raw key.
func TestLookupConfiguredKeystore(t *testing.T) {
	storedHex, stored := freshKeyHex(t)
	rawHex, _ := freshKeyHex(t)
	dir := t.TempDir()
	_, path, err := ImportRawKey(dir, storedHex, testPassphrase)
	if err != nil {
		t.Fatal(err)
	}
	for _, signer := range []string{path, "keystore:" + stored.Hex(), "keystore"} {
		l := Lookup{Opening: Opening{RawKey: rawHex, KeystoreDir: dir}, Signer: signer}
		if f := l.Find(context.Background(), stored); f.Place != KeyInKeystore || f.Path != path || f.Err != nil {
			t.Errorf("signer = %q: %+v", signer, f)
		}
	}
	l := Lookup{Opening: Opening{KeystoreDir: t.TempDir()}, Signer: path} // its folder is not the keystore's
	if f := l.Find(context.Background(), stored); f.Place != KeyInKeystore || f.Path != path {
		t.Errorf("a file outside the keystore folder: %+v", f)
	}
}

// TestNoKeySaysTheKeystoreFault: a keystore file the environment's signer
// names that cannot sign for the account is said in NoKeyError's words,
// its fault named and its fix first ("fix signer"): missing, unreadable,
// not a keystore, another account's (by path or by keystore:ADDRESS), one
// that does not say whose it is. A broken file ends the look, as the
// signing command's fault does; another account's file is passed over
// for a key that signs, and said only when none does.
func TestNoKeySaysTheKeystoreFault(t *testing.T) {
	otherHex, other := freshKeyHex(t)
	rawHex, want := freshKeyHex(t)
	dir := t.TempDir()
	_, otherPath, err := ImportRawKey(dir, otherHex, testPassphrase)
	if err != nil {
		t.Fatal(err)
	}
	_, foundry := foundryKeystore(t, t.TempDir())
	notKeystore := filepath.Join(dir, "notes.json")
	unreadable := filepath.Join(t.TempDir(), "locked.json")
	for p, b := range map[string]string{notKeystore: `{"hello": 1}`, unreadable: `{}`} {
		if err := os.WriteFile(p, []byte(b), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(unreadable, 0); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.json")
	cases := []struct {
		name, signer, says string
		passed             bool // a key found elsewhere signs
	}{
		{"missing", missing, "the file is not there)", false},
		{"not a keystore", notKeystore, notKeystore + " is not a keystore V3 file", false},
		{"another account's file", otherPath, "the file holds the key of " + other.Hex() + ", another account", true},
		{"another account's address", "keystore:" + other.Hex(), "it names the key of " + other.Hex() + ", another account", true},
		{"a file without its address", foundry, "the file does not say whose key it holds", true},
		{"a folder", dir, dir + " is a directory", false},
		{"keystore alone, no file of the account", "keystore", "no keystore file for " + want.Hex(), false},
	}
	type fault = struct {
		name, signer, says string
		passed             bool
	}
	if runtime.GOOS != "windows" && os.Geteuid() != 0 { // root reads any file; Windows has no mode bits
		cases = append(cases, fault{"unreadable", unreadable, "cannot read keystore file", false})
	}
	if runtime.GOOS != "windows" { // the account's own file, in a folder others can write: said before its passphrase is asked
		open := t.TempDir()
		_, ownPath, err := ImportRawKey(open, rawHex, testPassphrase)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(open, 0o777); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, fault{"in a folder others can write", ownPath, "directory " + open + " (above " + ownPath + ") is writable by group or others", false})
	}
	for _, tc := range cases {
		l := Lookup{Opening: Opening{KeystoreDir: dir}, Signer: tc.signer}
		_, err := l.Signing(context.Background(), false, want)
		nk, ok := err.(*NoKeyError)
		if !ok {
			t.Errorf("%s: %v, want a NoKeyError", tc.name, err)
			continue
		}
		head := "no key here signs for " + want.Hex() + " (the environment's signer, signer = " + strconv.Quote(tc.signer) + " in the config: " + tc.says
		if !strings.HasPrefix(nk.Error(), head) {
			t.Errorf("%s: %q\nwant it to begin %q", tc.name, nk.Error(), head)
		}
		fix := "fix signer or "
		switch {
		case tc.signer == "keystore":
			fix = "import or " // importing the key is the fix
		case tc.passed:
			fix = "fix signer, "
		}
		steps := nk.Steps("log in by wallet", "import")
		if !strings.HasPrefix(steps, fix) {
			t.Errorf("%s: the fix is not first: %q", tc.name, steps)
		}
		// A file passed over ends no look: the raw key signs with signer
		// still set, so it is not said to wait for signer's removal.
		if waits := strings.Contains(steps, "with signer out of the config"); waits == tc.passed {
			t.Errorf("%s: the raw key said to wait for signer out of the config: %v (it signs now: %v): %q", tc.name, waits, tc.passed, steps)
		}
		l.RawKey = rawHex
		f := l.Find(context.Background(), want)
		if signs := f.Place == KeyInEnv; signs != tc.passed {
			t.Errorf("%s: with the raw key set, %+v (a key elsewhere signs: %v)", tc.name, f, tc.passed)
		}
	}
}
