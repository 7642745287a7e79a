//go:build e2e

package signer

import "testing"

// The Web3 Secret Storage definition's scrypt test vector and geth's
// version 1 vector, at their published cost (n = 2^18, a second each):
// password, then the key each file holds.
var fullCostKeyFileVectors = []keyFileVector{
	{"scrypt", `{"crypto":{"cipher":"aes-128-ctr","cipherparams":{"iv":"83dbcc02d8ccb40e466191a123791e0e"},` +
		`"ciphertext":"d172bf743a674da9cdad04534d56926ef8358534d458fffccd4e6ad2fbde479c","kdf":"scrypt",` +
		`"kdfparams":{"dklen":32,"n":262144,"r":1,"p":8,"salt":"ab0c7876052600dd703518d6fc3fe8984592145b591fc8fb5c6d43190334ba19"},` +
		`"mac":"2103ac29920d71da29f15d75b4a16dbe95cfd7ff8faea1056c33131d846e3097"},"id":"3198bc9c-6672-5ab3-d995-4942343ae5b6","version":3}`,
		"testpassword", "7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d"},
	{"version 1", `{"Crypto":{"cipher":"aes-128-cbc","cipherparams":{"iv":"35337770fc2117994ecdcad026bccff4"},` +
		`"ciphertext":"6143d3192db8b66eabd693d9c4e414dcfaee52abda451af79ccf474dafb35f1bfc7ea013aa9d2ee35969a1a2e8d752d0","kdf":"scrypt",` +
		`"kdfparams":{"dklen":32,"n":262144,"p":1,"r":8,"salt":"9afcddebca541253a2f4053391c673ff9fe23097cd8555d149d929e4ccf1257f"},` +
		`"mac":"3f3d5af884b17a100b0b3232c0636c230a54dc2ac8d986227219b0dd89197644","version":"1"},` +
		`"address":"cb61d5a9c4896fb9658090b597ef0e7be6f7b67e","id":"e25f7c1f-d318-4f29-b62c-687190d4d299","version":"1"}`,
		"g", "d1b1178d3529626a1a93e073f65028370d14c7eb0936eb42abef05db6f37ad7d"},
}

func TestDecryptKeyFileVectorsAtFullCost(t *testing.T) {
	for _, v := range fullCostKeyFileVectors {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel() // a second of scrypt each, sharing nothing
			checkKeyFileVector(t, v)
		})
	}
}
