package withdraw

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// waitingReview is a console at the review of a real sandbox quote, with
// key as the wallet logged in with (from names its source), past the
// keystroke guard.
func waitingReview(t *testing.T, key signer.Key, from string) (*screentest.Console, *exchangetest.FakeClock) {
	t.Helper()
	return waitingReviewIn(t, context.Background(), key, from)
}

// waitingReviewIn is waitingReview with root as the console's context.
func waitingReviewIn(t *testing.T, root context.Context, key signer.Key, from string) (*screentest.Console, *exchangetest.FakeClock) {
	t.Helper()
	clock := exchangetest.NewFakeClock(screentest.Now)
	c := screentest.NewLoggedInConsole(t, 120, 40, screentest.ConsoleOpts{Clock: clock.Now})
	c.App.Signer, c.App.SignerFrom, c.App.Context = key, from, root
	w, q := sandboxQuote(t, c.App)
	c.Open(newReview(c.App, w, withdrawal.PricedQuote{Quote: q}))
	// The bridge check landed (the guard holds from it: "pinned"), then the
	// guard passes.
	c.UntilShows("Withdraw: review and sign", "the wallet you logged in with", "from "+from, "pinned")
	clock.Advance(kit.ShownGuard)
	c.UntilShows("Press enter to sign and withdraw")
	return c, clock
}

// TestReviewShowsTheWaitAndEscCancelsIt (issue 20 item 5): while the
// logged-in key waits for approval the review says what it waits for and
// offers esc; esc ends the wait, the screen says it was not signed and
// nothing was sent, once ("Not withdrawn: Not signed: …" said it twice),
// and nothing was: no journal entry, the balance unchanged.
func TestReviewShowsTheWaitAndEscCancelsIt(t *testing.T) {
	demo, err := signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	c, clock := waitingReview(t, screentest.NewSlowKey(demo, "the test device"), "the test device")
	if !strings.Contains(screentest.OneLine(c.Plain()), "If the quote expires while you approve, svcwallet gets a fresh quote") {
		t.Errorf("the review of a key that waits does not say what happens when the quote expires:\n%s", c.Plain())
	}
	before := c.Srv.Exchange.Balance(sandbox.DemoAccountID)
	c.Press("enter")
	c.UntilShows("Waiting for approval on the test device…", "esc cancels")
	if !strings.Contains(footer(c), "esc cancel the signature") {
		t.Errorf("while waiting the footer does not offer esc:\n%s", c.Plain())
	}
	c.Press("esc")
	c.UntilShows("Not signed:", "nothing was sent")
	if strings.Contains(c.Plain(), "Not withdrawn") {
		t.Errorf("the cancelled wait is labelled twice (the review's label and the signature's):\n%s", c.Plain())
	}
	if strings.Contains(c.Plain(), "Waiting for") {
		t.Errorf("the wait still shows after esc:\n%s", c.Plain())
	}
	if entries, err := c.App.Journal().Entries(); err != nil || len(entries) != 0 {
		t.Errorf("the journal holds %d entries (%v) after a cancelled signature", len(entries), err)
	}
	if after := c.Srv.Exchange.Balance(sandbox.DemoAccountID); !after.Equal(before) {
		t.Errorf("the balance moved from %s to %s after a cancelled signature", before, after)
	}
	clock.Advance(kit.ShownGuard) // the review shown again with the cancel holds keys from then
	if f := footer(c); !strings.Contains(f, "enter sign and withdraw") || strings.Contains(f, "cancel the signature") {
		t.Errorf("after the cancel the footer offers %q", f)
	}
}

// TestReviewClefRefusalIsOneLine: logged in by clef, the review names clef, shows
// the wait while clef is asked, and clef's refusal reads as one line
// saying nothing was sent.
func TestReviewClefRefusalIsOneLine(t *testing.T) {
	fake := exchangetest.NewFakeClef(t)
	fake.Deny = true
	key := signer.NewClef(fake.URL, 0).Key(exchangetest.KeyAddress(exchangetest.DemoKeyHex))
	c, _ := waitingReview(t, key, "clef at "+fake.URL)
	c.Press("enter")
	want := "Not signed: clef at " + fake.URL + " refused to sign (request denied); nothing was sent"
	c.UntilShows("Not signed:")
	if got := screentest.OneLine(c.Plain()); !strings.Contains(got, want) || strings.Contains(got, "Not withdrawn") {
		t.Errorf("the refusal does not read %q, said once:\n%s", want, c.Plain())
	}
	if got := fake.Calls(); len(got) != 1 || got[0] != "account_signTypedData" {
		t.Errorf("clef was asked %v", got)
	}
	if entries, _ := c.App.Journal().Entries(); len(entries) != 0 {
		t.Errorf("the journal holds %d entries after clef refused", len(entries))
	}
}

// untilEnterOffered waits for the footer to offer enter: the smallest
// review says the requote note where "Press enter" stood.
func untilEnterOffered(c *screentest.Console) {
	c.T.Helper()
	c.Until("enter offered", func(string) bool { return strings.Contains(footer(c), "enter ") })
}

// footer is the console's last line.
func footer(c *screentest.Console) string {
	lines := strings.Split(c.Plain(), "\n")
	return lines[len(lines)-1]
}

// stubbornKey waits for approve and then signs, whether or not the wait
// was cancelled meanwhile: a device that signs although the console gave
// up on it.
type stubbornKey struct {
	signer.Key
	approve chan struct{}
}

func (k stubbornKey) Awaiting() string { return "approval on the stubborn device" }

func (k stubbornKey) SignTypedData(ctx context.Context, d signer.Domain, m signer.Message) ([65]byte, error) {
	<-k.approve
	return k.Key.SignTypedData(ctx, d, m)
}

// TestReviewEscDropsALateSignature: esc during a wait says it cancels; a
// signature that comes anyway is dropped, so nothing is sent (found by
// review: the screen said "cancelling" and the Transfer went out).
func TestReviewEscDropsALateSignature(t *testing.T) {
	demo, err := signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	key := stubbornKey{Key: demo, approve: make(chan struct{})}
	c, _ := waitingReview(t, key, "the stubborn device")
	before := c.Srv.Exchange.Balance(sandbox.DemoAccountID)
	c.Press("enter")
	c.UntilShows("Waiting for approval on the stubborn device…")
	c.Press("esc")
	c.UntilShows("Cancelling the wait")
	close(key.approve)
	c.UntilShows("Not signed:", "nothing was sent")
	if entries, err := c.App.Journal().Entries(); err != nil || len(entries) != 0 {
		t.Errorf("the journal holds %d entries (%v) after a cancelled wait", len(entries), err)
	}
	if after := c.Srv.Exchange.Balance(sandbox.DemoAccountID); !after.Equal(before) {
		t.Errorf("the balance moved from %s to %s after a cancelled wait", before, after)
	}
}

// TestQuitEndsTheWait: quitting the console (its root context ends) ends a
// signature wait, so a signing command is stopped, and nothing is sent.
func TestQuitEndsTheWait(t *testing.T) {
	demo, err := signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	root, quit := context.WithCancel(context.Background())
	defer quit()
	c, _ := waitingReviewIn(t, root, screentest.NewSlowKey(demo, "the test device"), "the test device")
	before := c.Srv.Exchange.Balance(sandbox.DemoAccountID)
	c.Press("enter")
	c.UntilShows("Waiting for approval on the test device…")
	quit()
	c.UntilShows("Not signed:", "nothing was sent")
	if after := c.Srv.Exchange.Balance(sandbox.DemoAccountID); !after.Equal(before) {
		t.Errorf("the balance moved from %s to %s", before, after)
	}
}

// TestQuitWhileAwaitingSaysNothingIsSent: quitting while a signature is
// awaited asks in words that are true then: nothing is signed, journaled
// or sent (found by review: the question said "it stays journaled" while
// nothing was).
func TestQuitWhileAwaitingSaysNothingIsSent(t *testing.T) {
	demo, err := signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	key := stubbornKey{Key: demo, approve: make(chan struct{})}
	c, _ := waitingReview(t, key, "the stubborn device")
	c.Press("enter")
	c.UntilShows("Waiting for approval on the stubborn device…")
	c.Press("ctrl+c")
	c.Until("the quit question", func(v string) bool {
		return strings.Contains(screentest.OneLine(v), kit.AwaitingSignature+" Quit anyway? (y/N)")
	})
	c.Press("n", "esc")
	close(key.approve)
	c.UntilShows("Not signed:", "nothing was sent")
}

// TestReviewSignsWithTheConfiguredSigner: logged in by API key, the review
// signs with the environment's configured signer (here clef), as the
// command line does, and names it (found by review: "none found", while
// `svcwallet withdraw` signed with it).
func TestReviewSignsWithTheConfiguredSigner(t *testing.T) {
	fake := exchangetest.NewFakeClef(t)
	clock := exchangetest.NewFakeClock(screentest.Now)
	c := screentest.NewLoggedInConsole(t, 120, 40, screentest.ConsoleOpts{Clock: clock.Now})
	c.App.Target.Env.Signer = "clef:" + fake.URL
	var followed string
	c.App.Makers.Home = screentest.NewHome
	c.App.Makers.Status = func(a *kit.App, quoteID string) tui.Screen { followed = quoteID; return screentest.NewHome(a) }
	w, q := sandboxQuote(t, c.App)
	c.Open(newReview(c.App, w, withdrawal.PricedQuote{Quote: q}))
	c.UntilShows("clef at "+fake.URL+", the environment's signer", "pinned")
	clock.Advance(kit.ShownGuard)
	c.UntilShows("Press enter to sign and withdraw")
	c.Press("enter")
	c.Until("the withdrawal followed", func(string) bool { return followed != "" })
	if followed != q.QuoteID {
		t.Errorf("follows %q, want %s", followed, q.QuoteID)
	}
	if got := fake.Calls(); len(got) != 1 || got[0] != "account_signTypedData" {
		t.Errorf("clef was asked %v", got)
	}
}

// TestReviewSkipsAConfiguredSignerOfAnotherAccount: the environment's
// signer names another account: it is not this account's key, so the
// review does not offer it (and clef is never asked).
func TestReviewSkipsAConfiguredSignerOfAnotherAccount(t *testing.T) {
	fake := exchangetest.NewFakeClef(t)
	c := screentest.NewLoggedInConsole(t, 120, 40, screentest.ConsoleOpts{})
	c.App.Target.Env.Signer = "clef:" + fake.URL
	c.App.Target.Env.Account = exchangetest.KeyAddress(exchangetest.OtherKeyHex).Hex()
	w, q := sandboxQuote(t, c.App)
	c.Open(newReview(c.App, w, withdrawal.PricedQuote{Quote: q}))
	c.UntilShows("Withdraw: review and sign", "Signing key")
	c.Until("the key search", func(v string) bool { return !strings.Contains(v, "looking…") })
	if v := c.Plain(); strings.Contains(v, "the environment's signer") {
		t.Errorf("the review offers a signer configured for another account:\n%s", v)
	}
	if got := fake.Calls(); len(got) != 0 {
		t.Errorf("clef was asked %v", got)
	}
}

// TestRequoteNoteInEveryLayout (the last stop's notes): a review whose key
// waits for a person says what a fresh quote may do meanwhile at every
// size, whole where there is room (120x40), in fewer words in the middle
// layouts (100x30) and on the prompt's line in the smallest (80x24 with
// the wallet drawn whole, 60x20), with the cap's amount; it was drawn only
// in the fullest layout, and 80x24 and 60x20 did not say it. Each still
// asks to sign with enter: at 60x20 the note stood in the question's place.
func TestRequoteNoteInEveryLayout(t *testing.T) {
	demo, err := signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ w, h, form int }{{120, 40, 0}, {100, 30, 1}, {80, 24, 2}, {60, 20, 2}} {
		t.Run(fmt.Sprintf("%dx%d", tc.w, tc.h), func(t *testing.T) {
			clock := exchangetest.NewFakeClock(screentest.Now)
			c := screentest.NewLoggedInConsole(t, tc.w, tc.h, screentest.ConsoleOpts{Clock: clock.Now})
			c.App.Signer, c.App.SignerFrom = screentest.NewSlowKey(demo, "the test device"), "the test device"
			w, q := sandboxQuote(t, c.App)
			r := newReview(c.App, w, withdrawal.PricedQuote{Quote: q})
			c.Open(r)
			c.UntilShows("Withdraw: review and sign", "pinned")
			c.Until("the key found", func(v string) bool { return !strings.Contains(v, "looking…") })
			clock.Advance(kit.ShownGuard)
			untilEnterOffered(c)
			const ask = "Press enter to sign; "
			want := []string{withdrawal.RequoteNote(r.order), withdrawal.RequoteNoteShort(r.order), ask + withdrawal.RequoteNoteTight(r.order, tc.w-len(ask))}[tc.form]
			if !strings.Contains(screentest.OneLine(c.Plain()), screentest.OneLine(want)) || !strings.Contains(want, "1.5 USDT") {
				t.Errorf("the review does not say %q:\n%s", want, c.Plain())
			}
			if !strings.Contains(c.Plain(), "Press enter to sign") {
				t.Errorf("the review does not ask to sign with enter:\n%s", c.Plain())
			}
		})
	}
}
