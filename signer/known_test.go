package signer

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// TestKnownIsTheKeysOwnAddress: Known says the address a source signs
// with, the key's own before the account named: an account named beside
// $SVCWALLET_PRIVATE_KEY holding another wallet's key was said to be the
// key's, so a kept wallet session of that account served a command given
// the other wallet's key. A source that cannot tell unopened is known by
// its account alone, and unknown without one.
func TestKnownIsTheKeysOwnAddress(t *testing.T) {
	const raw = "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356"
	own := common.HexToAddress("0x14dC79964da2C08b23698B3D3cc7Ca32193d9955")
	named := common.HexToAddress("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
	for _, c := range []struct {
		name    string
		o       Opening
		s       Source
		want    common.Address
		wantKey bool
	}{
		{"env key", Opening{RawKey: raw}, Source{Kind: SourceEnv}, own, true},
		{"env key beside another account", Opening{RawKey: raw, Account: named}, Source{Kind: SourceEnv}, own, true},
		{"env without a key", Opening{Account: named}, Source{Kind: SourceEnv}, common.Address{}, false},
		{"keystore:ADDRESS beside another account", Opening{Account: named}, Source{Kind: SourceKeystore, Address: own}, own, true},
		{"clef with an account", Opening{Account: named}, Source{Kind: SourceClef, Endpoint: "http://127.0.0.1:8550"}, named, true},
		{"clef without one", Opening{}, Source{Kind: SourceClef, Endpoint: "http://127.0.0.1:8550"}, common.Address{}, false},
	} {
		got, known := c.o.Known(c.s)
		if got != c.want || known != c.wantKey {
			t.Errorf("%s: %s %v, want %s %v", c.name, got.Hex(), known, c.want.Hex(), c.wantKey)
		}
	}
}
