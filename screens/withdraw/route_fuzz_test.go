package withdraw

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// routeSeeds are withdrawal infos at the edges SPEC.md §4.7 and §2.8 allow:
// no source token, one without routes, a route without payout tokens, the
// longest names the service layer takes, many routes, a chain named twice.
func routeSeeds() []string {
	const fund = `"provider":"bridge","funding_address":"0x1111111111111111111111111111111111111111"`
	route := func(chain, id, typ string, outs ...string) string {
		return fmt.Sprintf(`{"chain":%q,"chain_id":%q,"chain_type":%q,"tokens_out":["%s"]}`, chain, id, typ, strings.Join(outs, `","`))
	}
	long := strings.Repeat("L", 64)
	var many []string
	for i := range 40 {
		many = append(many, route(fmt.Sprintf("C%02d", i), fmt.Sprint(i+1), "evm", "USDT", "USDC"))
	}
	return []string{
		`{` + fund + `,"route":{}}`,
		`{` + fund + `,"route":null}`,
		`{` + fund + `}`,
		`{"provider":"","funding_address":"0x1111111111111111111111111111111111111111","route":{"USDT":[]}}`,
		`{` + fund + `,"route":{"USDT":[],"USDC":[]}}`,
		`{` + fund + `,"route":{"USDC":[` + route("BASE", "8453", "evm", "USDC") + `]}}`,
		`{` + fund + `,"route":{"USDT":[{"chain":"BASE","chain_id":"8453","chain_type":"evm","tokens_out":[]}]}}`,
		`{` + fund + `,"route":{"USDT":[{"chain":"BASE","chain_id":"8453","chain_type":"evm"}]}}`,
		`{` + fund + `,"route":{"USDT":[` + route("BASE", "8453", "evm", "USDT", "USDC", "DAI") + `,` + route("BASE", "8453", "evm", "USDT") + `]}}`,
		`{` + fund + `,"route":{"USDT":[` + route("base", "8453", "evm", "USDT", "USDC") + `,` + route("BASE", "8453", "evm", "USDT") + `]}}`,
		`{` + fund + `,"route":{"USDT":[` + route("BASE", "8453", "evm", "USDT", "USDT") + `]}}`,
		`{` + fund + `,"route":{"USDT":[` + route("", "", "evm", "") + `]}}`,
		`{` + fund + `,"route":{"":[` + route("BASE", "8453", "evm", "USDT") + `]}}`,
		`{` + fund + `,"route":{"` + long + `":[` + route(long, strings.Repeat("9", 64), "evm", long, strings.Repeat("M", 64)) + `]}}`,
		`{` + fund + `,"route":{"USDT":[` + route("STAGE_X", "stagenet", "solana", "USDT") + `]}}`,
		`{` + fund + `,"route":{"USDT":[` + strings.Join(many, ",") + `]}}`,
	}
}

// FuzzRouteView: whatever withdrawal info the service layer accepts, the
// route step draws at 120x40, 80x24 and 60x20 without a crash, within its
// width, through any walk of its keys; the line saying what is sent and
// received names the chain and a payout token of the route chosen. One it
// refuses is said whole there.
func FuzzRouteView(f *testing.F) {
	for _, s := range routeSeeds() {
		f.Add(s, "lljk\r")
		f.Add(s, "jljtljk\r")
	}
	f.Fuzz(func(t *testing.T, body, walk string) {
		rig := screentest.NewStatusRig(t)
		rig.Bodies.Store(exchange.PathWithdrawalInfo, []byte(body))
		info, err := rig.App.Client().WithdrawalInfo(context.Background())
		if err != nil {
			requireRefusalSaid(t, rig, err)
			return
		}
		for _, at := range []struct {
			size  [2]int
			noKey bool // the notice that no key here signs takes lines
		}{{[2]int{120, 40}, false}, {[2]int{80, 24}, false}, {[2]int{60, 20}, false}, {[2]int{80, 24}, true}, {[2]int{60, 20}, true}} {
			size := at.size
			// Drawn in the root's frame, which gives the screen the lines
			// under its bars: a line past them is lost, as on a terminal.
			r := New(rig.App).(*routeScreen)
			root := tui.New(r, tui.Options{Theme: "dark", Common: rig.App.Common})
			screentest.Feed(root, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			r.Update(withdrawalInfoMsg{info: info})
			if at.noKey {
				r.Update(kit.SigningKeyMsg{NoKey: &signer.NoKeyError{Account: common.HexToAddress(sandbox.DemoAddress)}})
			}
			for i := 0; ; i++ {
				requireRouteSaid(t, r, root, size, walk[:i])
				if i == len(walk) || i == 32 {
					break
				}
				k := map[byte]string{'j': "down", 'k': "up", 'l': "right", 'h': "left", 't': "tab", '\r': "enter"}[walk[i]]
				if k != "" {
					screentest.Press(r, k)
				}
			}
		}
	})
}

// requireRefusalSaid: an answer refused is said whole, with what to do,
// where the route step would be; it was cut at the edge, on one line.
func requireRefusalSaid(t *testing.T, rig *screentest.StatusRig, err error) {
	t.Helper()
	said := strings.Join(strings.Fields(exchange.Explain(err).Error()), "")
	for _, size := range [][2]int{{120, 40}, {80, 24}, {60, 20}} {
		r := New(rig.App).(*routeScreen)
		r.SetSize(size[0], size[1])
		r.Update(withdrawalInfoMsg{err: err})
		view := ansi.Strip(r.View())
		if !strings.Contains(strings.Join(strings.Fields(view), ""), said) {
			t.Fatalf("%dx%d: the refusal is not said whole:\n%s", size[0], size[1], view)
		}
	}
}

func requireRouteSaid(t *testing.T, r *routeScreen, root *tui.Model, size [2]int, walked string) {
	t.Helper()
	view := ansi.Strip(screentest.CheckFrame(t, root.View().Content, size[0], size[1]))
	rt, ok := r.list.Selected()
	if !ok || len(rt.TokensOut) == 0 {
		return
	}
	// Wrapped where it must be, the sentence says the names whole.
	flat := strings.Join(strings.Fields(view), "")
	if want := "receive " + rt.TokensOut[r.payout] + " on " + rt.Chain + "."; !strings.Contains(flat, strings.Join(strings.Fields(want), "")) {
		t.Fatalf("after %q, the route chosen is %s paying %v, but the screen does not say %q:\n%s", walked, rt.Chain, rt.TokensOut, want, view)
	}
}
