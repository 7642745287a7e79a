package deposit

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// TestDepositRefusesHostileAddress: a proxy rewrites the first chain's
// deposit address into a shell command. The screen shows the chain as
// refused with the reason, and neither copies it nor draws it as a QR code.
func TestDepositRefusesHostileAddress(t *testing.T) {
	d, c := loadedDeposit(t, 120, 38, sandbox.Options{})
	rewriteChains(t, c, exchange.PathDepositAddresses, func(ch map[string]any) {
		if ch["chain"] == "ARBITRUM" { // the first listed
			ch["deposit_address"] = sandbox.DemoAddress + "\necho owned\n\x1b]52;c;ZXZpbA==\x07"
		}
	})

	d.Update(screentest.FindMsg[depositsLoadedMsg](t, screentest.RunCmdSync(t, d.load())))
	if ch, _ := d.list.Selected(); ch.AddressProblem == "" {
		t.Fatalf("the hostile address was not refused: %+v", d.list.Item(0))
	}
	view := d.View()
	if !strings.Contains(view, "refused: it failed its check") || strings.Contains(view, "\x1b]52") || strings.Contains(view, "ZXZpbA") {
		t.Fatalf("view:\n%s", view)
	}
	for _, b := range d.KeyMap().ShortHelp() {
		if b.Enabled() && (b.Help().Key == "c" || b.Help().Key == "enter") {
			t.Errorf("the footer offers %s on a refused address", b.Help().Key)
		}
	}
	_, cmd := d.Update(screentest.Key("c"))
	msgs := screentest.RunCmdSync(t, cmd)
	for _, m := range msgs {
		if _, ok := m.(tea.RawMsg); ok || m == tea.Raw(ansi.SetSystemClipboard(d.list.Item(0).RefusedAddress))() {
			t.Fatalf("the refused address reached the clipboard: %#v", m)
		}
	}
	if e := screentest.FindMsg[tui.ErrorMsg](t, msgs); !strings.Contains(e.Err.Error(), "failed its check") {
		t.Errorf("copy said %v", e.Err)
	}
	d.Update(screentest.Key("enter"))
	if v := d.View(); strings.Contains(v, "█") || strings.Contains(v, "▀") || !strings.Contains(v, "No QR code for a refused address") {
		t.Errorf("a QR code was drawn for the refused address:\n%s", v)
	}
}

// rewriteChains puts a proxy in front of the console's sandbox that lets
// f change each chain of the answers on path (the listing's chains, or
// generate-address's one).
func rewriteChains(t *testing.T, c *screentest.Console, path string, f func(ch map[string]any)) {
	t.Helper()
	target, _ := url.Parse(c.Srv.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(r *http.Response) error {
		if r.Request.URL.Path != path {
			return nil
		}
		b, err := io.ReadAll(r.Body)
		if err != nil {
			return err
		}
		var body map[string]any
		if err := json.Unmarshal(b, &body); err != nil {
			return err
		}
		if chains, ok := body["chains"].([]any); ok {
			for _, ch := range chains {
				f(ch.(map[string]any))
			}
		} else {
			f(body)
		}
		b, _ = json.Marshal(body)
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
		r.Header.Del("Content-Length")
		return nil
	}
	hostile := httptest.NewServer(proxy)
	t.Cleanup(hostile.Close)
	c.App.Target.Client = exchange.New(config.SandboxEnvironment(hostile.URL, sandbox.DefaultChainID), exchange.Options{APIKey: sandbox.DemoAPIKey})
}

// requireRefusedChain checks the selected chain is refused for why: shown
// so, its address neither offered, copied, drawn nor generated.
func requireRefusedChain(t *testing.T, d *depositScreen, chain, why string) {
	t.Helper()
	ch, _ := d.list.Selected()
	if ch.Chain != chain || ch.DepositAddress != "" || !strings.Contains(ch.AddressProblem, why) {
		t.Fatalf("selected %+v, want %s refused: %s", ch, chain, why)
	}
	if v := ansi.Strip(d.View()); !strings.Contains(v, "refused") || !strings.Contains(strings.Join(strings.Fields(v), " "), why) {
		t.Errorf("the view does not say why %s is refused:\n%s", chain, v)
	}
	for _, b := range d.KeyMap().ShortHelp() {
		if h := b.Help().Key; b.Enabled() && (h == "c" || h == "enter" || h == "g") {
			t.Errorf("the footer offers %s on %s", h, chain)
		}
	}
	for _, k := range []string{"c", "g"} {
		_, cmd := d.Update(screentest.Key(k))
		msgs := screentest.RunCmdSync(t, cmd)
		for _, m := range msgs {
			// tea.RawMsg: any clipboard write, whatever it holds.
			switch m.(type) {
			case tea.RawMsg, addressGeneratedMsg, depositsLoadedMsg:
				t.Fatalf("%s on %s sent %#v", k, chain, m)
			}
		}
		if e := screentest.FindMsg[tui.ErrorMsg](t, msgs); !strings.Contains(e.Err.Error(), why) {
			t.Errorf("%s on %s said %v", k, chain, e.Err)
		}
	}
	d.Update(screentest.Key("enter"))
	if v := d.View(); strings.Contains(v, "█") || strings.Contains(v, "▀") || !strings.Contains(v, "No QR code for a refused address") {
		t.Errorf("a QR code was drawn for %s:\n%s", chain, v)
	}
	d.Update(screentest.Key("enter"))
}

// TestDepositRefusesChainTypeMismatch: the service lists SOLANA with chain
// id 1 and an EVM address, TRON with chain id 56; then answers SOLANA's
// generate-address with chain id 1 and an EVM address. Neither chain's
// address is shown, copied, drawn or generated, and each says why.
func TestDepositRefusesChainTypeMismatch(t *testing.T) {
	d, c := loadedDeposit(t, 120, 38, sandbox.Options{})
	rewriteChains(t, c, exchange.PathDepositAddresses, func(ch map[string]any) {
		switch ch["chain"] {
		case "SOLANA":
			ch["chain_id"], ch["deposit_address"] = "1", sandbox.DemoAddress
		case "TRON":
			ch["chain_id"] = "56"
		}
	})
	d.Update(screentest.FindMsg[depositsLoadedMsg](t, screentest.RunCmdSync(t, d.load())))
	d.Update(screentest.Key("end"))
	requireRefusedChain(t, d, "SOLANA", "its name SOLANA makes it a Solana chain but its chain id 1 is an EVM chain's")
	d.Update(screentest.Key("up"))
	requireRefusedChain(t, d, "TRON", "its name TRON makes it a Tron chain but its chain id 56 is an EVM chain's")

	d, c = loadedDeposit(t, 120, 38, sandbox.Options{})
	rewriteChains(t, c, exchange.PathGenerateAddress, func(ch map[string]any) {
		ch["chain_id"], ch["deposit_address"] = "1", sandbox.DemoAddress
	})
	d.Update(screentest.Key("end"))
	_, cmd := d.Update(screentest.Key("g"))
	_, cmd = d.Update(screentest.FindMsg[addressGeneratedMsg](t, screentest.RunCmdSync(t, cmd)))
	if e := screentest.FindMsg[tui.ErrorMsg](t, screentest.RunCmdSync(t, cmd)); !strings.Contains(e.Err.Error(), "chain id 1") {
		t.Errorf("the generated address was not refused: %v", e.Err)
	}
	requireRefusedChain(t, d, "SOLANA", "its name SOLANA makes it a Solana chain but its chain id 1 is an EVM chain's")
}

// TestDepositGenerateHeldToTheListing: the listing gives SYNTH_0001, a
// staging chain with no address yet, chain id 1000000; generating answers
// chain id 31337. The screen refuses that address (Client.GenerateFor), as
// deposit generate and plain mode do: the network it is on is in doubt.
func TestDepositGenerateHeldToTheListing(t *testing.T) {
	d, c := loadedDeposit(t, 120, 38, sandbox.Options{ExtraChains: 1})
	rewriteChains(t, c, exchange.PathDepositAddresses, func(ch map[string]any) {
		if ch["chain"] == "SYNTH_0001" {
			ch["deposit_address"] = ""
		}
	})
	d.Update(screentest.FindMsg[depositsLoadedMsg](t, screentest.RunCmdSync(t, d.load())))
	rewriteChains(t, c, exchange.PathGenerateAddress, func(ch map[string]any) { ch["chain_id"] = "31337" })
	d.Update(screentest.Key("end"))
	_, cmd := d.Update(screentest.Key("g"))
	_, cmd = d.Update(screentest.FindMsg[addressGeneratedMsg](t, screentest.RunCmdSync(t, cmd)))
	const why = "the listing gives SYNTH_0001 chain id 1000000, and generating its address gave 31337"
	if e := screentest.FindMsg[tui.ErrorMsg](t, screentest.RunCmdSync(t, cmd)); !strings.Contains(e.Err.Error(), why) {
		t.Errorf("the generated address was not refused: %v", e.Err)
	}
	requireRefusedChain(t, d, "SYNTH_0001", why)
}
