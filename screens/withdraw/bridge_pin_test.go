package withdraw

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/target"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// attackerBridge is the address a hostile proxy swaps into withdrawal-info.
const attackerBridge = "0x5FbDB2315678afecb367f032d93F642f64180aa3"

// hostileSandbox wraps the sandbox with a proxy that can swap the bridge
// funding address and skew /time, and reads the journal the moment a
// withdraw request arrives.
type hostileSandbox struct {
	mu         sync.Mutex
	bridge     string        // "" leaves withdrawal-info alone
	skew       time.Duration // added to the server's /time
	journal    string        // the journal's path
	atWithdraw []byte        // the journal's contents when the withdraw arrived
	withdraws  int
	// conflict, when its Body is set, is the answer a withdraw gets once
	// the sandbox executed it.
	conflict exchangetest.Conflict
}

func (h *hostileSandbox) set(bridge string, skew time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.bridge, h.skew = bridge, skew
}

func (h *hostileSandbox) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		h.mu.Lock()
		bridge, skew, conflict := h.bridge, h.skew, h.conflict
		if req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, exchange.PathWithdraw) {
			h.withdraws++
			h.atWithdraw, _ = os.ReadFile(h.journal)
		}
		h.mu.Unlock()
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, req)
		body := rec.Body.Bytes()
		switch {
		case strings.HasSuffix(req.URL.Path, exchange.PathWithdraw) && conflict.Body != "":
			rec.Code, body = conflict.Status, []byte(conflict.Body)
		case req.URL.Path == exchange.PathTime && skew != 0:
			var st exchange.ServerTime
			if json.Unmarshal(body, &st) == nil {
				body, _ = json.Marshal(exchange.ServerTime{ServerTime: st.ServerTime + skew.Milliseconds()})
			}
		case strings.HasSuffix(req.URL.Path, exchange.PathWithdrawalInfo) && bridge != "":
			body = bytes.ReplaceAll(body, []byte(sandbox.BridgeFundingAddress), []byte(bridge))
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		w.Write(body)
	})
}

// hostileApp is a logged-in console app on a hostile sandbox; pinned says
// whether the environment pins the bridge (the built-in sandbox does).
func hostileApp(t testing.TB, pinned bool) (*kit.App, *hostileSandbox, *time.Time) {
	t.Helper()
	now := screentest.Now
	clock := func() time.Time { return now }
	h := &hostileSandbox{}
	srv := httptest.NewServer(h.wrap(sandbox.New(sandbox.Options{Now: clock})))
	t.Cleanup(srv.Close)
	env := config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID)
	if !pinned {
		env.BridgeFundingAddress = ""
	}
	sb := target.Target{Env: env, Client: exchange.New(env, exchange.Options{Now: clock}),
		Demo: &target.Demo{APIKey: sandbox.DemoAPIKey, PrivateKey: sandbox.DemoPrivateKey}}
	app := &kit.App{Deps: kit.Deps{Common: tui.NewCommon(true, clock), Targets: []target.Target{sb}, KeystoreDir: t.TempDir(), Getenv: func(string) string { return "" },
		Makers: kit.Makers{Home: screentest.NewHome}}, Session: kit.Session{Target: sb}}
	h.journal = filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(h.journal)
	if err != nil {
		t.Fatal(err)
	}
	app.Target.Journal = j
	screentest.LogIn(t, app)
	return app, h, &now
}

// hostileReview is a review of a real sandbox quote, the key found, the
// bridge checked and the keystroke guard passed.
func hostileReview(t *testing.T, app *kit.App, now *time.Time) *reviewScreen {
	t.Helper()
	w, q := sandboxQuote(t, app)
	r := newReview(app, w, withdrawal.PricedQuote{Quote: q, Offset: 0})
	r.SetSize(120, 40)
	r.Init()
	r.Update(keyFound(r, signer.Found{Place: signer.KeyDemo}))
	r.Update(r.checkBridge()())
	*now = now.Add(kit.ShownGuard)
	return r
}

// signAndSend presses enter and runs the signing command (not the spinner).
func signAndSend(t *testing.T, r *reviewScreen) executedMsg {
	t.Helper()
	_, cmd := screentest.Press(r, "enter")
	if cmd == nil {
		t.Fatalf("enter did not sign:\n%s", ansi.Strip(r.View()))
	}
	batch, ok := cmd().(tea.BatchMsg)
	if !ok || len(batch) != 2 {
		t.Fatalf("enter gave %T, want the spinner and the send", batch)
	}
	msg, ok := batch[1]().(executedMsg)
	if !ok {
		t.Fatal("the send did not answer with executedMsg")
	}
	return msg
}

// TestWithdrawSignsPinnedBridgeShortLivedJournaledFirst: the Transfer pays
// the pinned bridge, expires at most 15 minutes after the quote, and the
// journal holds the whole typed message and its digest before the withdraw
// request reaches the service.
func TestWithdrawSignsPinnedBridgeShortLivedJournaledFirst(t *testing.T) {
	app, h, now := hostileApp(t, true)
	r := hostileReview(t, app, now)
	if got := r.order.Transfer.ToAccount; got != common.HexToAddress(sandbox.BridgeFundingAddress) {
		t.Fatalf("toAccount %s, want the pinned %s", got.Hex(), sandbox.BridgeFundingAddress)
	}
	if exp := time.Unix(0, r.order.Transfer.Expiration); exp.After(r.order.Quote.ExpiresAt.Add(15*time.Minute)) || !exp.After(r.order.Quote.ExpiresAt) {
		t.Fatalf("expiration %s, want after the quote's %s and at most 15 min later", exp, r.order.Quote.ExpiresAt)
	}
	if view := ansi.Strip(r.View()); !strings.Contains(view, "pinned") {
		t.Errorf("the review does not say the bridge is pinned:\n%s", view)
	}
	if msg := signAndSend(t, r); msg.Err != nil {
		t.Fatalf("withdraw: %v", msg.Err)
	}
	if h.withdraws != 1 {
		t.Fatalf("%d withdraw requests, want 1", h.withdraws)
	}
	var intent journal.Entry
	for _, line := range bytes.Split(bytes.TrimSpace(h.atWithdraw), []byte("\n")) {
		var e journal.Entry
		if json.Unmarshal(line, &e) == nil && e.Kind == journal.KindIntent {
			intent = e
		}
	}
	if intent.Transfer == nil || intent.Domain == nil {
		t.Fatalf("no typed data journaled before the request left:\n%s", h.atWithdraw)
	}
	if d := app.Target.Env.Domain(); *intent.Domain != d {
		t.Errorf("journaled domain %+v, want %+v", *intent.Domain, d)
	}
	if *intent.Transfer != r.order.Transfer {
		t.Errorf("journaled transfer %+v, want the one signed %+v", *intent.Transfer, r.order.Transfer)
	}
	if got := intent.Transfer.ToAccount.Hex(); got != sandbox.BridgeFundingAddress {
		t.Errorf("journaled toAccount %s", got)
	}
}

// TestSwappedBridgeWithPinnedConfigStops: a proxy swapping funding_address
// on a pinned environment stops the withdrawal before anything is signed,
// naming both addresses, and offers no confirmation.
func TestSwappedBridgeWithPinnedConfigStops(t *testing.T) {
	app, h, now := hostileApp(t, true)
	h.set(attackerBridge, 0)
	r := hostileReview(t, app, now)
	view := ansi.Strip(r.View())
	for _, want := range []string{"Stopped", attackerBridge, sandbox.BridgeFundingAddress, "bridge_funding_address"} {
		if !strings.Contains(view, want) {
			t.Errorf("the stop lacks %q:\n%s", want, view)
		}
	}
	if _, cmd := screentest.Press(r, "enter"); screentest.Acts(cmd) || r.gate.Sending {
		t.Fatal("enter signed a swapped bridge address")
	}
	if screentest.Offers(r.KeyMap(), "enter") || screentest.Offers(r.KeyMap(), "c") {
		t.Errorf("the footer offers %v on a pinned mismatch", r.KeyMap().ShortHelp())
	}
	if h.withdraws != 0 {
		t.Fatal("a withdraw request left")
	}
}

// TestBridgeTrustOnFirstUseThenChanged: unpinned, the first address is
// recorded ("first use"), shown later as "seen since", and a change stops
// the withdrawal until it is confirmed on its own screen with Y (enter does
// nothing there); then the new address is signed.
func TestBridgeTrustOnFirstUseThenChanged(t *testing.T) {
	app, h, now := hostileApp(t, false)
	r := hostileReview(t, app, now)
	if view := ansi.Strip(r.View()); !strings.Contains(view, "first use") || !screentest.Offers(r.KeyMap(), "enter") {
		t.Fatalf("first use is not shown, or not signable:\n%s", view)
	}
	pins := app.Target.BridgePins()
	if _, err := os.Stat(pins); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the first address was recorded when it was only shown: %v", err)
	}
	signAndSend(t, r) // the address signed is the one trusted from now on
	if st, err := os.Stat(pins); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("no 0600 record of the first address signed: %v %v", st, err)
	}

	*now = now.Add(48 * time.Hour)
	r = hostileReview(t, app, now)
	if view := ansi.Strip(r.View()); !strings.Contains(view, "seen since 2026-03-14") {
		t.Fatalf("the recorded address is not shown as seen since its date:\n%s", view)
	}

	h.set(attackerBridge, 0)
	r = hostileReview(t, app, now)
	view := ansi.Strip(r.View())
	// The explanation wraps anywhere; compare without the white space.
	flat := strings.Join(strings.Fields(view), "")
	for _, want := range []string{"Stopped", attackerBridge, sandbox.BridgeFundingAddress, "since2026-03-14", "Pressc"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the stop lacks %q:\n%s", want, view)
		}
	}
	if _, cmd := screentest.Press(r, "enter"); screentest.Acts(cmd) {
		t.Fatal("enter signed a changed bridge address")
	}
	if !screentest.Offers(r.KeyMap(), "c") || screentest.Offers(r.KeyMap(), "enter") {
		t.Fatalf("the footer offers %v", r.KeyMap().ShortHelp())
	}
	_, cmd := screentest.Press(r, "c")
	confirm, ok := screentest.PushedScreen(cmd).(*bridgeConfirmScreen)
	if !ok {
		t.Fatal("c did not open the confirm screen")
	}
	confirm.SetSize(100, 30)
	view = ansi.Strip(confirm.View())
	for _, want := range []string{"Recorded", sandbox.BridgeFundingAddress, "first seen 2026-03-14", "Now given", attackerBridge, "Press Y"} {
		if !strings.Contains(view, want) {
			t.Errorf("the confirm screen lacks %q:\n%s", want, view)
		}
	}
	for _, k := range []string{"enter", "y"} {
		if screentest.Press(confirm, k); confirm.working {
			t.Fatalf("%s confirmed the new address", k)
		}
	}
	if _, err := withdrawal.CheckBridge(app.Target.Env, pins, attackerBridge, *now); err == nil {
		t.Fatal("the record changed before the confirmation")
	}
	*now = now.Add(kit.ShownGuard) // the y pressed with the enter held keys
	_, cmd = screentest.Press(confirm, "Y")
	if cmd == nil {
		t.Fatal("Y did not confirm")
	}
	if _, cmd := confirm.Update(cmd()); cmd == nil {
		t.Fatal("the confirmation did not go back to the review")
	}
	r.Update(r.Resume()().(tea.BatchMsg)[1]())
	r.Update(keyFound(r, signer.Found{Place: signer.KeyDemo})) // the key is looked for again
	*now = now.Add(kit.ShownGuard)                             // the check holds keys from when it lands
	if view := ansi.Strip(r.View()); strings.Contains(view, "Stopped") || !screentest.Offers(r.KeyMap(), "enter") {
		t.Fatalf("after the confirmation the review still stops:\n%s", view)
	}
	if r.order.Transfer.ToAccount != common.HexToAddress(attackerBridge) {
		t.Fatal("the confirmed address is not the one signed")
	}
}

// TestSigningRefusedWhenClocksDisagree: a server clock 30 days ahead or 3
// minutes behind refuses the withdraw signature (nothing is sent) with
// "check your clock" and the difference; 90 seconds still signs.
func TestSigningRefusedWhenClocksDisagree(t *testing.T) {
	for _, tc := range []struct {
		skew   time.Duration
		refuse string
	}{
		{30 * 24 * time.Hour, "720h0m0s ahead of"},
		{-3 * time.Minute, "3m0s behind"},
		{90 * time.Second, ""},
	} {
		app, h, now := hostileApp(t, true)
		r := hostileReview(t, app, now)
		h.set("", tc.skew)
		msg := signAndSend(t, r)
		if tc.refuse == "" {
			if msg.Err != nil {
				t.Errorf("skew %s: %v", tc.skew, msg.Err)
			}
			continue
		}
		var skew *exchange.ClockSkewError
		if !errors.As(msg.Err, &skew) || h.withdraws != 0 {
			t.Fatalf("skew %s: err %v, %d withdraws; want a refusal before sending", tc.skew, msg.Err, h.withdraws)
		}
		r.Update(msg)
		view := ansi.Strip(strings.ReplaceAll(r.View(), "\n", " "))
		for _, want := range []string{"check your clock", tc.refuse} {
			if !strings.Contains(strings.Join(strings.Fields(view), " "), want) {
				t.Errorf("skew %s: the refusal lacks %q:\n%s", tc.skew, want, r.View())
			}
		}
		if b, _ := os.ReadFile(h.journal); len(b) != 0 {
			t.Errorf("skew %s: something was journaled", tc.skew)
		}
	}
}

// TestAcceptedFollowsTheQuoteIDSent: the status screen follows the quote id
// the review sent, not the one the withdraw answer echoes back.
func TestAcceptedFollowsTheQuoteIDSent(t *testing.T) {
	app, _, now := hostileApp(t, true)
	var followed string
	app.Makers.Status = func(a *kit.App, quoteID string) tui.Screen {
		followed = quoteID
		return screentest.NewHome(a)
	}
	r := hostileReview(t, app, now)
	msgs := screentest.SequenceMsgs(t, r.executed(executedMsg{withdrawal.Sent{Accepted: exchange.WithdrawAccepted{QuoteID: "q-someone-else"}}}))
	if _, ok := msgs[1].(tui.PushMsg); !ok {
		t.Fatalf("second message %T, want the status screen", msgs[1])
	}
	if followed != r.order.Quote.QuoteID {
		t.Fatalf("follows %q, want %s", followed, r.order.Quote.QuoteID)
	}
}

// TestBridgeConfirmGolden: the confirm screen of a changed bridge address,
// whole frame with its footer (Y only; esc is the root's), once its keys
// are no longer held.
func TestBridgeConfirmGolden(t *testing.T) {
	now := screentest.Now
	clock := func() time.Time { return now }
	env := config.Environment{Name: "testnet", AuthURL: "https://auth.example", BaseURL: "https://api.example",
		MarketDataURL: "https://md.example", ChainID: 325}
	app := &kit.App{Deps: kit.Deps{Common: tui.NewCommon(true, clock), Getenv: func(string) string { return "" }},
		Session: kit.Session{Target: target.Target{Env: env, Client: exchange.New(env, exchange.Options{Now: clock})}}}
	s := newBridgeConfirm(app, withdrawal.BridgeChangedError{Env: "testnet", Expected: sandbox.BridgeFundingAddress,
		Seen: attackerBridge, Since: screentest.Now.Add(-40 * 24 * time.Hour)})
	root := tui.New(s, tui.Options{Theme: "dark", Common: app.Common})
	root.Init()
	screentest.GoldenFrames(t, root, func() { now = now.Add(kit.ShownGuard) })
}

// TestFarFutureQuoteIsNotSigned: a quote whose expires_at lies years past
// the service's clock cannot be signed (its Transfer would never expire).
func TestFarFutureQuoteIsNotSigned(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	q := fixedQuote(*now, "1.5")
	q.ExpiresAt = now.Add(3 * 365 * 24 * time.Hour)
	r := reviewFor(t, app, now, q, 0, 120, 40, signer.Found{Place: signer.KeyDemo})
	if _, cmd := screentest.Press(r, "enter"); r.gate.Sending || screentest.Offers(r.KeyMap(), "enter") {
		t.Fatalf("a far-future quote is offered for signing (cmd %v)", cmd != nil)
	}
	if view := ansi.Strip(r.View()); !strings.Contains(view, "will not be signed") {
		t.Errorf("the refusal is not shown:\n%s", view)
	}
}

// TestExpirationBoundAtSigning: a server whose clock read on the quote
// screen was a year ahead (with a quote to match) gets no year-long
// signature: at signing, the expiration is checked against SigningNow.
func TestExpirationBoundAtSigning(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	q := fixedQuote(*now, "1.5")
	offset := 365 * 24 * time.Hour
	q.ExpiresAt = now.Add(offset + time.Minute)
	r := reviewFor(t, app, now, q, offset, 120, 40, signer.Found{Place: signer.KeyDemo})
	*now = now.Add(kit.ShownGuard)
	msg := signAndSend(t, r)
	if msg.Err == nil || !strings.Contains(msg.Err.Error(), "more than 15m0s from now") {
		t.Fatalf("signed a Transfer valid until %s: %v", time.Unix(0, r.order.Transfer.Expiration).UTC(), msg.Err)
	}
}

// TestBridgeConfirmTakesNoKeyTypedAhead: trusting a new bridge funding
// address authorizes paying it, so the confirm screen holds its keys for
// kit.ShownGuard once it shows, as a review does: a Y typed with the c that
// opened it (or pasted with it) records nothing, and offers no Y until then.
func TestBridgeConfirmTakesNoKeyTypedAhead(t *testing.T) {
	app, _, now := hostileApp(t, false)
	pins := app.Target.BridgePins()
	if err := withdrawal.RecordBridge(app.Target.Env, pins, sandbox.BridgeFundingAddress, *now); err != nil {
		t.Fatal(err)
	}
	s := newBridgeConfirm(app, withdrawal.BridgeChangedError{Env: app.Target.Env.Name, Expected: sandbox.BridgeFundingAddress,
		Seen: attackerBridge, Since: *now})
	s.SetSize(100, 30)
	s.Init()
	if _, cmd := screentest.Press(s, "Y"); cmd != nil || screentest.Offers(s.KeyMap(), "Y") {
		t.Fatal("a Y typed as the screen showed confirmed the new address")
	}
	if view := ansi.Strip(s.View()); !strings.Contains(view, kit.NotTaken("Y")+"read the addresses above; keys are enabled in 2 s") || !s.HoldsKeys() {
		t.Fatalf("the held screen (esc held with Y: %v) says:\n%s", s.HoldsKeys(), view)
	}
	// esc, going back, is held with Y and said not taken too.
	if screentest.Press(s, "esc"); !strings.Contains(ansi.Strip(s.View()), kit.NotTaken("esc")) {
		t.Fatalf("an esc in the hold is not said:\n%s", ansi.Strip(s.View()))
	}
	*now = now.Add(kit.ShownGuard)
	if !screentest.Offers(s.KeyMap(), "Y") || !strings.Contains(ansi.Strip(s.View()), "Press Y") || s.HoldsKeys() {
		t.Fatalf("once held long enough Y is not offered:\n%s", ansi.Strip(s.View()))
	}
	_, cmd := screentest.Press(s, "Y")
	if cmd == nil {
		t.Fatal("Y did not confirm once the screen had shown")
	}
	if s.Update(cmd()); s.err != nil {
		t.Fatal(s.err)
	}
	if _, err := withdrawal.CheckBridge(app.Target.Env, pins, attackerBridge, *now); err != nil {
		t.Fatalf("the confirmed address is not trusted: %v", err)
	}
}
