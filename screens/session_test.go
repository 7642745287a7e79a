package screens

import (
	"strings"
	"testing"
	"time"

	"svcwallet/service/sandbox"
)

// TestStatusBarFollowsSilentRelogin: the status bar reads the one session
// when it draws. With a 3-minute sandbox session, a request after expiry
// logs in again silently; the bar then shows the new session's time, not
// "session expired".
func TestStatusBarFollowsSilentRelogin(t *testing.T) {
	clock := &bldClock{t: testNow}
	c := newConsole(t, 120, 40, consoleOpts{clock: clock.Now, sandbox: sandbox.Options{SessionTTL: 3 * time.Minute}})
	c.loginAPIKey(sandbox.DemoAPIKey)
	bar := func(v string) string { b, _, _ := strings.Cut(v, "\n"); return b }
	if b := bar(c.plain()); !strings.Contains(b, "session 3m") {
		t.Fatalf("status bar after login: %q", b)
	}
	clock.Advance(4 * time.Minute)
	c.until("the expired session in the status bar", func(v string) bool { return strings.Contains(bar(v), "session expired") })
	c.openDeposit() // its request meets the expired session and logs in again
	c.until("the new session's time in the status bar", func(v string) bool { return strings.Contains(bar(v), "session 3m") })
}
