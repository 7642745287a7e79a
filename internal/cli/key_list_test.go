package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/signer"
)

func mustNew(t *testing.T, dir string) (common.Address, string) {
	t.Helper()
	addr, path, err := signer.NewKeystoreKey(dir, cliPass)
	if err != nil {
		t.Fatal(err)
	}
	return addr, path
}

func TestKeyListEmptyAndFromEnv(t *testing.T) {
	lightScrypt(t)
	empty := filepath.Join(t.TempDir(), "none")
	r := keyCmd(t, "", nil, "list", "--keystore", empty)
	// The commands it names make the key where this listing looks.
	if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "No keys in") ||
		!strings.Contains(r.stderr, "`svcwallet key new --keystore "+empty+"` or `svcwallet key import --keystore "+empty+"`") {
		t.Errorf("empty list: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	r = keyCmd(t, "", nil, "list", "--json", "--keystore", empty)
	if r.code != 0 || strings.TrimSpace(r.stdout) != "[]" {
		t.Errorf("empty list --json: exit %d, stdout %q", r.code, r.stdout)
	}

	dir := t.TempDir()
	addr, _ := mustNew(t, dir)
	r = keyCmd(t, "", map[string]string{signer.KeystoreEnvVar: dir}, "list")
	if r.code != 0 || !strings.Contains(r.stdout, addr.Hex()) {
		t.Errorf("list with %s: exit %d, %q %q", signer.KeystoreEnvVar, r.code, r.stdout, r.stderr)
	}
}

// TestKeyListShowsItsFolderAsItReads: a keystore folder holding a no-break
// space (safetext.Printable) is named escaped, in the listing and where it
// is empty, and no key new or key import line names it raw.
func TestKeyListShowsItsFolderAsItReads(t *testing.T) {
	lightScrypt(t)
	odd := filepath.Join(t.TempDir(), "my\u00a0keys")
	r := keyCmd(t, "", nil, "list", "--keystore", odd)
	if r.code != 0 || strings.Contains(r.stderr, "\u00a0") || !strings.Contains(r.stderr, `No keys in "`+strings.Replace(odd, "\u00a0", `\u00a0`, 1)+`"; create one with key new or key import and --keystore with that folder's path`) {
		t.Errorf("empty list: exit %d, stderr %q", r.code, r.stderr)
	}
	if err := os.Mkdir(odd, 0o700); err != nil {
		t.Fatal(err)
	}
	mustNew(t, odd)
	r = keyCmd(t, "", nil, "list", "--keystore", odd)
	if r.code != 0 || strings.Contains(r.stdout, "\u00a0") || !strings.Contains(r.stdout, `my\u00a0keys`) {
		t.Errorf("list: exit %d, stdout %q", r.code, r.stdout)
	}
}

// A Foundry keystore (`cast wallet import`: V3 without the address field) is
// listed by its file name; its address shows once it is decrypted.
func TestKeyListFoundryKeystore(t *testing.T) {
	lightScrypt(t)
	dir := t.TempDir()
	_, path := mustNew(t, t.TempDir())
	foundry := foundryCopy(t, path, filepath.Join(dir, "deployer"))
	r := keyCmd(t, "", nil, "list", "--keystore", dir)
	if r.code != 0 || !strings.Contains(r.stdout, "(address shown after decryption)") || !strings.Contains(r.stdout, foundry) {
		t.Fatalf("list: exit %d, %q", r.code, r.stdout)
	}
	r = keyCmd(t, "", nil, "list", "--json", "--keystore", dir)
	if !strings.Contains(r.stdout, `"name": "deployer"`) || !strings.Contains(r.stdout, `"address": ""`) {
		t.Fatalf("list --json = %s", r.stdout)
	}
}

// foundryCopy writes a keystore file as Foundry's `cast wallet import` does:
// geth's V3 format without the clear-text address field.
func foundryCopy(t *testing.T, from, to string) string {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	var f map[string]json.RawMessage
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	delete(f, "address")
	b, _ = json.Marshal(f)
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return to
}

// TestKeyListBuilderKeys: a key pair made for a builder's API key (in the
// keystore's builder folder) is listed after the login keys, said to be
// the builder's, and marked "builder" in --json.
func TestKeyListBuilderKeys(t *testing.T) {
	lightScrypt(t)
	dir := t.TempDir()
	own, _ := mustNew(t, dir)
	bot, botPath := mustNew(t, signer.BuilderKeysDir(dir))
	r := keyCmd(t, "", nil, "list", "--keystore", dir)
	head, builders, ok := strings.Cut(r.stdout, "Builder API key pairs (they sign a builder's trades; not login keys):\n")
	if r.code != 0 || !ok || !strings.Contains(head, own.Hex()) || strings.Contains(head, bot.Hex()) || !strings.Contains(builders, bot.Hex()+"  "+botPath) {
		t.Fatalf("list: exit %d, %q", r.code, r.stdout)
	}
	r = keyCmd(t, "", nil, "list", "--json", "--keystore", dir)
	var entries []struct {
		Address string
		Builder bool
	}
	if err := json.Unmarshal([]byte(r.stdout), &entries); err != nil || len(entries) != 2 ||
		entries[0] != (struct {
			Address string
			Builder bool
		}{own.Hex(), false}) || !entries[1].Builder || entries[1].Address != bot.Hex() {
		t.Fatalf("list --json = %s (%v)", r.stdout, err)
	}
}

// A keystore file's name is text from the disk: one named with an escape
// sequence (here OSC 52, which would put an address of its choosing in the
// clipboard) is left out of the listing, in the builder folder too, and
// never reaches the terminal.
func TestKeyListLeavesOutNamesWithControls(t *testing.T) {
	lightScrypt(t)
	dir := t.TempDir()
	addr, path := mustNew(t, dir)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	hostile := "UTC--x\x1b]52;c;MHg5OTk5\x07"
	for _, at := range []string{filepath.Join(dir, hostile), filepath.Join(signer.BuilderKeysDir(dir), hostile+"\n")} {
		if err := os.MkdirAll(filepath.Dir(at), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(at, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r := keyCmd(t, "", nil, "list", "--keystore", dir)
	if r.code != 0 || !strings.Contains(r.stdout, addr.Hex()) || strings.ContainsAny(r.stdout+r.stderr, "\x1b\x07") || strings.Contains(r.stdout, "Builder") {
		t.Fatalf("list: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}
