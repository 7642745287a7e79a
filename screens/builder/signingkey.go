package builder

import (
	"errors"

	tea "charm.land/bubbletea/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/builder"
)

// builderKeyMsg answers the look for the key that signs (builder.SigningKey).
type builderKeyMsg struct{ err error }

// lookForKey asks, in a Cmd (it reads the disk), whether a key here signs
// for the account: the form takes no key until it is known, and none
// when nothing signs it, here or on another device.
func (b *builderScreen) lookForKey() tea.Cmd {
	if !common.IsHexAddress(b.main) {
		b.keyKnown = true // no account: the review says so
		return nil
	}
	keys := builder.Keys{Held: b.app.Signer != nil, Lookup: b.app.KeyLookup()}
	main, ctx := common.HexToAddress(b.main), b.app.Root()
	return func() tea.Msg {
		_, err := builder.SigningKey(ctx, keys, main)
		return builderKeyMsg{err: err}
	}
}

// inert: the form takes no key, the key that signs not yet known, or no
// key signing it here nor a review able to prepare it for another device.
func (b *builderScreen) inert() bool {
	return !b.keyKnown || b.noKey != nil && !b.app.OfflineReady()
}

// keyView is what the form says of its key before it: looking, or the
// service's words that none signs with the console's one set of ways to
// bring one (kit.App.KeyWays); "" once a key signs.
func (b *builderScreen) keyView() string {
	st := b.app.Common.Styles
	switch {
	case !b.keyKnown:
		return st.Muted.Render(layout.WrapTo("Looking for the key that signs for "+b.main+"…", max(b.wd, 1))) + "\n"
	case b.noKey == nil:
		return ""
	}
	text := safetext.Capitalized(b.noKey.Error()) + "."
	if nk, ok := errors.AsType[*builder.NoKeyError](b.noKey); ok {
		text += " " + b.app.KeyWays(&nk.NoKeyError) + "."
	}
	if b.app.OfflineReady() {
		// The form is filled in: a line, so its fields keep their rows at 60x20
		// (Home names the ways).
		text = "No key here signs for this account: fill it in, and its review prepares it for signing on another device."
	}
	return st.Warning.Render(layout.WrapTo(text, max(b.wd, 1))) + "\n"
}
