package screens

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/screens/board"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/screens/status"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// endedSession is a console on a session kept between runs with no
// credential to renew it (the demo's, 3 minutes long), opened on the
// screen first makes, once the service has ended it: its first request
// is refused (exchange.SessionEndedError). prepare runs while logged in.
func endedSession(t *testing.T, prepare func(app *kit.App), first func(app *kit.App) tui.Screen) *screentest.Console {
	t.Helper()
	clock := exchangetest.NewFakeClock(screentest.Now)
	o := screentest.ConsoleOpts{Clock: clock.Now, Sandbox: sandbox.Options{SessionTTL: 3 * time.Minute}}
	o.Start = func(app *kit.App) tui.Screen {
		screentest.LogIn(t, app)
		if prepare != nil {
			prepare(app)
		}
		k, _ := app.Client().Kept()
		app.Client().Adopt(k, nil)
		app.Target.Kept = true
		Console(app)
		clock.Advance(4 * time.Minute)
		return first(app)
	}
	return screentest.NewConsole(t, 120, 40, o)
}

// wantLogin waits for the login, the refusal said.
func wantLogin(t *testing.T, c *screentest.Console, where string) {
	t.Helper()
	c.Until(where+" to open the login", func(v string) bool {
		return strings.Contains(v, "The service refused the session (it ended or was revoked): log in again") &&
			strings.Contains(v, "Log in") && strings.Contains(v, "API key") && !strings.Contains(v, "go to")
	})
}

// TestEndedSessionOpensLoginEverywhere: a session the service ended takes
// the person to the login from every console screen that asks the
// service with it, as Deposit and withdraw's route and quote do: the
// status screen, the watch board, and Home's check of unfinished
// withdrawals (History's refresh runs the same check).
func TestEndedSessionOpensLoginEverywhere(t *testing.T) {
	var id string
	seed := func(app *kit.App) {
		// A quote the service knows: its status is CREATED.
		q, err := app.Client().Quote(context.Background(), exchange.QuoteRequest{ToAddress: sandbox.DestCompleted, Chain: "ARBITRUM",
			TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT, Amount: "10"})
		if err != nil {
			t.Fatal(err)
		}
		id = q.QuoteID
	}
	t.Run("status", func(t *testing.T) {
		c := endedSession(t, seed, func(app *kit.App) tui.Screen { return status.New(app, id) })
		wantLogin(t, c, "status screen")
	})
	t.Run("board", func(t *testing.T) {
		c := endedSession(t, seed, func(app *kit.App) tui.Screen { return board.New(app) })
		timers := screentest.RecordTimers(c.App)
		c.UntilShows("Watch board")
		c.Send(tea.PasteMsg{Content: id})
		c.UntilShowsFiring(timers, "The service refused the session")
		wantLogin(t, c, "board")
	})
	t.Run("home check", func(t *testing.T) {
		c := endedSession(t, func(app *kit.App) { unfinished(t, app) }, func(app *kit.App) tui.Screen { return app.Makers.Home(app) })
		wantLogin(t, c, "Home's check")
	})
}

// unfinished journals a withdrawal of the demo account left without an
// answer, so Home checks it.
func unfinished(t *testing.T, app *kit.App) {
	t.Helper()
	sess, _ := app.Client().Session()
	at := screentest.Now
	e := journal.Entry{Time: at, Kind: journal.KindIntent, Env: app.Target.Env.Name, AccountID: sess.AccountID, QuoteID: "q-unanswered",
		Request: &exchange.WithdrawRequest{QuoteID: "q-unanswered", Signature: exchange.WithdrawSignature{
			Signer: sandbox.DemoAddress, R: "0x" + strings.Repeat("1", 64), S: "0x" + strings.Repeat("2", 64), V: 27,
			Expiration: strconv.FormatInt(at.Add(15*time.Minute).UnixNano(), 10)}},
		Intent: &journal.Intent{ToAddress: sandbox.DestCompleted, Chain: "ARBITRUM", TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT,
			PayAmount: decimal.RequireFromString("25"), ReceiveAmount: decimal.RequireFromString("23.5"), ExpiresAt: at.Add(time.Minute)}}
	if err := app.Journal().Append(e); err != nil {
		t.Fatal(err)
	}
}
