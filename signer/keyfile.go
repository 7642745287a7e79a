package signer

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/ethereum/go-ethereum/common"
	"golang.org/x/crypto/scrypt"
)

// Keystore files are Web3 Secret Storage JSON, read and written here as
// go-ethereum's accounts/keystore does (same fields, same checks), rather
// than linked from it: that package brings in geth's transaction and chain
// configuration tree, which every command paid for at start-up.

// The scrypt cost of geth's standard keystore files: 256 MB, about a second.
const (
	standardScryptN = 1 << 18
	standardScryptP = 1
	scryptR         = 8
	scryptDKLen     = 32
)

// errDecrypt is a MAC that does not match: the wrong passphrase.
var errDecrypt = errors.New("could not decrypt key with given password")

type keyFileJSON struct {
	Address string        `json:"address"`
	Crypto  keyFileCrypto `json:"crypto"`
	ID      string        `json:"id"`
	Version int           `json:"version"`
}

type keyFileCrypto struct {
	Cipher       string `json:"cipher"`
	CipherText   string `json:"ciphertext"`
	CipherParams struct {
		IV string `json:"iv"`
	} `json:"cipherparams"`
	KDF       string         `json:"kdf"`
	KDFParams map[string]any `json:"kdfparams"`
	MAC       string         `json:"mac"`
}

// encryptKeyFile is k as a version 3 keystore file: AES-128-CTR under a
// scrypt key of the passphrase, a Keccak-256 MAC, geth's field order.
func encryptKeyFile(k *secp256k1.PrivateKey, id [16]byte, passphrase string, scryptN, scryptP int) ([]byte, error) {
	salt, iv := make([]byte, 32), make([]byte, aes.BlockSize)
	if _, err := rand.Read(salt); err != nil {
		return nil, err
	}
	if _, err := rand.Read(iv); err != nil {
		return nil, err
	}
	derived, err := scrypt.Key([]byte(passphrase), salt, scryptN, scryptR, scryptP, scryptDKLen)
	if err != nil {
		return nil, err
	}
	cipherText, err := aesCTR(derived[:16], k.Serialize(), iv)
	if err != nil {
		return nil, err
	}
	addr := addressOf(k.PubKey())
	f := keyFileJSON{Address: hex.EncodeToString(addr[:]), ID: uuidString(id), Version: 3}
	f.Crypto = keyFileCrypto{Cipher: "aes-128-ctr", CipherText: hex.EncodeToString(cipherText), KDF: "scrypt",
		KDFParams: map[string]any{"n": scryptN, "r": scryptR, "p": scryptP, "dklen": scryptDKLen, "salt": hex.EncodeToString(salt)},
		MAC:       hex.EncodeToString(keccak256(derived[16:32], cipherText))}
	f.Crypto.CipherParams.IV = hex.EncodeToString(iv)
	return json.Marshal(f)
}

// decryptKeyFile is the key of a keystore file: version 3 (scrypt or
// PBKDF2-SHA256, AES-128-CTR) or geth's version 1 (AES-128-CBC);
// errDecrypt for the wrong passphrase.
func decryptKeyFile(b []byte, passphrase string) (*secp256k1.PrivateKey, common.Address, error) {
	var v struct {
		Version any `json:"version"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, common.Address{}, err
	}
	var f keyFileJSON
	if v.Version == "1" {
		var v1 struct {
			keyFileJSON
			Version string `json:"version"`
		}
		if err := json.Unmarshal(b, &v1); err != nil {
			return nil, common.Address{}, err
		}
		f = v1.keyFileJSON
	} else if err := json.Unmarshal(b, &f); err != nil {
		return nil, common.Address{}, err
	} else if f.Version != 3 {
		return nil, common.Address{}, fmt.Errorf("version not supported: %v", f.Version)
	}
	if !validUUID(f.ID) {
		return nil, common.Address{}, fmt.Errorf("invalid UUID %q", f.ID)
	}
	c := f.Crypto
	if v.Version != "1" && c.Cipher != "aes-128-ctr" {
		return nil, common.Address{}, fmt.Errorf("cipher not supported: %v", c.Cipher)
	}
	mac, err1 := hex.DecodeString(c.MAC)
	iv, err2 := hex.DecodeString(c.CipherParams.IV)
	cipherText, err3 := hex.DecodeString(c.CipherText)
	if err := errors.Join(err1, err2, err3); err != nil {
		return nil, common.Address{}, err
	}
	derived, err := kdfKey(c, passphrase)
	if err != nil {
		return nil, common.Address{}, err
	}
	if !bytes.Equal(keccak256(derived[16:32], cipherText), mac) {
		return nil, common.Address{}, errDecrypt
	}
	var plain []byte
	if v.Version == "1" {
		plain, err = aesCBCDecrypt(keccak256(derived[:16])[:16], cipherText, iv)
	} else {
		plain, err = aesCTR(derived[:16], cipherText, iv)
	}
	if err != nil {
		return nil, common.Address{}, err
	}
	k, err := keyFromBytes(plain)
	if err != nil {
		return nil, common.Address{}, fmt.Errorf("invalid key: %w", err)
	}
	return k, addressOf(k.PubKey()), nil
}

// kdfKey derives the file's 32-byte key from the passphrase with the
// parameters the file records.
func kdfKey(c keyFileCrypto, passphrase string) ([]byte, error) {
	salt, err := hex.DecodeString(kdfString(c.KDFParams, "salt"))
	if err != nil {
		return nil, err
	}
	param := func(name string) (int, error) {
		f, ok := c.KDFParams[name].(float64)
		if !ok || f != float64(int(f)) {
			return 0, fmt.Errorf("kdfparams: %s is not a whole number", name)
		}
		return int(f), nil
	}
	dkLen, err := param("dklen")
	if err != nil {
		return nil, err
	}
	if dkLen < 32 {
		return nil, fmt.Errorf("kdfparams: dklen %d is under 32", dkLen)
	}
	switch c.KDF {
	case "scrypt":
		n, err1 := param("n")
		r, err2 := param("r")
		p, err3 := param("p")
		if err := errors.Join(err1, err2, err3); err != nil {
			return nil, err
		}
		return scrypt.Key([]byte(passphrase), salt, n, r, p, dkLen)
	case "pbkdf2":
		iter, err := param("c")
		if err != nil {
			return nil, err
		}
		if prf := kdfString(c.KDFParams, "prf"); prf != "hmac-sha256" {
			return nil, fmt.Errorf("unsupported PBKDF2 PRF: %s", prf)
		}
		return pbkdf2.Key(sha256.New, passphrase, salt, iter, dkLen)
	}
	return nil, fmt.Errorf("unsupported KDF: %s", c.KDF)
}

func kdfString(params map[string]any, name string) string {
	s, _ := params[name].(string)
	return s
}

func aesCTR(key, in, iv []byte) ([]byte, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	if len(iv) != aes.BlockSize {
		return nil, fmt.Errorf("cipherparams: iv of %d bytes, want %d", len(iv), aes.BlockSize)
	}
	out := make([]byte, len(in))
	cipher.NewCTR(block, iv).XORKeyStream(out, in)
	return out, nil
}

// aesCBCDecrypt is version 1's cipher, PKCS#7 padded.
func aesCBCDecrypt(key, in, iv []byte) ([]byte, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	if len(iv) != aes.BlockSize || len(in) == 0 || len(in)%aes.BlockSize != 0 {
		return nil, errDecrypt
	}
	out := make([]byte, len(in))
	cipher.NewCBCDecrypter(block, iv).CryptBlocks(out, in)
	pad := out[len(out)-1]
	if pad == 0 || pad > aes.BlockSize || !bytes.Equal(out[len(out)-int(pad):], bytes.Repeat([]byte{pad}, int(pad))) {
		return nil, errDecrypt
	}
	return out[:len(out)-int(pad)], nil
}

// uuidString is id as 8-4-4-4-12 hex digits.
func uuidString(id [16]byte) string {
	h := hex.EncodeToString(id[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// validUUID accepts what geth's UUID parser does: 8-4-4-4-12 hex digits,
// bare, as urn:uuid:…, or between any two characters ({…}), or 32 hex
// digits.
func validUUID(s string) bool {
	switch len(s) {
	case 36 + 9:
		if !strings.EqualFold(s[:9], "urn:uuid:") {
			return false
		}
		s = s[9:]
	case 36 + 2:
		s = s[1:37]
	case 32:
		_, err := hex.DecodeString(s)
		return err == nil
	}
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return false
	}
	_, err := hex.DecodeString(s[:8] + s[9:13] + s[14:18] + s[19:23] + s[24:])
	return err == nil
}
