package withdraw

import (
	"testing"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// TestExecuteSessionEndedOpensLogin: an execute refused for a session
// that ended (or never sent for want of one) takes the person to the
// login, as route and quote do; one whose answer was lost before the
// session ended goes there too, saying the withdrawal is saved and where
// to take it up (nothing can be asked without a session), never pushing a
// resume that cannot ask, never losing the journal's record.
func TestExecuteSessionEndedOpensLogin(t *testing.T) {
	ended := screentest.SessionEnded()
	for _, c := range []struct {
		name string
		sent withdrawal.Sent
		says string
	}{
		{"refused", withdrawal.Sent{Err: ended}, "The service refused the session"},
		{"lost", withdrawal.Sent{Err: &exchange.OutcomeUnknownError{Err: ended}, Lost: &journal.Record{QuoteID: "q-lost"}}, "the withdrawal is saved; log in again, then take it up from History"},
	} {
		t.Run(c.name, func(t *testing.T) {
			app, now := screentest.LoggedInApp(t)
			r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 40, signer.Found{Place: signer.KeyDemo})
			_, cmd := r.Update(executedMsg{c.sent})
			login, said := screentest.ToLogin(t, cmd, c.says)
			if !login || !said {
				t.Errorf("to the login %v, said %q %v", login, c.says, said)
			}
		})
	}
}
