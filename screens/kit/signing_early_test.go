package kit_test

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestLookForSigningKeyIsTheBuildersRule: Home's and the route list's
// look for the key (kit.LookForSigningKey) finds one wherever a builder
// authorization's check does (builder.SigningKey), and none where it
// finds none, said in the same words: a wallet login, the account's raw
// key, another account's, nothing, a signing command that cannot start.
func TestLookForSigningKeyIsTheBuildersRule(t *testing.T) {
	for _, c := range []struct {
		name, raw, setting string
		wallet, none       bool
	}{
		{"nothing", "", "", false, true},
		{"the account's raw key", sandbox.DemoPrivateKey, "", false, false},
		{"another account's raw key", sandbox.BuilderPrivateKey, "", false, true},
		{"a wallet login", "", "", true, false},
		{"a signing command that cannot start", "", "command", false, true},
	} {
		r := screentest.NewStatusRig(t)
		r.App.Getenv = func(k string) string {
			if k == signer.KeyEnvVar {
				return c.raw
			}
			return ""
		}
		r.App.Target.Env.Signer = c.setting
		if c.wallet {
			key, err := signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey)
			if err != nil {
				t.Fatal(err)
			}
			r.App.Signer = key
		}
		msgs := screentest.RunCmdSync(t, kit.LookForSigningKey(r.App))
		if len(msgs) != 1 {
			t.Fatalf("%s: looked and found %v", c.name, msgs)
		}
		m := msgs[0].(kit.SigningKeyMsg)
		s, _ := r.App.Client().Session()
		keys := builder.Keys{Held: r.App.Signer != nil, Lookup: r.App.KeyLookup()}
		_, err := builder.SigningKey(context.Background(), keys, common.HexToAddress(s.FundingAccountAddress))
		if (m.NoKey != nil) != c.none || (err != nil) != c.none {
			t.Errorf("%s: Home finds no key %v, the builder's check %v; want %v", c.name, m.NoKey, err, c.none)
			continue
		}
		if !c.none {
			continue
		}
		words, _, _ := strings.Cut(err.Error(), ", so ")
		if v := ansi.Strip(kit.MissingKeyView(r.App, m, 1000)); !strings.Contains(v, safetext.Capitalized(words)+", so no withdrawal") {
			t.Errorf("%s: Home says it in other words than %q:\n%s", c.name, words, v)
		}
	}
}
