package withdraw

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// pressed finds the keys a screen's words promise.
var pressed = regexp.MustCompile(`[Pp]ress (\S+?)[ ,.;]`)

// TestReviewOutcomeShownAtEverySize (found by review, in tmux): once a send
// was refused or answered, the review says what happened whatever its
// size down to 60x20: a refusal this quote may be signed again after (the
// bridge's liquidity, 9102), a journal that could not record the intent,
// an answer it could not record, a wrong passphrase, a quote late at the
// service, a final refusal, an acceptance. At 60x20 the first three showed
// "Too small to review" instead, and the person never learnt why nothing
// was sent. Every key its words name acts; "Too small to review" is said
// only while there is something to sign and nothing else to read.
func TestReviewOutcomeShownAtEverySize(t *testing.T) {
	const path = "/home/someone/.local/share/svcwallet/keystore/UTC--2026-11-29T13-53-53996148000Z--f39fd6e51aad88f6f4ce6ab8827279cfffb92266"
	journalErr := exchange.UserError{Head: "Not sent", Text: "the withdrawal journal /home/someone/.local/state/svcwallet/journal.jsonl could not record it (no space left on device). Nothing left svcwallet; free disk space, and make sure the journal is a file of yours (not a link or a directory) in a directory only you can write, then try again."}
	liquidity := &exchange.APIError{Status: 403, Code: exchange.CodeLimitReached, Message: "the bridge can pay out at most 500 USDT on KAIA right now"}
	for _, tc := range []struct {
		name string
		sent withdrawal.Sent
		want string
	}{
		{"liquidity", withdrawal.Sent{Err: liquidity, Signed: true}, "the bridge can pay out at most 500 USDT on KAIA right now"},
		{"journal", withdrawal.Sent{Err: journalErr}, "could not record it (no space left on device)"},
		{"unrecorded", withdrawal.Sent{Err: liquidity, Signed: true, Unrecorded: &withdrawal.UnrecordedError{QuoteID: "q-test", Journal: errors.New("no space left on device")}},
			"resume it from History once the disk has room"},
		{"unrecorded_long", withdrawal.Sent{Err: liquidity, Signed: true, Unrecorded: &withdrawal.UnrecordedError{QuoteID: "q-test", Journal: errors.New("no space left on device"),
			Bridge: errors.New("open /home/someone/.local/state/svcwallet/bridges.json: no space left on device (write /home/someone/.local/state/svcwallet)"), Address: "0x6e3a360d75Dd3E83948f7977b92b21827a89E012"}},
			"resume it from History once the disk has room"},
		{"passphrase", withdrawal.Sent{Err: &signer.WrongPassphraseError{File: path}}, "wrong passphrase for the keystore key in " + path},
		{"late", withdrawal.Sent{Err: exchange.ErrQuoteExpired, Signed: true}, "Quote expired before it was executed: press ctrl+r"},
		{"flagged", withdrawal.Sent{Err: &exchange.APIError{Status: 403, Code: exchange.CodeAddressFlagged}, Signed: true}, "Not withdrawn"},
		{"accepted", withdrawal.Sent{Signed: true}, "Withdrawal accepted: opening its status"},
	} {
		for _, size := range [][2]int{{60, 18}, {80, 22}, {120, 38}} { // the screen's part of the terminal
			t.Run(fmt.Sprintf("%s/%dx%d", tc.name, size[0], size[1]+2), func(t *testing.T) {
				app, now := screentest.LoggedInApp(t)
				app.Nonce = func() uint32 { return 7 }
				app.Makers.Home = func(*kit.App) tui.Screen { return nil }
				app.Makers.Status = func(*kit.App, string) tui.Screen { return nil }
				r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, size[0], size[1], signer.Found{Place: signer.KeyInKeystore, Path: path})
				r.Update(executedMsg{tc.sent})
				*now = now.Add(kit.ShownGuard) // the outcome read: its keys act
				view := r.View()
				lines := strings.Split(view, "\n")
				if len(lines) > size[1] || strings.Contains(view, "Too small to review") || !strings.Contains(squash(view), squash(tc.want)) {
					t.Fatalf("%d lines, lacks %q whole:\n%s", len(lines), tc.want, ansi.Strip(view))
				}
				for i, l := range lines {
					if n := ansi.StringWidth(l); n > size[0] {
						t.Errorf("line %d is %d cells: %q", i+1, n, ansi.Strip(l))
					}
				}
				for _, m := range pressed.FindAllStringSubmatch(ansi.Strip(view), -1) {
					if !screentest.Offers(r.KeyMap(), m[1]) {
						t.Errorf("names %s, which does not act:\n%s", m[1], ansi.Strip(view))
					}
				}
				golden.RequireEqual(t, []byte(ansi.Strip(view)))
			})
		}
	}
}
