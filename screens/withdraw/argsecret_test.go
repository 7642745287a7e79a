package withdraw

import (
	"os"
	"path/filepath"
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
	c, clock := commandSecretReview(t, 120, 40)
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
	c.UntilShows("Not signed:", "nothing was sent")
}

// TestCommandSecretWarningFits: at 60x20 and 80x24 the warning of a secret
// in the signing command's arguments is drawn whole, its pointer to
// docs/keys.md last, in fewer words where the full ones take more than a
// toast's lines, and the review keeps its figures (pay, receive, fee,
// loss) while the command runs: the warning was cut before its pointer,
// and the review fell to its shortest layout, which leaves them out.
func TestCommandSecretWarningFits(t *testing.T) {
	for _, size := range [][2]int{{60, 20}, {80, 24}} {
		c, clock := commandSecretReview(t, size[0], size[1])
		c.UntilShows("pinned", "Signing key      the signing command")
		clock.Advance(kit.ShownGuard)
		untilEnterOffered(c)
		c.Press("enter")
		c.UntilShows("Waiting for", "docs/keys.md")
		frame := c.Plain()
		flat := strings.Join(strings.Fields(frame), " ")
		// The warning is the last lines but the footer.
		warning := strings.Join(strings.Fields(frame[strings.Index(frame, "Warning:"):strings.LastIndex(strings.TrimRight(frame, "\n "), "\n")]), " ")
		if strings.Contains(frame, "pw-not-shown") {
			t.Errorf("%dx%d: the password is shown:\n%s", size[0], size[1], frame)
		}
		for _, want := range []string{"You pay 25 USDT", "You receive 23.5 USDT", "1.5 USDT", "You lose", "--password"} {
			if !strings.Contains(flat, want) {
				t.Errorf("%dx%d: %q is not on screen:\n%s", size[0], size[1], want, frame)
			}
		}
		if !strings.HasSuffix(warning, `docs/keys.md says how to keep it out ("A key kept out of the process list")`) && !strings.HasSuffix(warning, "see docs/keys.md") {
			t.Errorf("%dx%d: the warning's pointer is cut:\n%s", size[0], size[1], frame)
		}
		c.Press("esc")
		c.Until("the wait cancelled", func(v string) bool { return !strings.Contains(v, "Waiting for") })
	}
}

// TestCancelledWaitFitsAt60x20: at 60x20 a review whose signing command's
// wait was cancelled says so under the whole review, the signing key on
// one line (the environment's row says whose), so enter may sign again:
// it needed a row more than the screen had and said it was too small to
// review. A program with a long name is cut with an ellipsis on the key's
// line, never the words saying nothing was sent: it needed a row more.
func TestCancelledWaitFitsAt60x20(t *testing.T) {
	for _, name := range []string{"cast", "hardware-wallet-signing-bridge-for-svcwallet"} {
		t.Run(name, func(t *testing.T) {
			clock := exchangetest.NewFakeClock(screentest.Now)
			c := screentest.NewLoggedInConsole(t, 60, 20, screentest.ConsoleOpts{Clock: clock.Now})
			program := filepath.Join(t.TempDir(), name)
			if err := os.Symlink(os.Args[0], program); err != nil {
				t.Fatal(err)
			}
			e := &c.App.Target.Env
			e.Signer, e.Account = "command", exchangetest.KeyAddress(exchangetest.DemoKeyHex).Hex()
			e.SignCommand = strings.Replace(exchangetest.FakeSignCommand("hang", "{file}"), os.Args[0], program, 1)
			w, q := sandboxQuote(t, c.App)
			c.Open(newReview(c.App, w, withdrawal.PricedQuote{Quote: q}))
			c.UntilShows("pinned", "the signing command")
			clock.Advance(kit.ShownGuard)
			untilEnterOffered(c)
			c.Press("enter")
			c.UntilShows("Waiting for")
			c.Press("esc")
			c.UntilShows("Not signed:", "cancelled")
			for _, want := range []string{"You pay", "You lose", "numTokens", "expires in", "nothing was sent"} {
				if !strings.Contains(screentest.OneLine(c.Plain()), want) {
					t.Errorf("%q is not on screen:\n%s", want, c.Plain())
				}
			}
		})
	}
}

// commandSecretReview opens, on a w x h console logged in by API key, the
// review of a sandbox quote signing with a signing command that gives its
// program a password as an argument (and hangs), on a fake clock.
func commandSecretReview(t *testing.T, w, h int) (*screentest.Console, *exchangetest.FakeClock) {
	t.Helper()
	clock := exchangetest.NewFakeClock(screentest.Now)
	c := screentest.NewLoggedInConsole(t, w, h, screentest.ConsoleOpts{Clock: clock.Now})
	e := &c.App.Target.Env
	e.Signer, e.Account, e.SignCommand = "command", exchangetest.KeyAddress(exchangetest.DemoKeyHex).Hex(), exchangetest.FakeSignCommand("hang", "{file}", "--password", "pw-not-shown")
	wd, q := sandboxQuote(t, c.App)
	c.Open(newReview(c.App, wd, withdrawal.PricedQuote{Quote: q}))
	return c, clock
}
