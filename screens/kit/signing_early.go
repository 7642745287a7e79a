package kit

import (
	tea "charm.land/bubbletea/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/signer"
)

// Whether anything here can sign for the account is known before a
// withdrawal is walked to its review (issue 28 item 11): Home and the
// withdrawal's first screen look, as the review does (App.KeyLookup), and
// say when nothing can, naming the ways.

// SigningKeyMsg is what a look for the session's signing key found:
// Missing, no key here signs for Account.
type SigningKeyMsg struct {
	Missing bool
	Account common.Address
	Err     error // why the environment's own signer cannot sign
}

// LookForSigningKey looks in a Cmd for the key that signs for the
// session's funding account, where a review would (the session holds none
// after an API-key login); nil when the session holds one. Call it in
// Init or Update: it reads the session now.
func LookForSigningKey(app *App) tea.Cmd {
	s, _ := app.Client().Session()
	if app.Signer != nil || !common.IsHexAddress(s.FundingAccountAddress) {
		return nil
	}
	want, lookup, ctx := common.HexToAddress(s.FundingAccountAddress), app.KeyLookup(), app.Root()
	return func() tea.Msg {
		f := lookup.Find(ctx, want)
		return SigningKeyMsg{Missing: f.Place == signer.KeyNowhere, Account: want, Err: f.Err}
	}
}

// MissingKeyView is a warning of wd columns when m found no key, naming
// the ways to get one; "" otherwise.
func MissingKeyView(app *App, m SigningKeyMsg, wd int) string {
	if !m.Missing {
		return ""
	}
	why := ""
	if m.Err != nil {
		why = " (the environment's signer: " + m.Err.Error() + ")"
	}
	ways := "a keystore file (" + app.Command("key", "import") + "), clef or a signing command (signer in the config), or $" + signer.KeyEnvVar
	if app.OfflineReady() {
		ways += "; or o on the review, to sign it on another device"
	}
	text := "No key here signs for " + m.Account.Hex() + why + ", so no withdrawal or builder authorization can be signed. Ways: " + ways + "."
	return app.Common.Styles.Warning.Render(layout.WrapTo(text, wd)) + "\n"
}
