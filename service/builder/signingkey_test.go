package builder_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestSigningKey: a key is at hand when the session holds one, when the
// lookup finds the account's, or, the account unknown, when any key is
// given; otherwise a *NoKeyError names the account and says nothing was
// asked, signed or sent.
func TestSigningKey(t *testing.T) {
	demo := common.HexToAddress(sandbox.DemoAddress)
	other := common.HexToAddress(sandbox.BuilderAddress)
	withDemo := signer.Lookup{DemoKey: sandbox.DemoPrivateKey}
	withRaw := signer.Lookup{Opening: signer.Opening{RawKey: sandbox.DemoPrivateKey}}
	for _, c := range []struct {
		name  string
		keys  builder.Keys
		main  common.Address
		place signer.KeyPlace
		none  bool
	}{
		{"held", builder.Keys{Held: true}, demo, signer.KeyNowhere, false},
		{"demo key of the account", builder.Keys{Lookup: withDemo}, demo, signer.KeyDemo, false},
		{"raw key of the account", builder.Keys{Lookup: withRaw}, demo, signer.KeyInEnv, false},
		{"raw key of another", builder.Keys{Lookup: withRaw}, other, signer.KeyNowhere, true},
		{"nothing", builder.Keys{}, demo, signer.KeyNowhere, true},
		{"account unknown, raw key", builder.Keys{Lookup: withRaw}, common.Address{}, signer.KeyInEnv, false},
		{"account unknown, demo key", builder.Keys{Lookup: withDemo}, common.Address{}, signer.KeyDemo, false},
		{"account unknown, nothing", builder.Keys{}, common.Address{}, signer.KeyNowhere, true},
	} {
		f, err := builder.SigningKey(context.Background(), c.keys, c.main)
		var nk *builder.NoKeyError
		if errors.As(err, &nk) != c.none || f.Place != c.place {
			t.Errorf("%s: found %v, %v", c.name, f.Place, err)
			continue
		}
		if !c.none {
			continue
		}
		words := err.Error()
		if !strings.Contains(words, "nothing was asked, signed or sent") || (c.main != (common.Address{}) && !strings.Contains(words, c.main.Hex())) {
			t.Errorf("%s: %s", c.name, words)
		}
	}
}
