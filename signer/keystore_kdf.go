package signer

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// The cost of deriving a keystore's key is the file's to choose, and the
// MAC that tells a wrong passphrase is checked only after the derivation:
// a file asking scrypt for n = 2^22 takes 4 GB, pbkdf2 with c = 2^31 runs
// for minutes. What wallets write fits under these bounds with headroom:
// scrypt n = 2^18, r = 8, p = 1 (geth, 256 MB, about a second), its light
// n = 2^12, p = 6, n = 2^13 (Foundry), n = 2^18, r = 1, p = 8 (web3.py);
// pbkdf2 c = 2^18; a 32-byte key. Memory grows with n·r, time with n·r·p,
// so p is bounded through the product: at most 1 GB and about 4 s.
const (
	maxScryptN    = 1 << 20
	maxScryptR    = 8
	maxScryptWork = 1 << 23 // n·r·p
	maxPBKDF2C    = 1 << 22
	keystoreDKLen = 32 // the AES-128 key and the MAC key, 16 bytes each
)

// checkKDF refuses a keystore whose key derivation costs more than the
// bounds, or whose parameters are not what decryptKeyFile reads (a missing
// or mistyped one, a derived key of another length), naming them. It reads
// the crypto section through encoding/json, as decryptKeyFile does, so both
// see the same values.
func checkKDF(b []byte) error {
	var f struct {
		Crypto struct {
			KDF       string         `json:"kdf"`
			KDFParams map[string]any `json:"kdfparams"`
		} `json:"crypto"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	kdf, params := f.Crypto.KDF, f.Crypto.KDFParams
	switch kdf {
	case "scrypt":
		n, nok := param(params, "n")
		r, rok := param(params, "r")
		p, pok := param(params, "p")
		if !nok || !rok || !pok || n < 2 || n > maxScryptN || r < 1 || r > maxScryptR || p < 1 || p > maxScryptWork/(n*r) {
			return fmt.Errorf("it asks scrypt for n = %s, r = %s, p = %s, beyond what wallets write (n at most 2^20 = %d, r at most %d, n·r·p at most 2^23 = %d): "+
				"deriving its key could take gigabytes and minutes", shown(params, "n"), shown(params, "r"), shown(params, "p"), maxScryptN, maxScryptR, maxScryptWork)
		}
	case "pbkdf2":
		if c, ok := param(params, "c"); !ok || c < 1 || c > maxPBKDF2C {
			return fmt.Errorf("it asks pbkdf2 for c = %s rounds, beyond what wallets write (at most 2^22 = %d): deriving its key could take minutes", shown(params, "c"), maxPBKDF2C)
		}
		if prf, _ := params["prf"].(string); prf != "hmac-sha256" {
			return fmt.Errorf("its pbkdf2 prf is %s, not hmac-sha256", shown(params, "prf"))
		}
	default:
		return fmt.Errorf("its kdf %q is neither scrypt nor pbkdf2", safetext.Line(kdf, 40))
	}
	if dklen, ok := param(params, "dklen"); !ok || dklen != keystoreDKLen {
		return fmt.Errorf("it asks %s for a key of %s bytes, not the %d of every keystore", kdf, shown(params, "dklen"), keystoreDKLen)
	}
	if salt, ok := params["salt"].(string); !ok || !isHex(salt) {
		return fmt.Errorf("its %s salt is not hex", kdf)
	}
	return nil
}

// param is the whole number params[name] holds (encoding/json reads a
// number as a float64), false when it holds anything else.
func param(params map[string]any, name string) (int64, bool) {
	v, ok := params[name].(float64)
	if !ok || v != math.Trunc(v) || math.Abs(v) > 1<<53 {
		return 0, false
	}
	return int64(v), true
}

// shown is params[name] as a message may say it: a whole number in full,
// anything else cleaned and cut short (the file is not trusted).
func shown(params map[string]any, name string) string {
	if v, ok := param(params, name); ok {
		return strconv.FormatInt(v, 10)
	}
	if v, ok := params[name]; ok {
		b, _ := json.Marshal(v)
		return safetext.Line(string(b), 40)
	}
	return "(none)"
}

func isHex(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil
}
