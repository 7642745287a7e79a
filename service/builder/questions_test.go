package builder_test

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/signer"
)

// TestSignQuestionStandsAlone: the question that signs an authorization
// names the builder, its fee caps, the API key it gets and the
// environment when it is not production: read alone, it says what its yes
// does. The grant's question names what the key may do.
func TestSignQuestionStandsAlone(t *testing.T) {
	a := builder.Auth{Builder: common.HexToAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"), Futures: 1000, Spot: 500}
	const head = "Sign and authorize builder 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC to charge fees up to 0.1% on futures and 0.05% on spot"
	prod, sandbox := config.Environment{Name: "production", ChainID: config.ProductionChainID}, config.Environment{Name: config.SandboxEnv}
	if got, want := a.SignQuestion(prod), head+"?"; got != want {
		t.Errorf("in production the question says %q, want %q", got, want)
	}
	keyed := a
	keyed.WithKey, keyed.Perms = true, signer.Permissions(0).With(signer.PermTrade).With(signer.PermWithdraw)
	if got, want := keyed.SignQuestion(sandbox), head+", with an API key for Withdraw and Trade, in environment sandbox?"; got != want {
		t.Errorf("with a key, on the sandbox, the question says %q, want %q", got, want)
	}
	if got, want := keyed.GrantQuestion(), "The builder's API key gets Withdraw: the builder may move or administer your account's funds. Grant it all the same?"; got != want {
		t.Errorf("the grant's question says %q, want %q", got, want)
	}
	if got, want := keyed.GrantQuestionBrief(), "The key may move your funds. Grant it all the same?"; got != want {
		t.Errorf("the grant's brief question says %q, want %q", got, want)
	}
}
