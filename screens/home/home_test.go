package home

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/target"
	"github.com/svcwallet/svcwallet/tui"
)

// homeWithLogin logs in against a fake service whose login answer is res,
// and returns the home screen for that session.
func homeWithLogin(t *testing.T, res exchange.LoginResult) *homeScreen {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != exchange.PathAPIKeyLogin {
			http.NotFound(w, r)
			return
		}
		http.SetCookie(w, &http.Cookie{Name: config.SessionCookie, Value: "tok", Path: "/"})
		w.Header().Set(config.HeaderAccountID, "acct-1")
		json.NewEncoder(w).Encode(res)
	}))
	t.Cleanup(srv.Close)
	env := config.SandboxEnvironment(srv.URL, 327)
	c := exchange.New(env, exchange.Options{})
	if _, err := c.Login(context.Background(), exchange.APIKey("k")); err != nil {
		t.Fatal(err)
	}
	app := &kit.App{Deps: kit.Deps{Common: tui.NewCommon(true, nil), Getenv: func(string) string { return "" }},
		Session: kit.Session{Target: target.Target{Env: env, Client: c}}}
	screentest.OpenJournal(t, app)
	h := New(app).(*homeScreen)
	h.SetSize(100, 30)
	return h
}

// TestHomeShowsBuilderAccess: a login with a builder-created API key says so;
// a plain one has no Access row.
func TestHomeShowsBuilderAccess(t *testing.T) {
	const builder = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
	h := homeWithLogin(t, exchange.LoginResult{Status: "success", FundingAccountAddress: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
		Location: "builder:" + builder + "\x1b[31m"})
	v := ansi.Strip(h.View())
	if !strings.Contains(v, "Access") || !strings.Contains(v, "builder "+builder) {
		t.Fatalf("no builder access row:\n%s", v)
	}
	if strings.Contains(h.View(), "\x1b[31m") {
		t.Fatal("the location's escape sequence reached the screen")
	}
	plain := homeWithLogin(t, exchange.LoginResult{Status: "success", FundingAccountAddress: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"})
	if v := ansi.Strip(plain.View()); strings.Contains(v, "Access") {
		t.Fatalf("access row on a plain login:\n%s", v)
	}
}

// TestHomeBannerSingular: one unfinished withdrawal is not "withdrawal(s)".
func TestHomeBannerSingular(t *testing.T) {
	h := homeWithLogin(t, exchange.LoginResult{Status: "success", FundingAccountAddress: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"})
	h.Update(homeJournalMsg{unfinished: 1})
	if v := ansi.Strip(h.View()); !strings.Contains(v, "1 unfinished withdrawal: press h") {
		t.Fatalf("banner:\n%s", v)
	}
}

// TestHomeSaysJournalTrouble: skipped journal lines and a journal that
// cannot be read are said on the home screen, never silently dropped.
func TestHomeSaysJournalTrouble(t *testing.T) {
	h := homeWithLogin(t, exchange.LoginResult{Status: "success", FundingAccountAddress: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"})
	if err := os.WriteFile(h.app.Journal().Path(), []byte("not json\n"+strings.Repeat("q", 70<<10)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h.Update(h.readJournal()())
	if v := screentest.OneLine(ansi.Strip(h.View())); !strings.Contains(v, "2 lines of the withdrawal journal could not be read and were skipped") {
		t.Fatalf("skipped lines not said:\n%s", v)
	}

	// A directory where the journal file should be cannot be read (made
	// after the open, which would refuse it).
	dir := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	h.app.Target.Journal = j
	h.Update(h.readJournal()())
	if v := screentest.OneLine(ansi.Strip(h.View())); !strings.Contains(v, "The withdrawal journal cannot be read (run svcwallet doctor --env sandbox)") {
		t.Fatalf("an unreadable journal not said:\n%s", v)
	}
}

// TestHomeBanner (issue 28 item 5): the home screen counts the unfinished
// withdrawals in a Cmd, and says how to resume them; opened, it first asks
// the service about them in the background, the count saying "checking"
// until every one is answered, then what is still unfinished.
func TestHomeBanner(t *testing.T) {
	r := screentest.NewStatusRig(t)
	timers := screentest.RecordTimers(r.App)
	h := New(r.App).(*homeScreen)
	h.SetSize(100, 30)
	screentest.Drive(h, h.Init())
	if v := ansi.Strip(h.View()); strings.Contains(v, "unfinished withdrawal") || len(*timers) != 0 {
		t.Fatalf("banner, or a check, with an empty journal:\n%s", v)
	}
	screentest.HistoryEntries(t, r)
	calls := r.StatusCalls.Load()
	screentest.Drive(h, h.Resume())
	if v := ansi.Strip(h.View()); !strings.Contains(v, "checking 1 unfinished withdrawal with the service…") || r.StatusCalls.Load() != calls+1 {
		t.Fatalf("no check, after one of two answered (%d asked):\n%s", r.StatusCalls.Load()-calls, v)
	}
	for len(*timers) > 0 { // the budget's next slot
		tm := (*timers)[0]
		*timers = (*timers)[1:]
		r.Clock.Advance(tm.D)
		screentest.Drive(h, func() tea.Msg { return tm.Msg })
	}
	if v := ansi.Strip(h.View()); !strings.Contains(v, "2 unfinished withdrawals: press h to review and resume them") || r.StatusCalls.Load() != calls+2 {
		t.Fatalf("after the check (%d asked):\n%s", r.StatusCalls.Load()-calls, v)
	}
}

// TestHomeChecksUnfinished (issue 28 item 5): withdrawals made on the
// command line that the service finished since are no longer counted
// unfinished once Home has asked: the journal learns their ends.
func TestHomeChecksUnfinished(t *testing.T) {
	r := screentest.NewStatusRig(t)
	paid, refunded := r.Made(sandbox.DestCompleted, "25"), r.Made(sandbox.DestRefunded, "30")
	r.Clock.Advance(sandbox.DefaultSettle)
	timers := screentest.RecordTimers(r.App)
	h := New(r.App).(*homeScreen)
	h.SetSize(100, 30)
	screentest.Drive(h, h.Init())
	if v := ansi.Strip(h.View()); !strings.Contains(v, "checking 1 unfinished withdrawal") {
		t.Fatalf("opened:\n%s", v)
	}
	for len(*timers) > 0 {
		tm := (*timers)[0]
		*timers = (*timers)[1:]
		r.Clock.Advance(tm.D)
		screentest.Drive(h, func() tea.Msg { return tm.Msg })
	}
	if v := ansi.Strip(h.View()); strings.Contains(v, "unfinished withdrawal") || !r.Record(paid).Finished() || !r.Record(refunded).Finished() {
		t.Fatalf("after the check:\n%s", v)
	}
}

// TestHomeIdle: the home screen schedules nothing once it has started.
func TestHomeIdle(t *testing.T) {
	c := screentest.NewLoggedInConsole(t, 120, 40, screentest.ConsoleOpts{})
	h := New(c.App).(*homeScreen)
	h.SetSize(120, 38)
	for _, m := range screentest.RunCmdSync(t, h.Init()) {
		h.Update(m)
	}
	screentest.RequireIdle(t, h, "home", screentest.OtherMsgs()...)
	screentest.RequireIdle(t, h, "home", spinner.New().Tick())
}

// TestHomeSaysNoKeySigns: after an API-key login with no key here for the
// account, Home says so and names the ways before a withdrawal is walked
// to its review; with a key (here the raw key's variable) it says nothing
// (issue 28 item 11).
func TestHomeSaysNoKeySigns(t *testing.T) {
	h := homeWithLogin(t, exchange.LoginResult{Status: "success", FundingAccountAddress: sandbox.DemoAddress})
	h.Update(kit.LookForSigningKey(h.app)())
	v := screentest.OneLine(ansi.Strip(h.View()))
	for _, want := range []string{"No key here signs for " + sandbox.DemoAddress + ", so no withdrawal or builder authorization can be signed.",
		"Ways: log in by wallet, set $SVCWALLET_PRIVATE_KEY or signer (config), or run svcwallet key import. Or press o on the review"} {
		if !strings.Contains(v, want) {
			t.Errorf("Home lacks %q:\n%s", want, v)
		}
	}
	// A signer set but unusable: its error in the fewest words, then its
	// fix, once, and a login by wallet, which act now; the raw key and the
	// keystore, which the look does not reach while it is set, only with
	// it out of the config (kit.App.KeyWays). The raw key set, Home said to
	// set it.
	h.app.Target.Env.Signer = "command" // and no signing command set
	h.app.Getenv = func(k string) string {
		if k == "SVCWALLET_PRIVATE_KEY" {
			return sandbox.DemoPrivateKey
		}
		return ""
	}
	h.Update(kit.LookForSigningKey(h.app)())
	if v := screentest.OneLine(ansi.Strip(h.View())); !strings.Contains(v, `signer = "command" in the config: no signing command), so no withdrawal or builder authorization can be signed. Ways: set sign_command or log in by wallet; with signer out of the config, set $SVCWALLET_PRIVATE_KEY or run svcwallet key import.`) ||
		strings.Count(v, "sign_command") != 1 || strings.Contains(v, "signer (config)") {
		t.Errorf("Home's ways with the signer set but unusable:\n%s", v)
	}
	h.app.Target.Env.Signer = filepath.Join(t.TempDir(), "missing.json") // a keystore file not there: said, its fix first
	h.Update(kit.LookForSigningKey(h.app)())
	if v := screentest.OneLine(ansi.Strip(h.View())); !strings.Contains(v, "signer = "+strconv.Quote(h.app.Target.Env.Signer)+" in the config: the file is not there), so no withdrawal or builder authorization can be signed. Ways: fix signer or log in by wallet; with signer out of the config, set $") {
		t.Errorf("Home with the signer's keystore file missing:\n%s", v)
	}
	h.app.Getenv = func(string) string { return "" }
	h.app.Target.Env.Signer = ""
	h.Update(kit.LookForSigningKey(h.app)())
	// A blank line parts the warning from the menu's heading (the
	// warning's lines padded to its widest).
	if full := ansi.Strip(h.View()); !regexp.MustCompile(`\. *\n\nGo to`).MatchString(full) {
		t.Errorf("no blank line between the warning and Go to:\n%s", full)
	}
	// At 60x20 (18 lines under the bars) the whole menu stays in view: the
	// ways to add a key give way to where they are shown.
	h.SetSize(60, 18)
	if v := ansi.Strip(h.View()); strings.Count(v, "\n")+1 > 18 || !strings.Contains(v, "Log out") || !strings.Contains(screentest.OneLine(v), "No key here signs for this account: w shows how to add one.") {
		t.Errorf("at 60x20 Home is %d lines, or lacks its menu or the short warning:\n%s", strings.Count(v, "\n")+1, v)
	}
	h.SetSize(100, 30)
	h = homeWithLogin(t, exchange.LoginResult{Status: "success", FundingAccountAddress: sandbox.DemoAddress})
	h.app.Getenv = func(k string) string {
		if k == "SVCWALLET_PRIVATE_KEY" {
			return sandbox.DemoPrivateKey
		}
		return ""
	}
	h.Update(kit.LookForSigningKey(h.app)())
	if v := ansi.Strip(h.View()); strings.Contains(v, "No key here") {
		t.Errorf("Home says no key though one signs:\n%s", v)
	}
}

// TestHomeOpensEachFeature: each item's letter, and enter on its row, opens
// that feature; enter on the last row, and L, log out: the session, the
// wallet key and the check of its unfinished withdrawals are forgotten and
// the login screen is all that is left.
func TestHomeOpensEachFeature(t *testing.T) {
	h := homeWithLogin(t, exchange.LoginResult{Status: "success", FundingAccountAddress: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"})
	opened := func(name string) func(*kit.App) tui.Screen {
		return func(*kit.App) tui.Screen { return &standIn{name: name} }
	}
	logins := 0
	h.app.Makers = kit.Makers{Deposit: opened("deposit"), Withdraw: opened("withdraw"), History: opened("history"), Board: opened("board"),
		Builder: opened("builder"), Login: func(*kit.App, kit.LoginFacts) tui.Screen { logins++; return &standIn{name: "login"} }}
	if h.Title() != "Home" {
		t.Errorf("title %q", h.Title())
	}
	for i, want := range []string{"deposit", "withdraw", "history", "board", "builder"} {
		if _, cmd := screentest.Press(h, homeMenu[i].key); name(screentest.PushedScreen(cmd)) != want {
			t.Errorf("%s opened %q, want %s", homeMenu[i].key, name(screentest.PushedScreen(cmd)), want)
		}
		h.cursor = i
		if _, cmd := screentest.Press(h, "enter"); name(screentest.PushedScreen(cmd)) != want {
			t.Errorf("enter on row %d opened %q, want %s", i, name(screentest.PushedScreen(cmd)), want)
		}
	}
	if !screentest.Offers(h.KeyMap(), "enter") || !screentest.Offers(h.KeyMap(), "L") || !screentest.Offers(h.KeyMap(), "d") {
		t.Errorf("the footer offers %v", h.KeyMap().ShortHelp())
	}
	for _, logout := range []func() tea.Cmd{
		func() tea.Cmd { h.cursor = len(homeMenu); _, cmd := screentest.Press(h, "enter"); return cmd },
		func() tea.Cmd { _, cmd := screentest.Press(h, "L"); return cmd },
	} {
		if _, err := h.app.Client().Login(context.Background(), exchange.APIKey("k")); err != nil {
			t.Fatal(err)
		}
		logins = 0
		h.app.Check = &kit.Check{}
		facts := logout()
		if logins != 0 {
			t.Error("the login was built in Update, before its facts were read off the event loop")
		}
		msg, ok := loginFactsOf(facts)
		if !ok {
			t.Fatal("log out did not read the login's facts")
		}
		if _, cmd := h.Update(msg); name(resetTo(cmd)) != "login" {
			t.Errorf("log out went to %q, want the login", name(resetTo(cmd)))
		}
		if _, ok := h.app.Client().Session(); ok || h.app.Signer != nil || h.app.Check != nil {
			t.Error("the session, the wallet key or the check of its withdrawals outlived the log out")
		}
	}
}

// TestLogoutOfAKeptSession: logging out of a session auth login kept says
// how to forget it for the next run too; once.
func TestLogoutOfAKeptSession(t *testing.T) {
	h := homeWithLogin(t, exchange.LoginResult{Status: "success", FundingAccountAddress: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"})
	h.app.Makers.Login = func(*kit.App, kit.LoginFacts) tui.Screen { return &standIn{name: "login"} }
	h.app.Target.Kept = true
	if got := infoOf(h.logout()); !strings.Contains(got, "svcwallet auth logout --env sandbox forgets the kept session") {
		t.Errorf("logging out of a kept session says %q", got)
	}
	if got := infoOf(h.logout()); got != "Logged out" {
		t.Errorf("the next log out says %q", got)
	}
}

// infoOf is the info line cmd shows, if any.
func infoOf(cmd tea.Cmd) string {
	if cmd == nil {
		return ""
	}
	switch m := cmd().(type) {
	case tui.InfoMsg:
		return m.Text
	case tea.BatchMsg:
		for _, c := range m {
			if s := infoOf(c); s != "" {
				return s
			}
		}
	}
	return ""
}

// standIn stands in for the feature it names.
type standIn struct {
	screentest.Home
	name string
}

// name is the name of a stand-in screen, "" for anything else.
func name(s tui.Screen) string {
	if h, ok := s.(*standIn); ok {
		return h.name
	}
	return ""
}

// loginFactsOf is the login's facts cmd reads, if it reads them.
func loginFactsOf(cmd tea.Cmd) (kit.LoginFactsMsg, bool) {
	if cmd == nil {
		return kit.LoginFactsMsg{}, false
	}
	switch m := cmd().(type) {
	case kit.LoginFactsMsg:
		return m, true
	case tea.BatchMsg:
		for _, c := range m {
			if f, ok := loginFactsOf(c); ok {
				return f, true
			}
		}
	}
	return kit.LoginFactsMsg{}, false
}

// resetTo is the screen cmd resets the console to, if any.
func resetTo(cmd tea.Cmd) tui.Screen {
	if cmd == nil {
		return nil
	}
	switch m := cmd().(type) {
	case tui.ResetMsg:
		return m.Screen
	case tea.BatchMsg:
		for _, c := range m {
			if s := resetTo(c); s != nil {
				return s
			}
		}
	}
	return nil
}

// TestHomeMenuWhole: every way on from Home says what it opens, never cut
// by an ellipsis: whole on an 80-column terminal, the commonest size, and
// in its short words at 60, the smallest the console draws.
func TestHomeMenuWhole(t *testing.T) {
	h := homeWithLogin(t, exchange.LoginResult{Status: "success", FundingAccountAddress: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"})
	for _, w := range []int{80, 60} {
		h.SetSize(w, 24)
		v := ansi.Strip(h.View())
		for _, it := range homeMenu {
			if words := map[int]string{80: it.about, 60: it.short}[w]; !strings.Contains(v, words) {
				t.Errorf("%s: %q is not drawn whole at %d columns:\n%s", it.label, words, w, v)
			}
		}
		if strings.Contains(v, "…") {
			t.Errorf("a line is cut at %d columns:\n%s", w, v)
		}
	}
}
