package deposit

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// depositSeeds are deposit listings at the edges SPEC.md §4.5 and §2.5
// allow: no chain, a chain without tokens, on-demand and refused chains,
// the longest names and a Solana address, many chains and tokens.
func depositSeeds() []string {
	const evm = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
	chain := func(name, id, addr string, tokens ...string) string {
		var ts []string
		for _, t := range tokens {
			ts = append(ts, fmt.Sprintf(`{"name":%q,"contract_address":""}`, t))
		}
		return fmt.Sprintf(`{"chain":%q,"chain_id":%q,"deposit_address":%q,"supported_tokens":[%s]}`, name, id, addr, strings.Join(ts, ","))
	}
	long := strings.Repeat("L", 64)
	var many, tokens []string
	for i := range 30 {
		many = append(many, chain(fmt.Sprintf("C%02d", i), fmt.Sprint(i+1), evm, "USDT"))
		tokens = append(tokens, fmt.Sprintf("T%02d", i))
	}
	return []string{
		`{"chains":[]}`,
		`{"chains":null}`,
		`{}`,
		`{"chains":[` + chain("BASE", "8453", evm) + `]}`,
		`{"chains":[{"chain":"BASE","chain_id":"8453","deposit_address":"` + evm + `"}]}`,
		`{"chains":[` + chain("SOLANA", "solana", "", "USDT") + `]}`,
		`{"chains":[` + chain("SOLANA", "solana", "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM", "USDT", "USDC") + `]}`,
		`{"chains":[` + chain("", "", "") + `]}`,
		`{"chains":[` + chain("BASE", "", evm, "") + `]}`,
		`{"chains":[` + chain(long, strings.Repeat("9", 64), evm, strings.Repeat("M", 64)) + `]}`,
		`{"chains":[` + chain("STAGE_X", "stagenet", evm, "USDT") + `]}`,
		`{"chains":[` + chain("BASE", "8453", evm, tokens...) + `]}`,
		`{"chains":[` + strings.Join(many, ",") + `]}`,
		`{"chains":[` + chain("BASE", "8453", evm, "USDT") + `,` + chain("base", "8453", evm, "USDC") + `]}`,
	}
}

// FuzzDepositView: whatever listing the service layer accepts, the deposit
// screen draws at 120x40, 80x24 and 60x20 without a crash, within its
// width, through any walk of its keys; a chain's address it offers is on
// screen whole, and a chain it shows is named.
func FuzzDepositView(f *testing.F) {
	for _, s := range depositSeeds() {
		f.Add(s, "jvjk")
	}
	f.Fuzz(func(t *testing.T, body, walk string) {
		rig := screentest.NewStatusRig(t)
		rig.Bodies.Store(exchange.PathDepositAddresses, []byte(body))
		chains, err := rig.App.Client().DepositAddresses(context.Background())
		if err != nil {
			return // refused: no screen sees it
		}
		for _, size := range [][2]int{{120, 40}, {80, 24}, {60, 20}} {
			d := New(rig.App).(*depositScreen)
			d.SetSize(size[0], size[1])
			d.Update(depositsLoadedMsg{chains: chains})
			for i := 0; ; i++ {
				requireDepositSaid(t, d, size[0], walk[:i])
				if i == len(walk) || i == 32 {
					break
				}
				k := map[byte]string{'j': "down", 'k': "up", 'v': "v"}[walk[i]]
				if k != "" {
					screentest.Press(d, k)
				}
			}
		}
	})
}

func requireDepositSaid(t *testing.T, d *depositScreen, w int, walked string) {
	t.Helper()
	view := ansi.Strip(d.View())
	for _, line := range strings.Split(view, "\n") {
		if ansi.StringWidth(line) > w {
			t.Fatalf("after %q, a line is %d columns wide at %d:\n%s", walked, ansi.StringWidth(line), w, view)
		}
	}
	ch, ok := d.list.Selected()
	if !ok {
		if len(d.list.Items()) == 0 && strings.TrimSpace(view) == "" {
			t.Fatalf("after %q, no chain and nothing said", walked)
		}
		return
	}
	flat := strings.Join(strings.Fields(view), "")
	said := []string{ch.Chain, ch.DepositAddress}
	if l, _ := d.layout(); l == qrAlone {
		said = said[1:] // the code takes the screen: the name is cut, never the address
	}
	for _, want := range said {
		if !strings.Contains(flat, want) {
			t.Fatalf("after %q, the chain chosen is %s at %q, but the screen does not say %q:\n%s", walked, ch.Chain, ch.DepositAddress, want, view)
		}
	}
}

// TestDepositTokenLinesWrapped: a token line wider than the screen (a
// name as long as the service layer takes, with its contract) is wrapped
// whole, never cut at the edge: FuzzDepositView checks the chain's name
// and address, not its tokens.
func TestDepositTokenLinesWrapped(t *testing.T) {
	const contract = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
	name := strings.Repeat("M", 64)
	rig := screentest.NewStatusRig(t)
	rig.Bodies.Store(exchange.PathDepositAddresses, []byte(`{"chains":[{"chain":"BASE","chain_id":"8453","deposit_address":"`+contract+
		`","supported_tokens":[{"name":"`+name+`","contract_address":"`+contract+`"}]}]}`))
	chains, err := rig.App.Client().DepositAddresses(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{120, 40}, {80, 24}, {60, 20}} {
		d := New(rig.App).(*depositScreen)
		d.SetSize(size[0], size[1])
		d.Update(depositsLoadedMsg{chains: chains})
		view := ansi.Strip(d.View())
		if !strings.Contains(strings.Join(strings.Fields(view), ""), name+contract) {
			t.Errorf("%dx%d: the token line is not said whole:\n%s", size[0], size[1], view)
		}
	}
}
