package screens

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// flow is the console running in a real Bubble Tea program (teatest) on a
// fresh sandbox. out keeps everything the program wrote, for checks made
// after a wait.
type flow struct {
	t   *testing.T
	tm  *teatest.TestModel
	out *recorder
	c   *screentest.Console // the sandbox and app; its root is the program's model
}

// recorder tees the program's output into a buffer as WaitFor reads it.
type recorder struct {
	r   io.Reader
	mu  sync.Mutex
	all bytes.Buffer
}

func (r *recorder) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.mu.Lock()
	r.all.Write(p[:n])
	r.mu.Unlock()
	return n, err
}

// text is everything written so far, escape sequences removed.
func (r *recorder) text() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return ansi.Strip(r.all.String())
}

func startFlow(t *testing.T) *flow {
	t.Helper()
	c := &screentest.Console{T: t}
	srv, err := sandbox.Start("127.0.0.1:0", sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	c.Srv = srv
	c.App = screentest.NewApp(srv, true, time.Now, func(string) string { return "" }, t.TempDir())
	c.Root = tui.New(Console(c.App), tui.Options{Theme: "dark", Common: c.App.Common})
	tm := teatest.NewTestModel(t, c.Root, teatest.WithInitialTermSize(120, 40))
	f := &flow{t: t, tm: tm, out: &recorder{r: tm.Output()}, c: c}
	f.waitFor("the login screen", "Sandbox demo")
	return f
}

// waitFor waits until the program has drawn every text.
func (f *flow) waitFor(what string, texts ...string) {
	f.t.Helper()
	teatest.WaitFor(f.t, f.out, func([]byte) bool {
		all := f.out.text()
		for _, s := range texts {
			if !strings.Contains(all, s) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

func (f *flow) press(keys ...string) {
	for _, k := range keys {
		f.tm.Send(screentest.Key(k))
	}
}

// quit presses q and waits for the program to end, then ends as the
// console does (ended).
func (f *flow) quit() {
	f.t.Helper()
	f.press("q")
	f.tm.WaitFinished(f.t, teatest.WithFinalTimeout(5*time.Second))
	f.ended()
}

// ended is what the console does once its program has ended
// (kit.Deps.Ended): the journal writes still owed are made.
func (f *flow) ended() {
	f.t.Helper()
	journal, board, _ := f.c.App.Ended(5 * time.Second)
	if err := errors.Join(journal, board); err != nil {
		f.t.Error(err)
	}
}

// TestFlowDepositSolana: launch, log in with the demo API key (ctrl+d, enter),
// open deposits, generate SOLANA; its address and QR code are drawn.
func TestFlowDepositSolana(t *testing.T) {
	f := startFlow(t)
	f.press("ctrl+d", "enter")
	f.waitFor("the home screen", "Funding address", sandbox.DemoAddress)
	f.press("d")
	f.waitFor("the deposit list", "SOLANA", "not provisioned")
	for range 6 {
		f.press("down")
	}
	f.press("g")
	f.waitFor("the generated address", "deposit address ready")
	addr := f.c.SolanaAddress()
	f.waitFor("the SOLANA address", addr)

	f.out.mu.Lock()
	before := f.out.all.Len()
	f.out.mu.Unlock()
	f.press("enter")
	teatest.WaitFor(t, f.out, func([]byte) bool {
		f.out.mu.Lock()
		drawn := f.out.all.String()[before:]
		f.out.mu.Unlock()
		return strings.Count(drawn, "▀")+strings.Count(drawn, "▄")+strings.Count(drawn, "█") > 200
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	f.quit()
}

// TestFlowWalletLogin: launch, choose a wallet login with the sandbox demo
// key; the home screen shows the funding address and the signer.
func TestFlowWalletLogin(t *testing.T) {
	f := startFlow(t)
	f.press("shift+tab", "right") // method: wallet signature
	f.press("ctrl+d")             // key source: the sandbox demo key
	f.waitFor("the demo key source", "the sandbox's published development key")
	f.press("enter")
	f.waitFor("the home screen", "Funding address", sandbox.DemoAddress, "Logged in by", "wallet", "Signer")
	f.quit()
}

// TestFlowWrongAPIKey: a refused key is explained, the form stays usable,
// and the right key then logs in.
func TestFlowWrongAPIKey(t *testing.T) {
	f := startFlow(t)
	f.tm.Type("not-a-real-key")
	f.press("enter")
	f.waitFor("the refusal", "Login failed", "not accepted")
	f.tm.Type(sandbox.DemoAPIKey)
	f.press("enter")
	f.waitFor("the home screen", "Funding address", sandbox.DemoAddress)
	f.quit()
}

var _ tea.Model = (*tui.Model)(nil)
