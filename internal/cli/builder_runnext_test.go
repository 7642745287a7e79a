package cli

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/runnext"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestAuthorizeFlagsRoundTrip: the builder authorize line plain mode and
// the console print for a chosen authorization (runnext.Authorize), run as
// printed, signs the same typed data: builder, both fees, the validity
// (days or not), the API key's signer and permissions; and run as plain
// mode says to run it off a terminal (with --yes), it is not refused: a
// key beyond Trade is granted by the --grant it prints
// (builder.AcceptsGrant).
func TestAuthorizeFlagsRoundTrip(t *testing.T) {
	domain := signer.Domain{Name: signer.DefaultDomainName, ChainID: sandbox.DefaultChainID}
	for _, in := range []builder.Input{
		{Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05", Expires: "30d"},
		{Builder: strings.ToLower(sandbox.BuilderAddress), FuturesFee: "0.0001%", SpotFee: "0.1234", Expires: "90m"},
		{Builder: sandbox.BuilderAddress, FuturesFee: "0", SpotFee: "0.05", Expires: "1h30m",
			KeySigner: sandbox.NoChainAddress, Permissions: "trade,admin", Label: "-my 'bot\""},
	} {
		in.Main = sandbox.DemoAddress
		a, err := builder.Check(in)
		if err != nil {
			t.Fatalf("%+v: %v", in, err)
		}
		want := signer.Digest(domain, a.Message(bcliNonce, a.Expiration(bcliNow))).Hex()
		e := newBcliEnv(t)
		args := append(runnext.Authorize(a)[1:], "--dry-run", "--account", common.HexToAddress(sandbox.DemoAddress).Hex(),
			"--config", e.config, "--env", "local")
		if r := bcli(t, nil, "", true, args...); r.code != 0 || !strings.Contains(r.stdout, "Digest: "+want) {
			t.Errorf("%q: exit %d, want digest %s:\n%s%s", args, r.code, want, r.stdout, r.stderr)
		}
		args = append(runnext.Authorize(a)[1:], "--yes", "--config", e.config, "--env", "local")
		if r := bcli(t, demoKeyVars, "", false, args...); r.code != 0 {
			t.Errorf("%q: exit %d:\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
}
