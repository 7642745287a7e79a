package signer

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
)

func TestMain(m *testing.M) {
	ScryptN, ScryptP = exchangetest.CheapScryptN, exchangetest.CheapScryptP
	os.Exit(exchangetest.RunTests(m))
}

const testPassphrase = "correct horse battery staple"

// freshKeyHex returns a random private key as 64 hex digits and its address.
func freshKeyHex(t *testing.T) (string, common.Address) {
	t.Helper()
	k, err := secp256k1.GeneratePrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(k.Serialize()), addressOf(k.PubKey())
}

// assertNoSecret fails when any secret appears in s, in any case.
func assertNoSecret(t *testing.T, what, s string, secrets ...string) {
	t.Helper()
	for _, sec := range secrets {
		if sec != "" && strings.Contains(strings.ToLower(s), strings.ToLower(sec)) {
			t.Errorf("%s reveals a secret: %q", what, s)
		}
	}
}

func TestPrivateKeyNeverPrinted(t *testing.T) {
	hexKey, a := freshKeyHex(t)
	k, err := ParsePrivateKeyHex(hexKey)
	if err != nil {
		t.Fatal(err)
	}
	out := fmt.Sprintf("%v %+v %#v %s %x %q %d", k, k, k, k, k, k, k)
	out += fmt.Sprintf("%v %+v %#v", *k, *k, []any{k})
	assertNoSecret(t, "fmt", out, hexKey)
	// The decimal form of the scalar is another way to leak it.
	assertNoSecret(t, "fmt", out, new(big.Int).SetBytes(k.key.Serialize()).String())
	if want := "PrivateKey(" + a.Hex() + ")"; !strings.Contains(out, want) {
		t.Errorf("fmt output %q lacks %q", out, want)
	}
	var empty PrivateKey
	if got := fmt.Sprint(empty); got != "PrivateKey(empty)" {
		t.Errorf("zero PrivateKey prints %q", got)
	}
}

func TestKeystoreRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "keystore")
	addr, path, err := NewKeystoreKey(dir, testPassphrase)
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(path) || filepath.Dir(path) != dir {
		t.Errorf("path %s is not an absolute path in %s", path, dir)
	}
	if re := regexp.MustCompile(`^UTC--\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{9}Z--[0-9a-f]{40}$`); !re.MatchString(filepath.Base(path)) {
		t.Errorf("file name %s is not geth's convention", filepath.Base(path))
	}
	if !strings.HasSuffix(path, strings.ToLower(addr.Hex()[2:])) {
		t.Errorf("file name %s does not end with the address %s", path, addr.Hex())
	}
	if runtime.GOOS != "windows" {
		assertMode(t, path, 0o600)
		assertMode(t, dir, 0o700)
	}

	entries, err := ListKeystore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0] != (KeystoreEntry{Address: addr, AddressKnown: true, Path: path}) {
		t.Fatalf("list = %+v, want the one new key", entries)
	}
	found, err := FindKeystore(dir, addr)
	if err != nil || found != path {
		t.Fatalf("find = %q, %v", found, err)
	}

	k, err := LoadKeystoreKey(path, testPassphrase)
	if err != nil {
		t.Fatal(err)
	}
	if k.Address() != addr {
		t.Fatalf("loaded key is %s, want %s", k.Address(), addr)
	}

	const wrong = "Tr0ub4dor&3"
	_, err = LoadKeystoreKey(path, wrong)
	if !errors.Is(err, ErrWrongPassphrase) {
		t.Fatalf("wrong passphrase: got %v", err)
	}
	// Named by its address, which says which key; the file's name is cut
	// on a small screen.
	if want := "wrong passphrase for the keystore key of " + addr.Hex(); err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	missing := filepath.Join(t.TempDir(), "UTC--gone")
	_, err = LoadKeystoreKey(missing, testPassphrase)
	if want := "no keystore file at " + missing + ": check the path (`svcwallet key list` shows the keys)"; err == nil || err.Error() != want || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want %q, said once", err, want)
	}
	assertNoSecret(t, "error", err.Error(), wrong, testPassphrase)
}

func assertMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Mode().Perm(); got != want {
		t.Errorf("%s has mode %o, want %o", path, got, want)
	}
}

func TestImportRawKey(t *testing.T) {
	dir := t.TempDir()
	hexKey, want := freshKeyHex(t)
	addr, path, err := ImportRawKey(dir, "0x"+hexKey, testPassphrase)
	if err != nil {
		t.Fatal(err)
	}
	if addr != want {
		t.Fatalf("imported %s, want %s", addr, want)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	assertNoSecret(t, "keystore file", string(b), hexKey, testPassphrase)
	k, err := LoadKeystoreKey(path, testPassphrase)
	if err != nil || k.Address() != want {
		t.Fatalf("load: %v, %v", k, err)
	}

	_, _, err = ImportRawKey(dir, hexKey, "another passphrase")
	if err == nil || !strings.Contains(err.Error(), "already in the keystore") {
		t.Fatalf("second import of the same key: %v", err)
	}
	if entries, _ := ListKeystore(dir); len(entries) != 1 {
		t.Errorf("refused import still wrote a file: %+v", entries)
	}

	bad := hexKey[:63] + "g"
	_, _, err = ImportRawKey(dir, bad, testPassphrase)
	if err == nil {
		t.Fatal("invalid hex accepted")
	}
	assertNoSecret(t, "error", err.Error(), bad, testPassphrase)

	if _, _, err := ImportRawKey(t.TempDir(), hexKey, ""); !errors.Is(err, ErrEmptyPassphrase) {
		t.Errorf("empty passphrase: %v", err)
	}
	if _, _, err := NewKeystoreKey(t.TempDir(), ""); !errors.Is(err, ErrEmptyPassphrase) {
		t.Errorf("empty passphrase: %v", err)
	}
}

func TestListKeystoreSkipsOtherFiles(t *testing.T) {
	dir := t.TempDir()
	a1, p1, err := NewKeystoreKey(dir, testPassphrase)
	if err != nil {
		t.Fatal(err)
	}
	a2, p2, err := NewKeystoreKey(dir, testPassphrase)
	if err != nil {
		t.Fatal(err)
	}
	blob, _ := os.ReadFile(p1)
	for name, content := range map[string]string{
		"README":                  "not json",
		".hidden":                 string(blob),
		"backup~":                 string(blob),
		"noaddress.json":          `{"version":3}`,
		"badaddress.json":         `{"address":"xyz"}`,
		"zz-large-but-bad-anyway": strings.Repeat(" ", maxKeystoreFileSize+1),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "subdir"), 0o700); err != nil {
		t.Fatal(err)
	}
	entries, err := ListKeystore(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []KeystoreEntry{{a1, true, p1}, {a2, true, p2}}
	if p2 < p1 {
		want[0], want[1] = want[1], want[0]
	}
	if fmt.Sprint(entries) != fmt.Sprint(want) {
		t.Fatalf("list = %v, want %v", entries, want)
	}

	if entries, err := ListKeystore(filepath.Join(dir, "missing")); err != nil || len(entries) != 0 {
		t.Errorf("missing dir: %v, %v", entries, err)
	}
	other := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	if _, err := FindKeystore(dir, other); err == nil || !strings.Contains(err.Error(), "no keystore file for") {
		t.Errorf("find unknown address: %v", err)
	}
	// A copy of a file under a second name makes the address ambiguous.
	if err := os.WriteFile(filepath.Join(dir, "copy.json"), blob, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := FindKeystore(dir, a1); err == nil || !strings.Contains(err.Error(), "2 keystore files hold") {
		t.Errorf("find duplicated address: %v", err)
	}
}

func TestLoadKeystoreKeyRefusesAlteredAddress(t *testing.T) {
	dir := t.TempDir()
	addr, path, err := NewKeystoreKey(dir, testPassphrase)
	if err != nil {
		t.Fatal(err)
	}
	blob, _ := os.ReadFile(path)
	lower := strings.ToLower(addr.Hex()[2:])
	forged := strings.Replace(string(blob), lower, strings.Repeat("ab", 20), 1)
	if forged == string(blob) {
		t.Fatal("address field not found in the file")
	}
	if err := os.WriteFile(path, []byte(forged), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadKeystoreKey(path, testPassphrase); err == nil || !strings.Contains(err.Error(), "was altered") {
		t.Fatalf("altered address field: %v", err)
	}

	junk := filepath.Join(dir, "junk.json")
	os.WriteFile(junk, []byte("{"), 0o600)
	if _, err := LoadKeystoreKey(junk, testPassphrase); err == nil || !strings.Contains(err.Error(), "not a valid keystore file") {
		t.Errorf("junk file: %v", err)
	}
	if _, err := LoadKeystoreKey(filepath.Join(dir, "missing"), testPassphrase); err == nil {
		t.Error("missing file accepted")
	}
}

func TestDefaultKeystoreDir(t *testing.T) {
	t.Setenv(KeystoreEnvVar, "/somewhere/keys")
	if d, err := DefaultKeystoreDir(os.Getenv); err != nil || d != "/somewhere/keys" {
		t.Errorf("with %s set: %q, %v", KeystoreEnvVar, d, err)
	}
	// The key meant for $SVCWALLET_PRIVATE_KEY set here by mistake is
	// refused, never repeated: every word of the keystore names its folder.
	// So is a recovery phrase, numbered too, or an extended private key:
	// key list said "No keys in /tmp/legal winner …".
	const key = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
	for _, given := range []string{key, "/tmp/legal winner thank year wave sausage worth useful legal winner thank yellow",
		"/tmp/1.legal 2.winner 3.thank 4.year 5.wave 6.sausage 7.worth 8.useful 9.legal 10.winner 11.thank 12.yellow",
		"/tmp/xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi"} {
		t.Setenv(KeystoreEnvVar, given)
		if d, err := DefaultKeystoreDir(os.Getenv); err == nil || strings.Contains(err.Error(), given[5:14]) {
			t.Errorf("with %.12q… in %s: %q, %v; want it refused without it", given, KeystoreEnvVar, d, err)
		}
	}
	t.Setenv(KeystoreEnvVar, "")
	cfg, err := os.UserConfigDir()
	if err != nil {
		t.Skip("no user config dir here:", err)
	}
	if d, err := DefaultKeystoreDir(os.Getenv); err != nil || d != filepath.Join(cfg, "svcwallet", "keystore") {
		t.Errorf("default: %q, %v", d, err)
	}
}

// TestNoKeystoreFolderIsNoKeystore: without a keystore folder (the
// console's and plain mode's when $SVCWALLET_KEYSTORE holds a key's shape)
// no key is listed nor found, though the folder svcwallet started in holds
// one: its files were offered to sign the login with.
func TestNoKeystoreFolderIsNoKeystore(t *testing.T) {
	dir := t.TempDir()
	addr, _, err := NewKeystoreKey(dir, testPassphrase)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if keys, err := ListKeystore(""); len(keys) != 0 || err != nil {
		t.Errorf("no keystore folder lists %v, %v: the folder started in", keys, err)
	}
	if path, err := FindKeystore("", addr); err == nil || !strings.Contains(err.Error(), "no keystore folder") {
		t.Errorf("no keystore folder finds %q, %v", path, err)
	}
}

// foundryKeystore writes a V3 file as Foundry's `cast wallet import` does:
// geth's format without the clear-text address field.
func foundryKeystore(t *testing.T, dir string) (common.Address, string) {
	t.Helper()
	addr, path, err := NewKeystoreKey(t.TempDir(), testPassphrase)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f map[string]json.RawMessage
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	delete(f, "address")
	b, _ = json.Marshal(f)
	out := filepath.Join(dir, "deployer")
	if err := os.WriteFile(out, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return addr, out
}

func TestFoundryKeystoreWithoutAddress(t *testing.T) {
	dir := t.TempDir()
	want, path := foundryKeystore(t, dir)

	entries, err := ListKeystore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].AddressKnown || entries[0].Name() != "deployer" {
		t.Fatalf("list = %+v, want the file listed by name with its address unknown", entries)
	}
	if a, known, err := KeystoreFileAddress(path); err != nil || known {
		t.Fatalf("KeystoreFileAddress = %v, %v, %v; want unknown, no error", a, known, err)
	}
	k, err := LoadKeystoreKey(path, testPassphrase)
	if err != nil {
		t.Fatal(err)
	}
	if k.Address() != want {
		t.Fatalf("decrypted %s, want %s", k.Address().Hex(), want.Hex())
	}
	if _, err := FindKeystore(dir, want); !errors.Is(err, ErrChooseFile) {
		t.Errorf("find by address among unnamed files: %v", err)
	}
	if _, _, err := KeystoreFileAddress(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing file has no address")
	}
	notV3 := filepath.Join(dir, "other.json")
	if err := os.WriteFile(notV3, []byte(`{"version":1,"crypto":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := KeystoreFileAddress(notV3); err == nil || !strings.Contains(err.Error(), "not a keystore V3 file") {
		t.Errorf("a non-V3 file: %v", err)
	}
}

// defaultScryptN and defaultScryptP are the cost keystore files are written
// with outside tests, read before TestMain lowers it.
var defaultScryptN, defaultScryptP = ScryptN, ScryptP

// TestKeystoreWrittenAtStandardCost: a key is written with ScryptN and
// ScryptP, which are geth's standard cost unless a test lowers them (as
// every test that writes keys does, to be quick).
func TestKeystoreWrittenAtStandardCost(t *testing.T) {
	if defaultScryptN != keystore.StandardScryptN || defaultScryptP != keystore.StandardScryptP {
		t.Errorf("keys are written with scrypt n = %d, p = %d; geth's standard is n = %d, p = %d",
			defaultScryptN, defaultScryptP, keystore.StandardScryptN, keystore.StandardScryptP)
	}
	var n, p any
	craftKeystore(t, func(c map[string]any) {
		params, _ := c["kdfparams"].(map[string]any)
		n, p = params["n"], params["p"]
	})
	if n != float64(ScryptN) || p != float64(ScryptP) {
		t.Errorf("file written with n = %v, p = %v; want n = %d, p = %d", n, p, ScryptN, ScryptP)
	}
}

// TestKeystoreFileLargerThanAnyRefused: a keystore file of more than 64 KiB
// (a sparse one costs no disk) is refused as no keystore before it is read
// whole.
func TestKeystoreFileLargerThanAnyRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.json")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 8<<20); err != nil {
		t.Fatal(err)
	}
	_, _, err := KeystoreFileAddress(path)
	if err == nil || err.Error() != path+" is too large to be a keystore file" {
		t.Fatalf("a keystore file of 8 MiB: %v", err)
	}
}
