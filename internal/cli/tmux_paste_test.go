//go:build e2e && unix

package cli

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestTmuxPasteCarriesNoKeys pastes, bracketed by tmux, into the empty
// amount field of the destination form a text that ends the paste early
// and types tab 25 enter enter, then opens a paste of its own holding 7.
// The keys do nothing (the form is not submitted, the fee cap stays empty,
// and a toast says why); the 7 arrives last, as text, in the amount field,
// which shows every key before it was handled (the toast lasts 8 s).
func TestTmuxPasteCarriesNoKeys(t *testing.T) {
	r := newWithdrawRig(t, sandbox.Options{})
	r.login()
	r.keys("w")
	r.waitShows("DESTINATION", "ARBITRUM")
	r.keys("Enter")
	r.waitShows("Withdraw: destination")
	r.keys("-l", sandbox.DestCompleted)
	r.keys("Tab")
	r.waitShows("valid EVM address", "› Amount USDT")

	r.must("set-buffer", "-b", "hostile", "\x1b[201~\t25\r\r\x1b[200~7")
	r.must("paste-buffer", "-p", "-b", "hostile", "-t", "main")
	var p string
	r.waitFor("the pasted 7 in the amount field", func() bool {
		p = r.pane()
		return strings.Contains(p, "› Amount USDT    7\n")
	})
	if !strings.Contains(p, "Withdraw: destination") || !strings.Contains(p, "Fee cap USDT   optional") ||
		!strings.Contains(strings.Join(strings.Fields(p), " "), "came with a paste") {
		t.Fatalf("the paste's keys acted, or no word of them:\n%s", p)
	}
}
