package deposit

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// loadedDeposit is a deposit screen of the demo account, sized w×h, whose
// listing has arrived; sb tunes the sandbox (e.g. ExtraChains).
func loadedDeposit(t testing.TB, w, h int, sb sandbox.Options) (*depositScreen, *screentest.Console) {
	t.Helper()
	c := screentest.NewLoggedInConsole(t, 120, 40, screentest.ConsoleOpts{Sandbox: sb})
	d := New(c.App).(*depositScreen)
	d.SetSize(w, h)
	msgs := screentest.RunCmdSync(t, d.Init())
	d.Update(screentest.FindMsg[depositsLoadedMsg](t, msgs))
	if d.loading || d.err != nil || d.list.Len() == 0 {
		t.Fatalf("deposit list did not load: err=%v, %d chains", d.err, d.list.Len())
	}
	return d, c
}

// TestDepositIdle: the spinner runs while the listing and a generation are
// in flight, and stops when they answer; nothing is scheduled while idle.
func TestDepositIdle(t *testing.T) {
	c := screentest.NewLoggedInConsole(t, 120, 40, screentest.ConsoleOpts{})
	d := New(c.App).(*depositScreen)
	d.SetSize(120, 38)
	msgs := screentest.RunCmdSync(t, d.Init())
	tick := screentest.FindMsg[spinner.TickMsg](t, msgs)
	if _, cmd := d.Update(tick); cmd == nil {
		t.Fatal("while loading, a spinner tick schedules no next tick: the control is broken")
	}
	if _, cmd := d.Update(screentest.FindMsg[depositsLoadedMsg](t, msgs)); cmd != nil {
		t.Error("the loaded listing returned a command")
	}
	// A tick already on its way when the answer came is the last one.
	screentest.RequireIdle(t, d, "after loading", d.spin.Tick())
	screentest.RequireIdle(t, d, "after loading", screentest.OtherMsgs()...)

	d.Update(screentest.Key("end")) // SOLANA
	_, cmd := d.Update(screentest.Key("g"))
	msgs = screentest.RunCmdSync(t, cmd)
	if _, cmd := d.Update(screentest.FindMsg[spinner.TickMsg](t, msgs)); cmd == nil {
		t.Fatal("while generating, the spinner does not tick")
	}
	d.Update(screentest.FindMsg[addressGeneratedMsg](t, msgs))
	screentest.RequireIdle(t, d, "after generating", d.spin.Tick())
	screentest.RequireIdle(t, d, "after generating", screentest.OtherMsgs()...)
	d.Update(screentest.Key("enter")) // QR shown: still nothing moves
	screentest.RequireIdle(t, d, "QR shown", d.spin.Tick())
}

// TestDepositCopy: c sets the clipboard with OSC 52, and inside tmux also
// sends the sequence wrapped for tmux passthrough. Inside tmux the toast
// follows tmux's set-clipboard (issue 12 bug 10): with off or external the
// copy never reaches the terminal, and the toast says how to let it through.
func TestDepositCopy(t *testing.T) {
	d, c := loadedDeposit(t, 120, 38, sandbox.Options{})
	addr := d.list.Item(0).DepositAddress
	osc := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(addr)) + "\a"
	for _, setClipboard := range []string{"", "on", "external", "off"} {
		inTmux := setClipboard != ""
		t.Run("tmux set-clipboard="+setClipboard, func(t *testing.T) {
			c.Env["TMUX"] = ""
			asked := false
			c.App.TmuxClipboard = func() (string, error) { asked = true; return setClipboard + "\n", nil }
			if inTmux {
				c.Env["TMUX"] = "/tmp/tmux-0/default,1,0"
			}
			_, cmd := d.Update(screentest.Key("c"))
			msgs := screentest.RunCmdSync(t, cmd)
			want := tea.Raw(ansi.SetSystemClipboard(addr))()
			var gotClip bool
			var raw []string
			for _, m := range msgs {
				if m == want {
					gotClip = true
				} else if r, ok := m.(tea.RawMsg); ok {
					raw = append(raw, fmt.Sprint(r.Msg))
				}
			}
			if !gotClip {
				t.Errorf("no clipboard message for %s among %#v", addr, msgs)
			}
			wrapped := "\x1bPtmux;" + strings.ReplaceAll(osc, "\x1b", "\x1b\x1b") + "\x1b\\"
			switch {
			case inTmux && (len(raw) != 1 || raw[0] != wrapped):
				t.Errorf("in tmux: raw output besides the clipboard %q, want %q", raw, wrapped)
			case !inTmux && len(raw) != 0:
				t.Errorf("outside tmux: unexpected raw output besides the clipboard %q", raw)
			}
			if asked != inTmux {
				t.Errorf("tmux asked: %v, inside tmux: %v", asked, inTmux)
			}
			if setClipboard == "off" || setClipboard == "external" {
				e := screentest.FindMsg[tui.ErrorMsg](t, msgs)
				if !strings.Contains(e.Err.Error(), "tmux set -g set-clipboard on") || !strings.Contains(e.Err.Error(), "Not copied") {
					t.Errorf("toast %q does not say the copy stops at tmux and how to enable it", e.Err)
				}
				return
			}
			if info := screentest.FindMsg[tui.InfoMsg](t, msgs); !strings.Contains(info.Text, "Copied") || !strings.Contains(info.Text, addr) {
				t.Errorf("toast %q does not show the copied address", info.Text)
			}
		})
	}
	c.Env["TMUX"] = ""
	d.Update(screentest.Key("end")) // SOLANA, not provisioned: nothing to copy
	msgs := screentest.RunCmdSync(t, func() tea.Cmd { _, cmd := d.Update(screentest.Key("c")); return cmd }())
	for _, m := range msgs {
		if _, ok := m.(tui.InfoMsg); !ok {
			t.Errorf("copying an unprovisioned chain sent %#v", m)
		}
	}
}

// TestDepositManyChains: with 1,000 chains only the visible rows are drawn,
// the cursor stays on screen, and the position is shown.
func TestDepositManyChains(t *testing.T) {
	d, _ := loadedDeposit(t, 120, 38, sandbox.Options{ExtraChains: 1000})
	if d.list.Len() != 1007 {
		t.Fatalf("%d chains, want 1007", d.list.Len())
	}
	for range 500 {
		d.Update(screentest.Key("down"))
	}
	v := ansi.Strip(d.View())
	if n := strings.Count(v, "SYNTH_"); n > 38 || n < 10 {
		t.Errorf("%d chain rows drawn for 38 lines", n)
	}
	sel := d.list.Item(500).Chain
	if !strings.Contains(v, "› "+sel) {
		t.Errorf("the selected chain %s is not visible:\n%s", sel, v)
	}
	if !strings.Contains(v, "of 1007 chains") {
		t.Errorf("no position shown:\n%s", v)
	}
	if lines := strings.Count(v, "\n") + 1; lines > 38 {
		t.Errorf("view has %d lines for 38", lines)
	}
}

// TestDepositProviderUnreachable: empty stablecoin contracts are explained.
func TestDepositProviderUnreachable(t *testing.T) {
	c := screentest.NewLoggedInConsole(t, 120, 40, screentest.ConsoleOpts{})
	c.Srv.Exchange.SetProviderReachable(false)
	c.Open(New(c.App))
	c.UntilShows("CHAIN ID", "SOLANA")
	if v := c.Plain(); !strings.Contains(v, "USDT    unknown: provider unreachable") {
		t.Errorf("no provider-unreachable wording:\n%s", v)
	}
}

// TestDepositHomeEnd: End selects the last chain and Home the first, in view;
// g generates there, so it does not jump; the detail's "chain id" lines up
// with the address under it.
func TestDepositHomeEnd(t *testing.T) {
	d, _ := loadedDeposit(t, 120, 38, sandbox.Options{ExtraChains: 100})
	last := d.list.Item(d.list.Len() - 1)
	d.Update(screentest.Key("end"))
	if v := ansi.Strip(d.View()); !strings.Contains(v, "› "+last.Chain) {
		t.Fatalf("End did not select %s:\n%s", last.Chain, v)
	}
	d.Update(screentest.Key("home"))
	if v := ansi.Strip(d.View()); !strings.Contains(v, "› "+d.list.Item(0).Chain) {
		t.Fatalf("Home did not select %s:\n%s", d.list.Item(0).Chain, v)
	}
	for _, downs := range []int{0, 6} { // ARBITRUM, SOLANA
		d.Update(screentest.Key("home"))
		for range downs {
			d.Update(screentest.Key("down"))
		}
		ch, _ := d.list.Selected()
		var head, addr string
		for _, l := range strings.Split(ansi.Strip(d.View()), "\n") {
			switch {
			case strings.HasPrefix(l, ch.Chain+" ") && strings.Contains(l, "chain id"):
				head = l
			case strings.HasPrefix(l, "Address "):
				addr = l
			}
		}
		valueAt := len(addr) - len(strings.TrimLeft(addr[len("Address"):], " "))
		if head == "" || strings.Index(head, "chain id") != valueAt {
			t.Errorf("%s: %q not aligned with %q", ch.Chain, head, addr)
		}
	}
}

// TestCopyWithoutAddressNamesOnlyKeysThatAct: c on a chain without an
// address says to press g only when g would generate one; while a
// generation runs (g is off), it says what is being generated instead.
func TestCopyWithoutAddressNamesOnlyKeysThatAct(t *testing.T) {
	d, _ := loadedDeposit(t, 120, 38, sandbox.Options{})
	d.Update(screentest.Key("end")) // SOLANA, no address yet
	info := func(when string) string {
		_, cmd := d.Update(screentest.Key("c"))
		return screentest.FindMsg[tui.InfoMsg](t, screentest.RunCmdSync(t, cmd)).Text
	}
	if got := info("idle"); !strings.Contains(got, "press g") {
		t.Fatalf("idle: %q, want it to name g", got)
	}
	d.Update(screentest.Key("g"))
	if got := info("generating"); strings.Contains(got, "press g") || !strings.Contains(got, "being generated") {
		t.Fatalf("while generating: %q names a key that does nothing", got)
	}
}

// TestDepositAddressNeverCut (issue 21 bug 7): at the narrowest terminal
// the chain's name and id give way and every address is drawn whole.
func TestDepositAddressNeverCut(t *testing.T) {
	d, _ := loadedDeposit(t, 60, 18, sandbox.Options{})
	d.Update(screentest.Key("end")) // SOLANA, the last
	_, cmd := d.Update(screentest.Key("g"))
	if ch, _ := d.list.Selected(); ch.Chain != "SOLANA" {
		t.Fatalf("g moved the cursor to %s: it generates here", ch.Chain)
	}
	d.Update(screentest.FindMsg[addressGeneratedMsg](t, screentest.RunCmdSync(t, cmd)))
	v := ansi.Strip(d.View())
	lines := strings.Split(v, "\n")
	head := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "DEPOSIT ADDRESS") })
	if head < 0 || len(lines) < head+1+d.list.Len() {
		t.Fatalf("no list of %d chains:\n%s", d.list.Len(), v)
	}
	for i := range d.list.Len() {
		ch, row := d.list.Item(i), lines[head+1+i]
		if !strings.HasSuffix(row, " "+ch.DepositAddress) {
			t.Errorf("%s's address %s is not drawn whole at 60 columns: %q\n%s", ch.Chain, ch.DepositAddress, row, v)
		}
	}
}

// TestDepositNamesOnlyKeysThatAct: the row, the address and the QR line of
// a chain with no address say to press g only while g generates one: not
// while a generation runs (g is off until it answers), nor while another
// chain is selected (g is that chain's: the first screen's SOLANA row said
// to press g, which said ARBITRUM has an address), the QR shown or not.
func TestDepositNamesOnlyKeysThatAct(t *testing.T) {
	for _, qr := range []bool{false, true} {
		d, _ := loadedDeposit(t, 120, 38, sandbox.Options{})
		if qr { // shown on the first chain, it stays on
			d.Update(screentest.Key("enter"))
		}
		acts := func(k string) bool { return screentest.Offers(d.KeyMap(), k) }
		screentest.RequireNamedKeysAct(t, fmt.Sprintf("QR %v, the first chain", qr), d.View(), acts)
		d.Update(screentest.Key("end")) // SOLANA, no address yet
		if v := ansi.Strip(d.View()); qr != strings.Contains(v, "No QR code until") {
			t.Fatalf("QR %v:\n%s", qr, v)
		}
		if keys := screentest.NamedKeys(d.View()); !slices.Contains(keys, "g") {
			t.Fatalf("QR %v, idle: names %v, not g:\n%s", qr, keys, ansi.Strip(d.View()))
		}
		screentest.RequireNamedKeysAct(t, fmt.Sprintf("QR %v, idle", qr), d.View(), acts)
		d.Update(screentest.Key("g")) // its answer not delivered: generating
		screentest.RequireNamedKeysAct(t, fmt.Sprintf("QR %v, generating", qr), d.View(), acts)
		// Another chain's generation runs (the sandbox has one chain on
		// demand): this one's row and address name no g either.
		d.generating = "TRON"
		screentest.RequireNamedKeysAct(t, fmt.Sprintf("QR %v, another generating", qr), d.View(), acts)
	}
}
