package signer

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"strings"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/google/uuid"
)

// keyFileVector is a published keystore file: its password, then the key
// it holds.
type keyFileVector struct{ name, json, password, key string }

// The Web3 Secret Storage definition's PBKDF2 test vector. Its scrypt
// vector and geth's version 1 vector cost a second of scrypt each at
// their published cost, so they run with the e2e tag
// (keyfile_vectors_e2e_test.go); their formats are read here on cheap
// files geth decrypts (TestDecryptCheapFilesAsGeth).
var keyFileVectors = []keyFileVector{
	{"pbkdf2", `{"crypto":{"cipher":"aes-128-ctr","cipherparams":{"iv":"6087dab2f9fdbbfaddc31a909735c1e6"},` +
		`"ciphertext":"5318b4d5bcd28de64ee5559e671353e16f075ecae9f99c7a79a38af5f869aa46","kdf":"pbkdf2",` +
		`"kdfparams":{"c":262144,"dklen":32,"prf":"hmac-sha256","salt":"ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd"},` +
		`"mac":"517ead924a9d0dc3124507e3393d175ce3ff7c1e96529c6c555ce9e51205e9b2"},"id":"3198bc9c-6672-5ab3-d995-4942343ae5b6","version":3}`,
		"testpassword", "7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d"},
}

func TestDecryptKeyFileVectors(t *testing.T) {
	for _, v := range keyFileVectors {
		t.Run(v.name, func(t *testing.T) { checkKeyFileVector(t, v) })
	}
}

// checkKeyFileVector: v decrypts to its key and address, and (PBKDF2's
// alone, cheap to derive twice) refuses a wrong passphrase.
func checkKeyFileVector(t *testing.T, v keyFileVector) {
	k, addr, err := decryptKeyFile([]byte(v.json), v.password)
	if err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(k.Serialize()); got != v.key || addr != addressOf(k.PubKey()) {
		t.Errorf("key %s (address %s), want %s", got, addr.Hex(), v.key)
	}
	// One MAC check serves every format; a wrong passphrase costs the
	// vectors' full scrypt, so only PBKDF2's is tried here and
	// scrypt's on cheap files (TestKeyFileMatchesGeth).
	if v.name != "pbkdf2" {
		return
	}
	if _, _, err := decryptKeyFile([]byte(v.json), v.password+"x"); !errors.Is(err, errDecrypt) {
		t.Errorf("a wrong passphrase gave %v", err)
	}
}

// TestKeyFileMatchesGeth: files written here are geth's, field for field,
// and each side decrypts the other's to the same key.
func TestKeyFileMatchesGeth(t *testing.T) {
	for range 3 {
		gethKey, err := crypto.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		k, err := keyFromBytes(crypto.FromECDSA(gethKey))
		if err != nil {
			t.Fatal(err)
		}
		id := [16]byte(uuid.New())
		ours, err := encryptKeyFile(k, id, testPassphrase, ScryptN, ScryptP)
		if err != nil {
			t.Fatal(err)
		}
		gk, err := keystore.DecryptKey(ours, testPassphrase)
		if err != nil || !gk.PrivateKey.Equal(gethKey) || gk.Id != uuid.UUID(id) {
			t.Fatalf("geth reads our file as %v, %v", gk, err)
		}
		theirs, err := keystore.EncryptKey(&keystore.Key{Id: uuid.UUID(id), Address: crypto.PubkeyToAddress(gethKey.PublicKey), PrivateKey: gethKey},
			testPassphrase, ScryptN, ScryptP)
		if err != nil {
			t.Fatal(err)
		}
		back, addr, err := decryptKeyFile(theirs, testPassphrase)
		if err != nil || !back.Key.Equals(&k.Key) || addr != gk.Address {
			t.Fatalf("geth's file read as %v, %v", addr, err)
		}
		if _, _, err := decryptKeyFile(theirs, "wrong"); !errors.Is(err, errDecrypt) {
			t.Errorf("a wrong passphrase on geth's file: %v", err)
		}
		if a, b := jsonShape(t, ours), jsonShape(t, theirs); !reflect.DeepEqual(a, b) {
			t.Errorf("our file's shape %v, geth's %v", a, b)
		}
		if !strings.Contains(string(ours), `"id":"`+uuid.UUID(id).String()+`"`) {
			t.Errorf("id not written as a UUID: %s", ours)
		}
	}
}

// jsonShape is a document with every string and number replaced by its
// type, keeping the fields and their order of nesting.
func jsonShape(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var shape func(any) any
	shape = func(v any) any {
		if m, ok := v.(map[string]any); ok {
			for k, x := range m {
				m[k] = shape(x)
			}
			return m
		}
		return fmt.Sprintf("%T", v)
	}
	return shape(v)
}

// TestDecryptKeyFileRefusesMalformed: a damaged or foreign file is an
// error, never a panic (geth panics on several of these), and never a key.
func TestDecryptKeyFileRefusesMalformed(t *testing.T) {
	k, _ := secp256k1.GeneratePrivateKey()
	good, err := encryptKeyFile(k, [16]byte(uuid.New()), testPassphrase, ScryptN, ScryptP)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(change func(m map[string]any, c map[string]any, p map[string]any)) []byte {
		var m map[string]any
		_ = json.Unmarshal(good, &m)
		c := m["crypto"].(map[string]any)
		change(m, c, c["kdfparams"].(map[string]any))
		b, _ := json.Marshal(m)
		return b
	}
	for name, b := range map[string][]byte{
		"not JSON":           []byte("{"),
		"version 2":          edit(func(m, _, _ map[string]any) { m["version"] = 2 }),
		"no version":         edit(func(m, _, _ map[string]any) { delete(m, "version") }),
		"version as text 3":  edit(func(m, _, _ map[string]any) { m["version"] = "3" }),
		"bad id":             edit(func(m, _, _ map[string]any) { m["id"] = "not-a-uuid" }),
		"other cipher":       edit(func(_, c, _ map[string]any) { c["cipher"] = "aes-256-gcm" }),
		"no salt":            edit(func(_, _, p map[string]any) { delete(p, "salt") }),
		"no n":               edit(func(_, _, p map[string]any) { delete(p, "n") }),
		"n not a number":     edit(func(_, _, p map[string]any) { p["n"] = "4096" }),
		"dklen 16":           edit(func(_, _, p map[string]any) { p["dklen"] = 16 }),
		"unknown kdf":        edit(func(_, c, _ map[string]any) { c["kdf"] = "argon2" }),
		"short iv":           edit(func(_, c, _ map[string]any) { c["cipherparams"] = map[string]any{"iv": "00"} }),
		"mac not hex":        edit(func(_, c, _ map[string]any) { c["mac"] = "zz" }),
		"ciphertext cut":     edit(func(_, c, _ map[string]any) { c["ciphertext"] = c["ciphertext"].(string)[:62] }),
		"pbkdf2 without prf": edit(func(_, c, p map[string]any) { c["kdf"] = "pbkdf2"; p["c"] = 2 }),
	} {
		if k, _, err := decryptKeyFile(b, testPassphrase); err == nil || k != nil {
			t.Errorf("%s: accepted (%v)", name, err)
		}
	}
}

func TestValidUUID(t *testing.T) {
	for s, want := range map[string]bool{
		"3198bc9c-6672-5ab3-d995-4942343ae5b6":          true,
		"{3198bc9c-6672-5ab3-d995-4942343ae5b6}":        true,
		"urn:uuid:3198bc9c-6672-5ab3-d995-4942343ae5b6": true,
		"3198bc9c66725ab3d9954942343ae5b6":              true,
		"3198bc9c-6672-5ab3-d995-4942343ae5bz":          false,
		"3198bc9c+6672-5ab3-d995-4942343ae5b6":          false,
		"(3198bc9c-6672-5ab3-d995-4942343ae5b6)":        true,
		"urn:uuix:3198bc9c-6672-5ab3-d995-4942343ae5b6": false,
		"3198bc9c66725ab3d9954942343ae5bg":              false,
		"":                                              false,
	} {
		if validUUID(s) != want {
			t.Errorf("validUUID(%q) = %v", s, !want)
		}
		if _, err := uuid.Parse(s); (err == nil) != want {
			t.Errorf("geth's parser disagrees on %q", s)
		}
	}
}

// TestDecryptKeyFileRefusesKeyOutOfRange: a file whose MAC holds but whose
// key is 0 or ≥ N is refused, not read as the key it is congruent to.
func TestDecryptKeyFileRefusesKeyOutOfRange(t *testing.T) {
	k, _ := secp256k1.GeneratePrivateKey()
	good, err := encryptKeyFile(k, [16]byte(uuid.New()), testPassphrase, 16, 1)
	if err != nil {
		t.Fatal(err)
	}
	n := secp256k1.S256().Params().N
	over := new(big.Int).Add(n, big.NewInt(1))
	for name, raw := range map[string][]byte{
		"zero": make([]byte, 32), "N": n.FillBytes(make([]byte, 32)), "N+1": over.FillBytes(make([]byte, 32)),
	} {
		var f keyFileJSON
		if err := json.Unmarshal(good, &f); err != nil {
			t.Fatal(err)
		}
		derived, err := kdfKey(f.Crypto, testPassphrase)
		if err != nil {
			t.Fatal(err)
		}
		iv, _ := hex.DecodeString(f.Crypto.CipherParams.IV)
		ct, err := aesCTR(derived[:16], raw, iv)
		if err != nil {
			t.Fatal(err)
		}
		f.Crypto.CipherText, f.Crypto.MAC = hex.EncodeToString(ct), hex.EncodeToString(keccak256(derived[16:32], ct))
		b, _ := json.Marshal(f)
		if got, _, err := decryptKeyFile(b, testPassphrase); err == nil || got != nil {
			t.Errorf("%s: a key out of range was read (%v)", name, err)
		}
	}
}
