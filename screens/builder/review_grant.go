package builder

import (
	"errors"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/builder"
)

// An API key that may move or administer the account's funds
// (builder.AcceptsGrant) is signed, or prepared for offline signing, only
// after a second yes, as a withdrawal that is mostly fee is: enter asks,
// and a typed y answers.

var grantKeys = struct{ Yes, No key.Binding }{
	Yes: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes, grant it")),
	No:  key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "no")),
}

// grantQuestion is the second question in the service's words
// (builder.Auth.GrantQuestion), which begin with what the key grants; from
// level 3, where the review has one line for it, briefly (the message's
// permissions field above names them; the warning may not).
func (r *builderReviewScreen) grantQuestion(level int) string {
	if level <= 2 {
		return r.grant.Words(r.order.Auth.GrantQuestion())
	}
	return r.grant.Words(r.order.Auth.GrantQuestionBrief())
}

// askingGrant wraps act (signing, or preparing the authorization): a key
// that needs its own yes asks for it first (kit.SecondQuestion).
func (r *builderReviewScreen) askingGrant(act func() tea.Cmd) func() tea.Cmd {
	return r.grant.Asking(&r.gate, func() bool {
		return errors.Is(builder.AcceptsGrant(r.order.Auth, builder.NamedGrant{}), builder.ErrGrantUnanswered)
	}, act)
}

// askedGrant: the second yes is asked for now.
func (r *builderReviewScreen) askedGrant() bool {
	return r.grant.Pending() && !r.gate.Sending && !r.gate.Offline.Preparing
}

// grantBindings answer the question; its yes is the order's
// (builder.Order.Granted), which signing and preparing hold to.
func (r *builderReviewScreen) grantBindings(seen bool) kit.Bindings {
	return r.grant.Bindings(r.askedGrant(), seen, grantKeys.Yes, grantKeys.No, func() { r.order.Granted = true })
}
