package withdraw

import (
	"os"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestMain lets this test binary stand in for a signing command
// (exchangetest.FakeSignCommand).
func TestMain(m *testing.M) {
	os.Exit(exchangetest.RunTests(m))
}

// TestReviewCommandSecretArgWarned: logged in by API key, the review
// signing with the environment's signing command, which gives its program
// a password as an argument, warns of it as the command runs, naming the
// program and the option, never the value.
func TestReviewCommandSecretArgWarned(t *testing.T) {
	clock := exchangetest.NewFakeClock(screentest.Now)
	c := screentest.NewLoggedInConsole(t, 120, 40, screentest.ConsoleOpts{Clock: clock.Now})
	e := &c.App.Target.Env
	e.Signer, e.Account, e.SignCommand = "command", exchangetest.KeyAddress(exchangetest.DemoKeyHex).Hex(), exchangetest.FakeSignCommand("hang", "{file}", "--password", "pw-not-shown")
	w, q := sandboxQuote(t, c.App)
	c.Open(newReview(c.App, w, withdrawal.PricedQuote{Quote: q}))
	c.UntilShows("the environment's signer", "pinned")
	clock.Advance(kit.ShownGuard)
	c.UntilShows("Press enter to sign and withdraw")
	c.Press("enter")
	c.UntilSays("Warning: the signing command, which runs " + safetext.Shown(os.Args[0]) + ", gives --password on a command line")
	if strings.Contains(c.Plain(), "pw-not-shown") {
		t.Errorf("the password is shown:\n%s", c.Plain())
	}
	c.UntilShows("esc cancels")
	c.Press("esc")
	c.UntilShows("Not withdrawn", "nothing was sent")
}
