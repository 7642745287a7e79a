package signer

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/hex"
	"errors"
	"fmt"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/crypto"
	"golang.org/x/crypto/scrypt"
)

// cheapKeyFile is a keystore file of key in the shape of a published
// vector (keyfile_vectors_e2e_test.go) at scrypt n = 256: version 3
// (AES-128-CTR) or geth's version 1 (AES-128-CBC, its "Crypto" and string
// versions), with the file's own r and p.
func cheapKeyFile(t *testing.T, key []byte, version string, r, p int) []byte {
	t.Helper()
	salt, iv := bytes.Repeat([]byte{0x5a}, 32), bytes.Repeat([]byte{0xa5}, 16)
	derived, err := scrypt.Key([]byte(testPassphrase), salt, 256, r, p, 32)
	if err != nil {
		t.Fatal(err)
	}
	var cipherText []byte
	if version == "1" {
		block, _ := aes.NewCipher(crypto.Keccak256(derived[:16])[:16])
		pad := aes.BlockSize - len(key)%aes.BlockSize
		cipherText = append(bytes.Clone(key), bytes.Repeat([]byte{byte(pad)}, pad)...)
		cipher.NewCBCEncrypter(block, iv).CryptBlocks(cipherText, cipherText)
	} else {
		block, _ := aes.NewCipher(derived[:16])
		cipherText = make([]byte, len(key))
		cipher.NewCTR(block, iv).XORKeyStream(cipherText, key)
	}
	crypt := fmt.Sprintf(`{"cipher":%q,"cipherparams":{"iv":"%x"},"ciphertext":"%x","kdf":"scrypt",`+
		`"kdfparams":{"dklen":32,"n":256,"r":%d,"p":%d,"salt":"%x"},"mac":"%x"`,
		map[string]string{"1": "aes-128-cbc", "3": "aes-128-ctr"}[version], iv, cipherText, r, p, salt,
		crypto.Keccak256(derived[16:32], cipherText))
	if version == "1" {
		address := crypto.PubkeyToAddress(crypto.ToECDSAUnsafe(key).PublicKey)
		return fmt.Appendf(nil, `{"Crypto":%s,"version":"1"},"address":"%x","id":"e25f7c1f-d318-4f29-b62c-687190d4d299","version":"1"}`, crypt, address)
	}
	return fmt.Appendf(nil, `{"crypto":%s},"id":"3198bc9c-6672-5ab3-d995-4942343ae5b6","version":3}`, crypt)
}

// TestDecryptCheapFilesAsGeth: the published scrypt vector's shape (r = 1,
// p = 8) and geth's version 1 read as geth reads them, on files cheap
// enough for every run; a wrong passphrase is refused.
func TestDecryptCheapFilesAsGeth(t *testing.T) {
	key, _ := hex.DecodeString("7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d")
	for _, f := range []struct {
		name, version string
		r, p          int
	}{{"scrypt", "3", 1, 8}, {"version 1", "1", 8, 1}} {
		t.Run(f.name, func(t *testing.T) {
			file := cheapKeyFile(t, key, f.version, f.r, f.p)
			gk, err := keystore.DecryptKey(file, testPassphrase)
			if err != nil || !bytes.Equal(crypto.FromECDSA(gk.PrivateKey), key) {
				t.Fatalf("geth reads the file as %v, %v: the file is not the format", gk, err)
			}
			k, addr, err := decryptKeyFile(file, testPassphrase)
			if err != nil {
				t.Fatal(err)
			}
			if got := k.Serialize(); !bytes.Equal(got, key) || addr != gk.Address {
				t.Errorf("key %x (address %s), geth's %x (%s)", got, addr.Hex(), key, gk.Address.Hex())
			}
			if _, _, err := decryptKeyFile(file, testPassphrase+"x"); !errors.Is(err, errDecrypt) {
				t.Errorf("a wrong passphrase gave %v", err)
			}
		})
	}
}
