package signer

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
)

// promptly runs f and fails the test when it has not returned within a
// bound far above its cost: the work it must refuse (an open that waits
// for a writer, a derivation of gigabytes) would take far longer.
func promptly[T any](t *testing.T, what string, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: still running after 10 s", what)
		panic("unreachable")
	}
}

// craftKeystore writes a keystore file of a fresh key whose crypto section
// is changed by edit, and returns its path.
func craftKeystore(t *testing.T, edit func(crypto map[string]any)) string {
	t.Helper()
	_, path, err := NewKeystoreKey(t.TempDir(), testPassphrase)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f map[string]any
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	edit(f["crypto"].(map[string]any))
	if b, err = json.Marshal(f); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// setParams sets the kdfparams named in kv (a nil value removes one).
func setParams(kv map[string]any) func(map[string]any) {
	return func(c map[string]any) {
		p := c["kdfparams"].(map[string]any)
		for k, v := range kv {
			if v == nil {
				delete(p, k)
			} else {
				p[k] = v
			}
		}
	}
}

// TestKeystoreKDFBounded (issue 25 item 6): a keystore asking for a key
// derivation beyond what wallets write (scrypt n = 2^30, pbkdf2 c = 2^31)
// is refused before any derivation, at once, with the parameters named;
// so is one whose parameters geth would panic on (a key too short for the
// MAC, a missing or mistyped one).
func TestKeystoreKDFBounded(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(map[string]any)
		words string
	}{
		{"scrypt n = 2^30", setParams(map[string]any{"n": 1 << 30}), "n = 1073741824, r = 8, p = 6"},
		{"scrypt n = 2^21", setParams(map[string]any{"n": 1 << 21, "r": 1, "p": 1}), "n = 2097152, r = 1, p = 1"},
		{"scrypt r = 16", setParams(map[string]any{"n": 1 << 10, "r": 16, "p": 1}), "n = 1024, r = 16, p = 1"},
		{"scrypt n·r·p over 2^23", setParams(map[string]any{"n": 1 << 12, "r": 8, "p": 257}), "n = 4096, r = 8, p = 257"},
		{"scrypt n not a number", setParams(map[string]any{"n": "4096"}), `n = "4096"`},
		{"dklen 16", setParams(map[string]any{"dklen": 16}), "a key of 16 bytes, not the 32"},
		{"no dklen", setParams(map[string]any{"dklen": nil}), "a key of (none) bytes"},
		{"salt not a string", setParams(map[string]any{"salt": 7}), "salt is not hex"},
		{"pbkdf2 c = 2^31", func(c map[string]any) {
			c["kdf"] = "pbkdf2"
			c["kdfparams"] = map[string]any{"c": 1 << 31, "dklen": 32, "prf": "hmac-sha256", "salt": "00"}
		}, "c = 2147483648 rounds"},
		{"pbkdf2 without its prf", func(c map[string]any) {
			c["kdf"] = "pbkdf2"
			c["kdfparams"] = map[string]any{"c": 1 << 10, "dklen": 32, "salt": "00"}
		}, "prf is (none), not hmac-sha256"},
		{"another kdf", func(c map[string]any) { c["kdf"] = "argon2\x1b[31m" }, `kdf "argon2" is neither`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := craftKeystore(t, tc.edit)
			err := promptly(t, tc.name, func() error { _, err := LoadKeystoreKey(path, testPassphrase); return err })
			if err == nil || !strings.Contains(err.Error(), "keystore "+path+" is refused: ") || !strings.Contains(err.Error(), tc.words) {
				t.Fatalf("got %v, want the file refused saying %q", err, tc.words)
			}
		})
	}
}

// TestKeystoreKDFWalletsWrite: the parameters wallets write pass the
// bounds (geth's standard and light, Foundry's, web3.py's, the bounds
// themselves), and a pbkdf2 keystore within them decrypts.
func TestKeystoreKDFWalletsWrite(t *testing.T) {
	for _, p := range [][3]int{{1 << 18, 8, 1}, {1 << 12, 8, 6}, {1 << 13, 8, 1}, {1 << 18, 1, 8}, {1 << 20, 8, 1}, {1 << 17, 8, 8}} {
		b, _ := json.Marshal(map[string]any{"crypto": map[string]any{"kdf": "scrypt",
			"kdfparams": map[string]any{"n": p[0], "r": p[1], "p": p[2], "dklen": 32, "salt": "ab"}}})
		if err := checkKDF(b); err != nil {
			t.Errorf("scrypt %v: %v", p, err)
		}
	}
	key, err := secp256k1.GeneratePrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	salt, iv := make([]byte, 32), make([]byte, 16)
	rand.Read(salt)
	rand.Read(iv)
	const rounds = 1 << 12
	derived, err := pbkdf2.Key(sha256.New, testPassphrase, salt, rounds, 32)
	if err != nil {
		t.Fatal(err)
	}
	block, err := aes.NewCipher(derived[:16])
	if err != nil {
		t.Fatal(err)
	}
	ciphertext := make([]byte, 32)
	cipher.NewCTR(block, iv).XORKeyStream(ciphertext, key.Serialize())
	b, _ := json.Marshal(map[string]any{"version": 3, "id": "3198bc9c-6672-5ab3-d995-4942343ae5b6", "crypto": map[string]any{
		"cipher": "aes-128-ctr", "ciphertext": hex.EncodeToString(ciphertext), "cipherparams": map[string]any{"iv": hex.EncodeToString(iv)},
		"kdf": "pbkdf2", "kdfparams": map[string]any{"c": rounds, "dklen": 32, "prf": "hmac-sha256", "salt": hex.EncodeToString(salt)},
		"mac": hex.EncodeToString(keccak256(derived[16:32], ciphertext)),
	}})
	path := filepath.Join(t.TempDir(), "pbkdf2.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	k, err := LoadKeystoreKey(path, testPassphrase)
	if err != nil || k.Address() != addressOf(key.PubKey()) {
		t.Fatalf("a pbkdf2 keystore within the bounds: %v", err)
	}
	b, _ = json.Marshal(map[string]any{"crypto": map[string]any{"kdf": "pbkdf2",
		"kdfparams": map[string]any{"c": 1 << 22, "dklen": 32, "prf": "hmac-sha256", "salt": "ab"}}})
	if err := checkKDF(b); err != nil {
		t.Errorf("pbkdf2 c = 2^22: %v", err)
	}
}
