package screentest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// Console is the console's root model with a first screen of the test's
// choosing, on a fresh in-process sandbox, driven by calling Update directly
// and delivering finished commands' messages as the runtime would.
type Console struct {
	T    testing.TB
	Srv  *sandbox.Server
	App  *kit.App
	Root *tui.Model
	Env  map[string]string
	msgs chan tea.Msg
	// running counts the commands still out: a test ends once those that
	// write (a board's save, a journal line) are done, not while they
	// still write into its folders.
	running sync.WaitGroup
}

// ConsoleOpts set up a Console; Start is required.
type ConsoleOpts struct {
	Theme   string // "light" or "dark"; default dark
	Sandbox sandbox.Options
	Clock   func() time.Time  // shared by sandbox, client and screens; default Now, fixed
	Env     map[string]string // the process environment the screens see from the start
	// Start builds the first screen; whole-console tests start at
	// screens.Console.
	Start func(*kit.App) tui.Screen
	// Front, when set, stands between the console and the sandbox (a proxy
	// that refuses or counts requests); Retry is its client's retry policy.
	Front func(http.Handler) http.Handler
	Retry exchange.RetryPolicy
	// Profile is what the terminal shows, as the program would detect it
	// (colorprofile.ASCII for NO_COLOR, NoTTY for TERM=dumb); unknown
	// (the zero value) draws colour. Terminal gives the frame as shown.
	Profile colorprofile.Profile
}

// NewLoggedInConsole is a console logged in with the demo API key, at the
// stand-in Home: one feature's screens go on it with Open, under the root
// (top bar, toasts, footer), without the login and home packages.
func NewLoggedInConsole(t testing.TB, w, h int, o ConsoleOpts) *Console {
	t.Helper()
	o.Start = func(app *kit.App) tui.Screen {
		LogIn(t, app)
		return NewHome(app)
	}
	return NewConsole(t, w, h, o)
}

// Open puts s on top of the console, as a feature opens a screen.
func (c *Console) Open(s tui.Screen) { c.Send(tui.PushMsg{Screen: s}) }

// NewConsole starts a sandbox and a console on it, sized w×h, at o.Start's
// screen.
func NewConsole(t testing.TB, w, h int, o ConsoleOpts) *Console {
	t.Helper()
	if o.Start == nil {
		t.Fatal("ConsoleOpts.Start names no first screen")
	}
	if o.Theme == "" {
		o.Theme = "dark"
	}
	clock := o.Clock
	if clock == nil {
		clock = func() time.Time { return Now }
	}
	o.Sandbox.Now = clock
	srv, err := sandbox.Start("127.0.0.1:0", o.Sandbox)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if o.Env == nil {
		o.Env = map[string]string{}
	}
	c := &Console{T: t, Srv: srv, Env: o.Env, msgs: make(chan tea.Msg, 4096)}
	served := srv
	if o.Front != nil {
		front := httptest.NewServer(o.Front(srv.Exchange))
		t.Cleanup(front.Close)
		served = &sandbox.Server{URL: front.URL, Exchange: srv.Exchange}
	}
	c.App = NewApp(served, o.Theme == "dark", clock, c.getenv, t.TempDir())
	t.Cleanup(c.settle) // before the folders go (cleanups run last first)
	if o.Retry.Attempts > 0 {
		client := exchange.New(c.App.Target.Client.Env(), exchange.Options{Now: clock, Retry: o.Retry})
		c.App.Target.Client, c.App.Targets[0].Client = client, client
	}
	OpenJournal(t, c.App)
	c.App.Common.TopBar = c.App.TopBar
	c.Root = tui.New(o.Start(c.App), tui.Options{Theme: o.Theme, Common: c.App.Common})
	c.exec(c.Root.Init())
	if o.Profile != colorprofile.Unknown {
		c.Send(tea.ColorProfileMsg{Profile: o.Profile})
	}
	c.Send(tea.WindowSizeMsg{Width: w, Height: h})
	// The top bar names the environment as soon as the first screen is up.
	c.Until("the environment in the top bar", func(v string) bool {
		bar, _, _ := strings.Cut(v, "\n")
		return strings.Contains(bar, "sandbox")
	})
	return c
}

func (c *Console) getenv(k string) string { return c.Env[k] }

// Send hands msg to the root and starts the commands it returns.
func (c *Console) Send(msg tea.Msg) {
	_, cmd := c.Root.Update(msg)
	c.exec(cmd)
}

// exec runs cmd in the background, as the Bubble Tea runtime does; its
// message is handed to the root by Until. Timers simply have not fired yet,
// and the end of a test does not wait for them (settle).
func (c *Console) exec(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	if IsTimer(cmd) {
		go func() {
			if msg := cmd(); msg != nil {
				c.msgs <- msg
			}
		}()
		return
	}
	c.running.Add(1)
	go func() {
		defer c.running.Done()
		if msg := cmd(); msg != nil {
			c.msgs <- msg
		}
	}()
}

// dispatch hands one finished command's message to the root, unpacking
// batches (concurrently) and sequences (in order) the way the runtime does.
// A sequence's type is unexported, so it is recognised as a slice of Cmds.
func (c *Console) dispatch(msg tea.Msg) {
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
	if msg == tea.Msg(tea.RawMsg{Msg: ansi.RequestPrimaryDeviceAttributes}) {
		// Written to the terminal, which answers after every key before.
		c.Send(uv.PrimaryDeviceAttributesEvent{1, 2})
		return
	}
	c.Send(msg)
}

// Until delivers finished commands' messages Until cond holds: the test
// waits for what the user would see, never for a fixed time.
func (c *Console) Until(what string, cond func(view string) bool) {
	c.T.Helper()
	deadline := time.After(10 * time.Second)
	for !cond(c.Plain()) {
		select {
		case msg := <-c.msgs:
			c.dispatch(msg)
		case <-deadline:
			c.T.Fatalf("timed out waiting for %s; the screen shows:\n%s", what, c.Plain())
		}
	}
}

// UntilShows waits until every text is on the screen.
func (c *Console) UntilShows(texts ...string) {
	c.T.Helper()
	c.Until(strings.Join(texts, ", "), func(v string) bool { return showsAll(v, texts) })
}

// showsAll: every text is in the screen v.
func showsAll(v string, texts []string) bool {
	for _, s := range texts {
		if !strings.Contains(v, s) {
			return false
		}
	}
	return true
}

// UntilShowsFiring waits until every text is on the screen, firing the
// timers recorded so far (RecordTimers) whenever they are not: time passes
// when the test says, not on the wall clock (a board draws an answer a
// second after its last frame).
func (c *Console) UntilShowsFiring(timers *[]Timer, texts ...string) {
	c.T.Helper()
	c.Until(strings.Join(texts, ", "), func(v string) bool {
		if showsAll(v, texts) {
			return true
		}
		fire := *timers
		*timers = nil
		for _, t := range fire {
			c.Send(t.Msg)
		}
		return showsAll(c.Plain(), texts)
	})
}

// Press sends keys: a key name ("enter", "ctrl+d", "down") or text to type.
func (c *Console) Press(keys ...string) {
	for _, k := range keys {
		c.Send(Key(k))
	}
}

// TypeText types s one character at a time.
func (c *Console) TypeText(s string) {
	for _, r := range s {
		c.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// View is the frame as the terminal gets it, escapes included.
func (c *Console) View() string { return c.Root.View().Content }

// Plain is the frame without escapes.
func (c *Console) Plain() string { return ansi.Strip(c.View()) }

// OnTerminal is frame as a terminal of profile p shows it: the renderer
// drops the colours it cannot show (all under NO_COLOR, keeping bold and
// reverse video) and, under TERM=dumb, every escape sequence.
func OnTerminal(frame string, p colorprofile.Profile) string {
	var b strings.Builder
	w := colorprofile.Writer{Forward: &b, Profile: p}
	_, _ = w.Write([]byte(frame))
	return b.String()
}

// LoginAPIKey logs in with the key typed in, and waits for the home screen.
func (c *Console) LoginAPIKey(key string) {
	c.T.Helper()
	c.TypeText(key)
	c.Press("enter")
	c.Until("the home screen and the session in the top bar", func(v string) bool {
		bar, _, _ := strings.Cut(v, "\n")
		return strings.Contains(bar, "Home") && strings.Contains(bar, "session")
	})
}

// OpenDeposit goes from home to the loaded deposit list.
func (c *Console) OpenDeposit() {
	c.T.Helper()
	c.Press("d")
	c.UntilShows("CHAIN ID", "SOLANA")
}

// GenerateSolana selects SOLANA, provisions its address and waits for it.
func (c *Console) GenerateSolana() string {
	c.T.Helper()
	for range 6 {
		c.Press("down")
	}
	if !strings.Contains(c.Plain(), "› SOLANA") {
		c.T.Fatalf("SOLANA is not selected:\n%s", c.Plain())
	}
	c.Press("g")
	c.UntilShows("deposit address ready")
	addr := c.SolanaAddress()
	if !strings.Contains(c.Plain(), addr) {
		c.T.Fatalf("the screen does not show the SOLANA address %s:\n%s", addr, c.Plain())
	}
	return addr
}

// SolanaAddress asks the sandbox, with a client of its own, for the demo
// account's SOLANA address (generating is idempotent), so the screen is
// checked against the service rather than against itself.
func (c *Console) SolanaAddress() string {
	c.T.Helper()
	cl := exchange.New(config.SandboxEnvironment(c.Srv.URL, sandbox.DefaultChainID),
		exchange.Options{APIKey: sandbox.DemoAPIKey, Now: func() time.Time { return Now }})
	cx, cancel := kit.Call(context.Background())
	defer cancel()
	info, err := cl.GenerateAddress(cx, "SOLANA")
	if err != nil || info.DepositAddress == "" {
		c.T.Fatalf("sandbox SOLANA address: %+v, %v", info, err)
	}
	return info.DepositAddress
}

// FillDestination goes from home to the destination form on ARBITRUM and
// fills in the address and amount.
func (c *Console) FillDestination(to, amount string) {
	c.T.Helper()
	c.Press("w")
	c.FillDestinationFromRoute(to, amount)
}

// FillDestinationFromRoute waits for the route screen, goes on with
// ARBITRUM, and fills in the address and amount.
func (c *Console) FillDestinationFromRoute(to, amount string) {
	c.T.Helper()
	c.UntilShows("DESTINATION", "ARBITRUM")
	c.Press("enter")
	c.UntilShows("Withdraw: destination")
	c.TypeText(to)
	c.Press("tab")
	c.TypeText(amount)
}

// UntilSays waits for a sentence that may be wrapped over lines.
func (c *Console) UntilSays(text string) {
	c.T.Helper()
	c.Until(text, func(v string) bool { return strings.Contains(OneLine(v), text) })
}

// settle waits for the commands still out, timers aside: what writes is
// done in milliseconds, though a loaded machine can stretch that past a
// test's end; a command still out after 5 s waits on something else, and is
// let go.
func (c *Console) settle() {
	done := make(chan struct{})
	go func() { c.running.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		c.T.Logf("a command was still out 5 s after the test ended: let go")
	}
}
