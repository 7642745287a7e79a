package kit

import (
	"errors"

	tea "charm.land/bubbletea/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// Whether anything here can sign for the account is known before a
// withdrawal is walked to its review (issue 28 item 11): Home and the
// withdrawal's first screen look, as the review does (App.KeyLookup), and
// say when nothing can, naming the ways.

// SigningKeyMsg is what a look for the session's signing key found.
type SigningKeyMsg struct {
	// NoKey: no key here signs for the account; nil when one does.
	NoKey *signer.NoKeyError
}

// LookForSigningKey looks in a Cmd (it reads the disk, and may open the
// environment's signer) for the key that signs for the session's funding
// account, by the one rule plain mode asks too (withdrawal.SigningKey):
// the session's wallet, else where a review looks. Call it in Init or
// Update: it reads the session now.
func LookForSigningKey(app *App) tea.Cmd {
	s, _ := app.Client().Session()
	if !common.IsHexAddress(s.FundingAccountAddress) {
		return nil
	}
	held, want, lookup, ctx := app.Signer != nil, common.HexToAddress(s.FundingAccountAddress), app.KeyLookup(), app.Root()
	return func() tea.Msg {
		if nk, ok := errors.AsType[*withdrawal.NoKeyError](withdrawal.SigningKey(ctx, held, lookup, want)); ok {
			return SigningKeyMsg{NoKey: &nk.NoKeyError}
		}
		return SigningKeyMsg{}
	}
}

// MissingKeyView is a warning of wd columns when m found no key, in the
// words every face says it (signer.NoKeyError), then the console's one set
// of ways to get one (App.KeyWays); "" otherwise.
func MissingKeyView(app *App, m SigningKeyMsg, wd int) string {
	if m.NoKey == nil {
		return ""
	}
	text := safetext.Capitalized(m.NoKey.Error()) + ", so no withdrawal or builder authorization can be signed. " + app.KeyWays(m.NoKey) + "."
	if app.OfflineReady() {
		// A sentence of its own: after the ways' "with signer out of the
		// config, …" a clause would read as needing that too.
		text += " Or press o on the review to sign it on another device."
	}
	return app.Common.Styles.Warning.Render(layout.WrapTo(text, wd)) + "\n"
}
