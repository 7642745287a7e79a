package builder

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// The drawn builder screens: goldens, narrow terminals, alignment.

// bldGoldenStates are the builder screens in the states the goldens show.
var bldGoldenStates = []struct {
	name  string
	reach func(r *bldRig)
}{
	{"form_empty", func(r *bldRig) { r.openForm() }},
	{"form_filled_key", func(r *bldRig) {
		r.openForm()
		r.fill(sandbox.BuilderAddress, "0.1", "0.05", "")
		r.keySection("market maker bot", sandbox.NoChainAddress)
		r.Press("1")
	}},
	{"review_authorize", func(r *bldRig) {
		r.openForm()
		r.fill(sandbox.BuilderAddress, "0.1", "0.05", "")
		r.toReview()
	}},
	{"review_with_key", func(r *bldRig) {
		r.openForm()
		r.fill(sandbox.BuilderAddress, "0.1", "0.05", "14d")
		r.keySection("market maker bot", sandbox.NoChainAddress)
		r.toReview()
	}},
	{"result_with_key", func(r *bldRig) {
		r.openForm()
		r.fill(sandbox.BuilderAddress, "0.1", "0.05", "")
		r.keySection("market maker bot", sandbox.NoChainAddress)
		r.toReview()
		r.signAndWait()
		r.UntilShows("API key for the builder")
	}},
}

func TestBuilderGolden(t *testing.T) {
	for _, st := range bldGoldenStates {
		t.Run(st.name, func(t *testing.T) {
			r := newBldRig(t, 120, 40)
			st.reach(r)
			for _, sz := range []struct{ w, h int }{{60, 20}, {80, 24}, {120, 40}} {
				t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
					r.Send(tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
					if strings.HasPrefix(st.name, "review") {
						r.clock.Advance(kit.ShownGuard) // the review holds its keys a while once its area grew
					}
					frame := r.Plain()
					// The sandbox draws a random API key: keep its length, fix its text.
					if i := strings.Index(frame, "sbx-"); i >= 0 {
						k := bldAPIKey(t, frame)
						frame = strings.ReplaceAll(frame, k, "sbx-"+strings.Repeat("x", len(k)-4))
					}
					for i, l := range strings.Split(frame, "\n") {
						if w := ansi.StringWidth(l); w > sz.w {
							t.Errorf("line %d is %d wide, more than %d: %q", i, w, sz.w, l)
						}
					}
					if n := strings.Count(frame, "\n") + 1; n > sz.h {
						t.Errorf("%d lines, more than %d", n, sz.h)
					}
					golden.RequireEqual(t, []byte(frame))
				})
			}
		})
	}
}

// TestBuilderNarrowForm: at 60 columns no address is cut silently, inputs
// show their start, a fee field holds its longest valid value, and a
// trailing "%" is accepted.
func TestBuilderNarrowForm(t *testing.T) {
	r := newBldRig(t, 60, 20)
	r.openForm()
	r.UntilShows(sandbox.DemoAddress) // whole, on its own line
	r.TypeText(sandbox.BuilderAddress)
	r.UntilShows(sandbox.BuilderAddress, "✓ valid")
	r.Press("tab")
	r.TypeText("429496.7295")
	r.UntilShows("429496.7295", "signed 4294967295")
	r.Press("tab")
	r.TypeText("0.05%")
	r.UntilShows("0.05%", "signed 500")
	for i, l := range strings.Split(r.Plain(), "\n") {
		if w := ansi.StringWidth(l); w > 60 {
			t.Errorf("line %d is %d wide: %q", i, w, l)
		}
	}
	r.Press("enter")
	r.UntilShows("Builder: review and sign")
	r.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.UntilShows("Builder: review and sign", "maxSpotFeeRate")
}

// TestBuilderReviewNotesAligned: the fee notes (and the others beside their
// values) start in one column.
func TestBuilderReviewNotesAligned(t *testing.T) {
	for _, w := range []int{80, 120} {
		r := newBldRig(t, w, 40)
		r.openForm()
		r.fill(sandbox.BuilderAddress, "0.1", "0.05", "90m")
		r.toReview()
		v := r.Plain()
		col := -1
		for _, want := range []string{"= 0.1% futures cap", "= 0.05% spot cap", "2026-03-14 10:56:53 UTC, 1 h 30 min"} {
			i := strings.Index(v, want)
			if i < 0 {
				t.Fatalf("%d: no %q:\n%s", w, want, v)
			}
			at := ansi.StringWidth(v[strings.LastIndexByte(v[:i], '\n')+1 : i])
			if col >= 0 && at != col {
				t.Errorf("%d: %q at column %d, not %d:\n%s", w, want, at, col, v)
			}
			col = at
		}
	}
}

func TestBuilderHangWrap(t *testing.T) {
	path := "/home/someone/.config/svcwallet/keystore/UTC--2026-03-14T09-26-53.000000000Z--14dc79964da2c08b23698b3d3cc7ca32193d9955"
	got := hangWrap("Key file: "+path, 60, 10)
	lines := strings.Split(got, "\n")
	if len(lines) < 2 || strings.ReplaceAll(strings.Join(lines, ""), " ", "") != strings.ReplaceAll("Key file: "+path, " ", "") {
		t.Fatalf("lost text:\n%s", got)
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, strings.Repeat(" ", 10)) || ansi.StringWidth(l) > 60 {
			t.Errorf("line %q not indented within 60", l)
		}
	}
}

// TestBuilderReviewTooShortWaits: when the terminal cannot show the whole
// message, the review asks for a larger one and enter signs nothing; once
// larger it holds its keys as when it first showed, so an enter as it
// shows again signs nothing either.
func TestBuilderReviewTooShortWaits(t *testing.T) {
	r := newBldRig(t, 120, 40)
	r.reviewAt60x20()
	r.clock.Advance(time.Second)
	r.UntilShows("Enlarge the terminal")
	r.Press("enter")
	r.Send(tea.WindowSizeMsg{Width: 120, Height: 40})
	r.UntilShows("Digest", "keys are enabled in 2 s")
	r.Press("enter")
	r.clock.Advance(kit.ShownGuard)
	if !strings.Contains(r.Plain(), "Press enter to sign") {
		t.Fatalf("enter on a message the terminal could not show whole, or as it showed again, started signing:\n%s", r.Plain())
	}
}

// TestBuilderReviewWarnsOwnAccount (issue 12 bug 9): the form's "your own
// account" warning is repeated on the review, where the user signs.
func TestBuilderReviewWarnsOwnAccount(t *testing.T) {
	r := newBldRig(t, 120, 40)
	for _, tc := range []struct {
		builder string
		warn    bool
	}{{sandbox.DemoAddress, true}, {sandbox.BuilderAddress, false}} {
		a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: tc.builder, FuturesFee: "0.1", SpotFee: "0.05"})
		if err != nil {
			t.Fatal(err)
		}
		rv := newBuilderReview(r.App, a, bldNonce)
		rv.SetSize(120, 36)
		if got := strings.Contains(screentest.OneLine(ansi.Strip(rv.View())), "The builder is your own account"); got != tc.warn {
			t.Errorf("builder %s: warning shown %v, want %v:\n%s", tc.builder, got, tc.warn, ansi.Strip(rv.View()))
		}
	}
}

// TestBuilderReviewWarnsHighFeeCap (review item 4): a fee cap above 1%
// (builder.HighFeeRate) is a warning on the review, in the command line's
// words; 1% itself is not, and the form's note warns as it is typed.
func TestBuilderReviewWarnsHighFeeCap(t *testing.T) {
	r := newBldRig(t, 120, 40)
	for _, tc := range []struct {
		futures, spot string
		want          []string
	}{
		{"0.1", "0.05", nil},
		{"1", "1%", nil},
		{"5", "0.05", []string{"! The futures fee cap 5% is above 1%: the builder may charge up to 5% of every futures trade"}},
		{"1.0001", "25", []string{"! The futures fee cap 1.0001% is above 1%", "! The spot fee cap 25% is above 1%"}},
	} {
		a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: tc.futures, SpotFee: tc.spot})
		if err != nil {
			t.Fatal(err)
		}
		rv := newBuilderReview(r.App, a, bldNonce)
		rv.SetSize(120, 40)
		v := screentest.OneLine(ansi.Strip(rv.View()))
		if got := strings.Count(v, "fee cap"); got != len(tc.want) {
			t.Errorf("%s/%s: %d warnings, want %d:\n%s", tc.futures, tc.spot, got, len(tc.want), ansi.Strip(rv.View()))
		}
		for _, w := range tc.want {
			if !strings.Contains(v, w) {
				t.Errorf("%s/%s: no %q:\n%s", tc.futures, tc.spot, w, ansi.Strip(rv.View()))
			}
		}
	}
	r.openForm()
	r.TypeText(sandbox.BuilderAddress)
	r.Press("tab")
	r.TypeText("10")
	r.UntilShows("! % → signed 100000: above 1%, check it")
}

// TestBuilderReviewWarnsPermissions: an API key given more than Trade is
// warned of on the review, in one line, and the review still fits 80x24
// to be signed there.
func TestBuilderReviewWarnsPermissions(t *testing.T) {
	r := newBldRig(t, 80, 24)
	r.openForm()
	r.fill(sandbox.BuilderAddress, "0.1", "0.05", "")
	r.keySection("market maker bot", sandbox.NoChainAddress)
	r.Press("4") // Withdraw, besides Trade
	r.toReview()
	r.UntilShows("! The builder's API key also gets Withdraw; a builder needs only Trade.", "Press enter to sign")
}

// TestBuilderReviewFitsByCompacting: a review a few lines taller than the
// terminal (an API key's, signed by a keystore key whose path takes three
// lines at 80 columns) drops its blank lines, as the withdrawal's review
// does, and still shows every field, the digest and the question.
func TestBuilderReviewFitsByCompacting(t *testing.T) {
	r := newBldRig(t, 120, 40)
	r.openForm()
	r.fill(sandbox.BuilderAddress, "0.1", "0.05", "14d")
	r.keySection("market maker bot", sandbox.NoChainAddress)
	r.toReview()
	r.Send(tea.WindowSizeMsg{Width: 80, Height: 22})
	r.UntilShows("Builder: review and sign", "Press enter to sign")
	v := r.Plain()
	for _, want := range []string{"Key label", "Environment", "accountID", "signer", "permissions", "builderAccountID",
		"maxFutureFeeRate", "= 0.1% futures cap", "maxSpotFeeRate", "= 0.05% spot cap", "nonce", "expiration", "Digest", "Signing key"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q at 80x22:\n%s", want, v)
		}
	}
}

// TestBuilderReviewFeeCapsKeystoreAt80x24: the tallest review an 80x24
// terminal meets (an API key, both fee caps above 1% with their warnings,
// signed by a keystore key, whose path alone took three lines) fits: every
// field, the digest, both warnings, the signing key, its passphrase field
// and the question are on screen, so it can be signed there. Golden file.
func TestBuilderReviewFeeCapsKeystoreAt80x24(t *testing.T) {
	// A folder longer than the line shows, so the golden file holds no
	// part of the test's temporary directory.
	r := newKeystoreRig(t, 80, 24, "home", "someone", ".config", "svcwallet", "keystore")
	r.openForm()
	r.fill(sandbox.BuilderAddress, "2", "1.5", "")
	r.keySection("market maker bot", sandbox.NoChainAddress)
	r.toReviewWith("keystore")
	v := r.Plain()
	for _, want := range []string{"Key label", "Environment", "chainId 327", "accountID", "signer", "permissions", "builderAccountID",
		"maxFutureFeeRate", "= 2% futures cap", "maxSpotFeeRate", "= 1.5% spot cap", "nonce", "expiration", "2026-03-21 09:26:53 UTC", "Digest",
		"! The futures fee cap 2% is above 1%", "! The spot fee cap 1.5% is above 1%", "Check that you\nmeant it.",
		"Signing key        keystore 0xf39F…2266", "Passphrase", "Press enter to sign", "enter sign and authorize",
		"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266  your account", "builder's API key"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q at 80x24:\n%s", want, v)
		}
	}
	golden.RequireEqual(t, []byte(v))
}

// TestBuilderReviewKeepsTheKeySigner: whose the API key's signer is stays
// on a review short of room, under its address where it does not fit
// beside it, so signer is never read as the user's own key.
func TestBuilderReviewKeepsTheKeySigner(t *testing.T) {
	r := newBldRig(t, 70, 24)
	r.openForm()
	r.fill(sandbox.BuilderAddress, "0.1", "0.05", "")
	r.keySection("bot", sandbox.NoChainAddress)
	r.toReview()
	v := r.Plain()
	if !strings.Contains(v, "Press enter to sign") || !strings.Contains(strings.Join(strings.Fields(v), " "), sandbox.NoChainAddress+" builder's API key") {
		t.Errorf("at 70x24 the signer is not said to be the builder's:\n%s", v)
	}
}

// TestBuilderResultFitsAt60x20: the result of an authorization with an API
// key whose label takes three lines at 60 columns keeps every line at
// 60x20, the API key and what each key does too: its last line, "enter
// goes home", was below the screen. Blank lines give way first.
func TestBuilderResultFitsAt60x20(t *testing.T) {
	r := newBldRig(t, 60, 20)
	label := "market maker bot for the overnight futures book, run from the colo rack in ldn-3 by the ops desk xyz"
	r.openForm()
	r.fill(sandbox.BuilderAddress, "0.1", "0.05", "")
	r.keySection(label, sandbox.NoChainAddress)
	r.toReview()
	r.UntilShows("Press enter to sign")
	r.signAndWait()
	r.UntilShows("API key for the builder")
	v := r.Plain()
	one := strings.Join(strings.Fields(v), " ")
	for _, want := range []string{"Key label " + label, "API key sbx-", "copy it now.", "c copies it, l logs in with it in place of this session, for this console run only (it is not kept), enter goes home."} {
		if !strings.Contains(one, want) {
			t.Errorf("no %q at 60x20:\n%s", want, v)
		}
	}
}

// TestBuilderResendAsksNoPassphrase: once the authorization is signed and
// not answered (a 429, no answer), enter sends the same body, which no key
// signs again: the keystore's passphrase field is gone, and q and ? are
// the console's again, not letters for a field that unlocks nothing; nor
// once the earlier attempt is found taken. A refusal, whose next review
// signs anew, brings it back. At 60x20 the key keeps its one line.
func TestBuilderResendAsksNoPassphrase(t *testing.T) {
	r := newKeystoreRig(t, 120, 40, "keystore")
	r.App.Target.Env.Name = "local"
	a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05"})
	if err != nil {
		t.Fatal(err)
	}
	// asks: the passphrase field is drawn (the temporary folder's path
	// names the test, and so the word).
	asks := func(v string) bool {
		for _, l := range strings.Split(v, "\n") {
			if strings.HasPrefix(l, "Passphrase") {
				return true
			}
		}
		return false
	}
	signed := exchange.BuilderAuthorizeRequest{Signature: exchange.Signature{R: "0x01", S: "0x02"}}
	for _, c := range []struct {
		name string
		err  error
	}{
		{"limited", &exchange.APIError{Status: http.StatusTooManyRequests, RetryAfter: 4 * time.Second}},
		{"no_answer", errors.New("connection reset")},
	} {
		t.Run(c.name, func(t *testing.T) {
			rv := newBuilderReview(r.App, a, bldNonce)
			rv.SetSize(120, 36)
			rv.Init()
			rv.Update(rv.gate.Key.Find()())
			if v := ansi.Strip(rv.View()); !rv.Inputting() || !asks(v) {
				t.Fatalf("the review before signing asks no passphrase:\n%s", v)
			}
			rv.Update(builderSentMsg{req: signed, err: c.err})
			r.clock.Advance(kit.ShownGuard)
			v := ansi.Strip(rv.View())
			if rv.Inputting() || asks(v) || !strings.Contains(v, "Enter sends the same signed authorization") {
				t.Errorf("the signed body's review asks a passphrase (inputting %v):\n%s", rv.Inputting(), v)
			}
			if !screentest.Offers(rv.KeyMap(), "enter") {
				t.Errorf("enter does not send it again: %v", rv.KeyMap().ShortHelp())
			}
			if c.name == "limited" {
				// At 60x20 the key keeps one line, as it did beside its field.
				rv.SetSize(60, 18)
				if v := ansi.Strip(rv.View()); !strings.Contains(v, "Signing key       keystore 0xf39F…2266 in") || !screentest.Offers(rv.KeyMap(), "enter") {
					t.Errorf("at 60x20 the signed body's review does not fit, or its key takes more than a line:\n%s", v)
				}
				rv.SetSize(120, 36)
			}
			if c.name == "no_answer" {
				// Taken after all: nothing is signed or sent from here.
				rv.Update(builderSentMsg{req: signed, err: &exchange.APIError{Status: http.StatusBadRequest, Code: exchange.CodeDuplicateSignature, Message: "nonce used"}})
				taken := ansi.Strip(rv.View())
				if rv.Inputting() || asks(taken) || rv.fate != builder.FateTaken {
					t.Errorf("taken, the review asks a passphrase (inputting %v):\n%s", rv.Inputting(), taken)
				}
				return
			}
			rv.Update(builderSentMsg{req: signed, err: &exchange.APIError{Status: http.StatusForbidden, Code: exchange.CodeSignatureMismatch, Message: "signature does not match"}})
			if v := ansi.Strip(rv.View()); !rv.Inputting() || !asks(v) {
				t.Errorf("refused, its review asks no passphrase to sign anew:\n%s", v)
			}
		})
	}
}
