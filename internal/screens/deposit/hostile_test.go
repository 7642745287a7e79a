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

	"github.com/svcwallet/svcwallet/internal/config"
	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/sandbox"
	"github.com/svcwallet/svcwallet/internal/screens/screentest"
	"github.com/svcwallet/svcwallet/internal/tui"
)

// TestDepositRefusesHostileAddress: a proxy rewrites the first chain's
// deposit address into a shell command. The screen shows the chain as
// refused with the reason, and neither copies it nor draws it as a QR code.
func TestDepositRefusesHostileAddress(t *testing.T) {
	d, c := loadedDeposit(t, 120, 38, sandbox.Options{})
	target, _ := url.Parse(c.Srv.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(r *http.Response) error {
		if r.Request.URL.Path != exchange.PathDepositAddresses {
			return nil
		}
		var body map[string][]map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			return err
		}
		body["chains"][0]["deposit_address"] = sandbox.DemoAddress + "\necho owned\n\x1b]52;c;ZXZpbA==\x07"
		b, _ := json.Marshal(body)
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
		r.Header.Del("Content-Length")
		return nil
	}
	hostile := httptest.NewServer(proxy)
	t.Cleanup(hostile.Close)
	c.App.Target.Client = exchange.New(config.SandboxEnvironment(hostile.URL, sandbox.DefaultChainID), exchange.Options{APIKey: sandbox.DemoAPIKey})

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
		if _, ok := m.(tea.RawMsg); ok || m == tea.SetClipboard(d.list.Item(0).RefusedAddress)() {
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
