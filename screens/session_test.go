package screens

import (
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// TestTopBarFollowsSilentRelogin: the top bar reads the one session
// when it draws. With a 3-minute sandbox session, a request after expiry
// logs in again silently; the bar then shows the new session's time, not
// "session expired".
func TestTopBarFollowsSilentRelogin(t *testing.T) {
	clock := exchangetest.NewFakeClock(screentest.Now)
	c := newConsole(t, 120, 40, screentest.ConsoleOpts{Clock: clock.Now, Sandbox: sandbox.Options{SessionTTL: 3 * time.Minute}})
	c.LoginAPIKey(sandbox.DemoAPIKey)
	bar := func(v string) string { b, _, _ := strings.Cut(v, "\n"); return b }
	if b := bar(c.Plain()); !strings.Contains(b, "session 3m") {
		t.Fatalf("top bar after login: %q", b)
	}
	clock.Advance(4 * time.Minute)
	c.Until("the expired session in the top bar", func(v string) bool { return strings.Contains(bar(v), "session expired") })
	c.OpenDeposit() // its request meets the expired session and logs in again
	c.Until("the new session's time in the top bar", func(v string) bool { return strings.Contains(bar(v), "session 3m") })
}

// TestRefusedKeptSessionOpensLogin: a session kept between runs, with no
// credential to renew it, that the service refuses takes the person from
// Deposit to the login, saying once why, instead of repeating the refusal
// on every r.
func TestRefusedKeptSessionOpensLogin(t *testing.T) {
	clock := exchangetest.NewFakeClock(screentest.Now)
	o := screentest.ConsoleOpts{Clock: clock.Now, Sandbox: sandbox.Options{SessionTTL: 3 * time.Minute}}
	o.Start = func(app *kit.App) tui.Screen {
		screentest.LogIn(t, app)
		k, _ := app.Client().Kept()
		app.Client().Adopt(k, nil) // kept in the file: no API key to renew it
		app.Target.Kept = true
		return Console(app)
	}
	c := screentest.NewConsole(t, 120, 40, o)
	c.UntilShows("Deposit")
	clock.Advance(4 * time.Minute)
	c.Press("d")
	c.UntilShows("The service refused the session (it ended or was revoked): log in again", "API key")
	if v := c.Plain(); strings.Contains(v, "service: ") || !strings.Contains(v, "Log in") {
		t.Fatalf("not at the login, or the refusal said twice:\n%s", v)
	}
}
