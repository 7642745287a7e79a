package screens

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"svcwallet/screens/kit"
	"svcwallet/service"
	"svcwallet/service/sandbox"
	"svcwallet/signer"
	"svcwallet/tui"
)

// testNow is the fixed clock of the console tests: sandbox, client and
// status bar all read it, so session times in goldens never move.
var testNow = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

// shownSandboxURL is what the login screen shows for the sandbox in tests;
// the real listener has a random port.
const shownSandboxURL = "http://127.0.0.1:8700"

// strangerKey is a well-known development key registered nowhere in the
// sandbox (Hardhat account #9): its wallet login is refused.
const strangerKey = "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6"

// console is a whole svcwallet console (root model, login screen first) on
// a fresh in-process sandbox, driven by calling Update directly.
type console struct {
	t    testing.TB
	srv  *sandbox.Server
	app  *kit.App
	root *tui.Model
	env  map[string]string
	msgs chan tea.Msg
}

type consoleOpts struct {
	theme   string // "light" or "dark"; default dark
	sandbox sandbox.Options
	clock   func() time.Time  // shared by sandbox, client and screens; default testNow, fixed
	env     map[string]string // the process environment the screens see from the start
}

// newConsole starts a sandbox and a console on it, sized w×h.
func newConsole(t testing.TB, w, h int, o consoleOpts) *console {
	t.Helper()
	if o.theme == "" {
		o.theme = "dark"
	}
	clock := o.clock
	if clock == nil {
		clock = func() time.Time { return testNow }
	}
	o.sandbox.Now = clock
	srv, err := sandbox.Start("127.0.0.1:0", o.sandbox)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if o.env == nil {
		o.env = map[string]string{}
	}
	c := &console{t: t, srv: srv, env: o.env, msgs: make(chan tea.Msg, 4096)}
	c.app = newTestApp(srv, o.theme == "dark", clock, c.getenv, t.TempDir())
	journal, err := service.OpenJournal(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	c.app.Targets[0].Journal, c.app.Target.Journal = journal, journal
	c.root = tui.New(Console(c.app), tui.Options{Theme: o.theme, Common: c.app.Common})
	c.exec(c.root.Init())
	c.send(tea.WindowSizeMsg{Width: w, Height: h})
	// The login screen names the environment in the status bar at once.
	c.until("the environment in the status bar", func(v string) bool {
		bar, _, _ := strings.Cut(v, "\n")
		return strings.Contains(bar, "sandbox")
	})
	return c
}

// newTestApp is the App main would build for the embedded sandbox, with the
// sandbox shown at a fixed address and every clock fixed.
func newTestApp(srv *sandbox.Server, dark bool, clock func() time.Time, getenv func(string) string, keystoreDir string) *kit.App {
	real := service.SandboxEnvironment(srv.URL, sandbox.DefaultChainID)
	target := kit.Target{
		Env:    service.SandboxEnvironment(shownSandboxURL, sandbox.DefaultChainID),
		Client: service.New(real, service.Options{Now: clock}),
		Demo:   &kit.Demo{APIKey: sandbox.DemoAPIKey, PrivateKey: sandbox.DemoPrivateKey},
	}
	return &kit.App{Deps: kit.Deps{Common: tui.NewCommon(dark, clock), Targets: []kit.Target{target}, KeystoreDir: keystoreDir, Getenv: getenv},
		Session: kit.Session{Target: target},
		Hooks:   kit.Hooks{LoadKeystore: func(path, pass string) (signer.Key, error) { return signer.LoadKeystoreKey(path, pass) }}}
}

func (c *console) getenv(k string) string { return c.env[k] }

// send hands msg to the root and starts the commands it returns.
func (c *console) send(msg tea.Msg) {
	_, cmd := c.root.Update(msg)
	c.exec(cmd)
}

// exec runs cmd in the background, as the Bubble Tea runtime does; its
// message is handed to the root by until. Timers simply have not fired yet.
func (c *console) exec(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		if msg := cmd(); msg != nil {
			c.msgs <- msg
		}
	}()
}

// dispatch hands one finished command's message to the root, unpacking
// batches (concurrently) and sequences (in order) the way the runtime does.
// A sequence's type is unexported, so it is recognised as a slice of Cmds.
func (c *console) dispatch(msg tea.Msg) {
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, cmd := range b {
			c.exec(cmd)
		}
		return
	}
	if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)) {
		for i := range v.Len() {
			if cmd := v.Index(i).Interface().(tea.Cmd); cmd != nil {
				if m := cmd(); m != nil {
					c.dispatch(m)
				}
			}
		}
		return
	}
	c.send(msg)
}

// until delivers finished commands' messages until cond holds: the test
// waits for what the user would see, never for a fixed time.
func (c *console) until(what string, cond func(view string) bool) {
	c.t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond(c.plain()) {
		select {
		case msg := <-c.msgs:
			c.dispatch(msg)
		case <-deadline:
			c.t.Fatalf("timed out waiting for %s; the screen shows:\n%s", what, c.plain())
		}
	}
}

// untilShows waits until every text is on the screen.
func (c *console) untilShows(texts ...string) {
	c.t.Helper()
	c.until(strings.Join(texts, ", "), func(v string) bool {
		for _, s := range texts {
			if !strings.Contains(v, s) {
				return false
			}
		}
		return true
	})
}

// press sends keys: a key name ("enter", "ctrl+d", "down") or text to type.
func (c *console) press(keys ...string) {
	for _, k := range keys {
		c.send(keyPress(k))
	}
}

// typeText types s one character at a time.
func (c *console) typeText(s string) {
	for _, r := range s {
		c.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// keyMsg builds the key press for a key name as Bubble Tea reports it.
func keyPress(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "ctrl+d":
		return tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}
	case "ctrl+n":
		return tea.KeyPressMsg{Code: 'n', Mod: tea.ModCtrl}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// view is the frame as the terminal gets it, escapes included.
func (c *console) view() string { return c.root.View().Content }

// plain is the frame without escapes.
func (c *console) plain() string { return ansi.Strip(c.view()) }

// loginAPIKey logs in with the key typed in, and waits for the home screen.
func (c *console) loginAPIKey(key string) {
	c.t.Helper()
	c.typeText(key)
	c.press("enter")
	c.until("the home screen and the session in the status bar", func(v string) bool {
		bar, _, _ := strings.Cut(v, "\n")
		return strings.Contains(v, "Funding address") && strings.Contains(bar, "session")
	})
}

// openDeposit goes from home to the loaded deposit list.
func (c *console) openDeposit() {
	c.t.Helper()
	c.press("d")
	c.untilShows("CHAIN ID", "SOLANA")
}

// generateSolana selects SOLANA, provisions its address and waits for it.
func (c *console) generateSolana() string {
	c.t.Helper()
	for range 6 {
		c.press("down")
	}
	if !strings.Contains(c.plain(), "› SOLANA") {
		c.t.Fatalf("SOLANA is not selected:\n%s", c.plain())
	}
	c.press("g")
	c.untilShows("deposit address ready")
	addr := c.solanaAddress()
	if !strings.Contains(c.plain(), addr) {
		c.t.Fatalf("the screen does not show the SOLANA address %s:\n%s", addr, c.plain())
	}
	return addr
}

// solanaAddress asks the sandbox, with a client of its own, for the demo
// account's SOLANA address (generating is idempotent), so the screen is
// checked against the service rather than against itself.
func (c *console) solanaAddress() string {
	c.t.Helper()
	cl := service.New(service.SandboxEnvironment(c.srv.URL, sandbox.DefaultChainID),
		service.Options{APIKey: sandbox.DemoAPIKey, Now: func() time.Time { return testNow }})
	cx, cancel := kit.Call(context.Background())
	defer cancel()
	info, err := cl.GenerateAddress(cx, "SOLANA")
	if err != nil || info.DepositAddress == "" {
		c.t.Fatalf("sandbox SOLANA address: %+v, %v", info, err)
	}
	return info.DepositAddress
}

// fillDestination goes from home to the destination form on ARBITRUM and
// fills in the address and amount.
func (c *console) fillDestination(to, amount string) {
	c.t.Helper()
	c.press("w")
	c.untilShows("DESTINATION", "ARBITRUM")
	c.press("enter")
	c.untilShows("Withdraw: destination")
	c.typeText(to)
	c.press("tab")
	c.typeText(amount)
}
