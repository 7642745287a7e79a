package status

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// pollToEnd polls a Status to its end on the rig's clock: each timer the
// screen asks for is fired after moving the clock by its duration. It
// returns the waits asked for.
func pollToEnd(t *testing.T, r *screentest.StatusRig, s *statusScreen, maxPolls int) []time.Duration {
	t.Helper()
	s.SetSize(100, 40)
	timers := screentest.RecordTimers(s.app)
	var waits []time.Duration
	screentest.Drive(s, s.Init())
	for range maxPolls {
		if len(*timers) == 0 {
			break
		}
		next := (*timers)[0]
		*timers = (*timers)[1:]
		waits = append(waits, next.D)
		r.Clock.Advance(next.D)
		screentest.Drive(s, func() tea.Msg { return next.Msg })
		if len(*timers) > 1 {
			t.Fatalf("%d timers pending at once", len(*timers))
		}
		if s.follow.Known && exchange.Terminal(s.follow.Last.State) && len(*timers) > 0 {
			t.Fatalf("a timer was set after the terminal state %s", s.follow.Last.State)
		}
	}
	if len(*timers) != 0 {
		t.Fatalf("still polling after %d polls:\n%s", maxPolls, ansi.Strip(s.View()))
	}
	return waits
}

func timelineStates(s *statusScreen) []string {
	var out []string
	for _, x := range s.timeline {
		out = append(out, x.state)
	}
	return out
}

// TestStatusFollowsToEachEnd follows real sandbox withdrawals (Settle 6 s:
// SENDING from 3 s) at a 2 s interval: every state is seen and journaled
// once, polling stops at the end, and no wait is shorter than the interval.
func TestStatusFollowsToEachEnd(t *testing.T) {
	for _, tc := range []struct {
		dest, end string
		words     string
	}{
		{sandbox.DestCompleted, exchange.StateCompleted, "Paid out"},
		{sandbox.DestRefunded, exchange.StateRefunded, "The funds are back in the funding account; nothing was paid out"},
		{sandbox.DestFailed, exchange.StateFailed, "Nothing was paid out, and unlike a refund the funds are not returned"},
	} {
		t.Run(tc.end, func(t *testing.T) {
			r := screentest.NewStatusRig(t)
			r.App.PollInterval = 2 * time.Second
			id := r.Made(tc.dest, "25")
			s := newStatus(r.App, id)
			waits := pollToEnd(t, r, s, 10)

			want := []string{exchange.StateSubmitted, exchange.StateSending, tc.end}
			if got := timelineStates(s); !slices.Equal(got, want) {
				t.Errorf("timeline %v, want %v", got, want)
			}
			if got, want := r.JournalStates(id), []string{"accepted", exchange.StateSending, tc.end}; !slices.Equal(got, want) {
				t.Errorf("journaled %v, want each state once: %v", got, want)
			}
			// t=0 SUBMITTED, 2 SUBMITTED, 4 SENDING, 6 the end.
			if n := r.StatusCalls.Load(); n != 4 {
				t.Errorf("%d status requests, want 4", n)
			}
			for _, d := range waits {
				if d != 2*time.Second {
					t.Errorf("waited %s between polls, want the interval 2s", d)
				}
			}
			view := ansi.Strip(s.View())
			for _, w := range []string{tc.words, "Final state: no more checks", id} {
				if !strings.Contains(view, w) {
					t.Errorf("view lacks %q:\n%s", w, view)
				}
			}
			hasHash := strings.Contains(view, "Payout hash")
			if hasHash != (tc.end == exchange.StateCompleted) || (hasHash && !strings.Contains(view, s.follow.Last.WithdrawTxHash)) {
				t.Errorf("payout hash shown=%v for %s:\n%s", hasHash, tc.end, view)
			}
			if !r.Record(id).Finished() {
				t.Errorf("journal record not finished: %+v", r.Record(id))
			}
			// Only a payout has a hash to copy, and only a payout's amounts
			// read as paid.
			offersCopy := screentest.Offered(s, "copy payout hash")
			if paid := tc.end == exchange.StateCompleted; offersCopy != paid || strings.Contains(view, "(not paid out)") == paid {
				t.Errorf("%s: copy offered=%v, view:\n%s", tc.end, offersCopy, view)
			}
			// Every end copies the ids support asks for (issue 21 bug 10).
			for k, want := range map[string]string{"i": id, "t": s.follow.Last.TxID} {
				_, cmd := screentest.Press(s, k)
				if want == "" || !slices.Contains(screentest.RunAll(cmd), tea.Raw(ansi.SetSystemClipboard(want))()) {
					t.Errorf("%s: %s does not copy %q", tc.end, k, want)
				}
			}
		})
	}
}

// TestStatusReopenedDoesNotJournalAgain: opening a finished withdrawal from
// history shows its journaled timeline and writes nothing new.
func TestStatusReopenedDoesNotJournalAgain(t *testing.T) {
	r := screentest.NewStatusRig(t)
	id := r.Made(sandbox.DestCompleted, "10")
	first := newStatus(r.App, id)
	pollToEnd(t, r, first, 10)
	before := r.JournalStates(id)
	s := newStatus(r.App, id)
	pollToEnd(t, r, s, 10)
	if got := r.JournalStates(id); !slices.Equal(got, before) {
		t.Errorf("journal grew from %v to %v", before, got)
	}
	if got, want := timelineStates(s), timelineStates(first); !slices.Equal(got, want) {
		t.Errorf("reopened timeline %v, want the journal's %v", got, want)
	}
}

// TestStatusOpensExplorer: o is offered only when the payout has an explorer
// link, opens it where a browser can be opened, and says the link otherwise.
func TestStatusOpensExplorer(t *testing.T) {
	r := screentest.NewStatusRig(t)
	r.App.PollInterval = 2 * time.Second
	id := r.Executed(sandbox.DestCompleted, "25")
	s := newStatus(r.App, id)
	pollToEnd(t, r, s, 10)
	offers := func() bool { return screentest.Offers(s.KeyMap(), "o") }
	if offers() {
		t.Fatal("o offered without an explorer link (the sandbox has none)")
	}
	r.App.Target.Env.ExplorerTx = map[string]string{s.follow.Last.Chain: "https://explorer.example/tx/{hash}"}
	link := "https://explorer.example/tx/" + s.follow.Last.WithdrawTxHash
	if !offers() {
		t.Fatal("o not offered with an explorer link")
	}
	var opened string
	r.App.OpenURL = func(l string) error { opened = l; return nil }
	_, cmd := s.Update(screentest.Key("o"))
	if m := screentest.FindMsg[tui.InfoMsg](t, screentest.RunCmdSync(t, cmd)); opened != link || !strings.Contains(m.Text, "Opened "+link) {
		t.Fatalf("opened %q, said %q", opened, m.Text)
	}
	r.App.OpenURL = func(string) error { return errors.New("no display") }
	_, cmd = s.Update(screentest.Key("o"))
	if m := screentest.FindMsg[tui.InfoMsg](t, screentest.RunCmdSync(t, cmd)); !strings.Contains(m.Text, "the link is "+link+" (no display)") {
		t.Fatalf("without a browser it said %q", m.Text)
	}
}

// TestStatusExpiredUnexecutedIsFinal: a quote never executed reads as such
// once its lifetime is over: the title says so, polling stops, and no
// "Next check" is left behind in the past.
func TestStatusExpiredUnexecutedIsFinal(t *testing.T) {
	r := screentest.NewStatusRig(t)
	r.App.PollInterval = 10 * time.Second
	req, _ := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	s := newStatus(r.App, req.QuoteID)
	pollToEnd(t, r, s, 70)
	view := s.Title() + "\n" + ansi.Strip(s.View())
	if !s.follow.ExpiredUnexecuted() || !strings.Contains(view, "Withdrawal EXPIRED") ||
		!strings.Contains(view, "Final state: no more checks") || strings.Contains(view, "Next check") || strings.Contains(view, "Withdrawal CREATED") {
		t.Fatalf("view of an expired, unexecuted quote:\n%s", view)
	}
}

// TestStatusUsesTheQuotesOwnExpiry: a journaled quote of this account is
// final once its own expires_at (plus the margin) has passed on the
// service's clock, not after the longest quote life.
func TestStatusUsesTheQuotesOwnExpiry(t *testing.T) {
	r := screentest.NewStatusRig(t)
	r.App.PollInterval = 10 * time.Second
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	in.ExpiresAt = r.Clock.Now().Add(20 * time.Second) // much shorter than the longest quote life
	rec := r.Intent(req, in)
	s := newStatus(r.App, rec.QuoteID)
	waits := pollToEnd(t, r, s, 40)
	total := time.Duration(0)
	for _, d := range waits {
		total += d
	}
	if !s.follow.ExpiredUnexecuted() || total > 20*time.Second+follow.ExecutableMargin+10*time.Second {
		t.Fatalf("final after %s (waits %v); want soon after the quote's own expiry", total, waits)
	}
	if v := s.Title(); v != "Withdrawal EXPIRED" {
		t.Fatalf("view:\n%s", v)
	}
}

// TestStatusRefusesHostileRecords: records a hostile proxy rewrote (a
// transfer id running a command, a state named twice, a COMPLETED without
// its payout hash) are shown as unreadable, never as paid out, and nothing
// of them can be copied; a CREATED record of a withdrawal the journal saw
// accepted sends the user to support.
func TestStatusRefusesHostileRecords(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    exchangetest.Rewrite
		says string
	}{
		{"transfer id running a command", exchangetest.TxIDRunsCommand, "transfer id that holds a character other than letters"},
		{"state named twice", exchangetest.StateTwice, "names the field"},
		{"COMPLETED without a payout hash", exchangetest.NoPayoutHash, "COMPLETED record that carries no payout hash"},
		{"CREATED after acceptance", exchangetest.CreatedLongAgo, "The service reports CREATED for a withdrawal it accepted on"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := screentest.NewStatusRig(t)
			id := r.Executed(sandbox.DestCompleted, "25")
			sess, _ := r.App.Client().Session()
			if err := r.App.Journal().Append(journal.Entry{Time: r.Clock.Now(), Kind: journal.KindAccepted,
				Env: r.App.Target.Env.Name, AccountID: sess.AccountID, QuoteID: id}); err != nil {
				t.Fatal(err)
			}
			r.Clock.Advance(time.Hour)
			rewrite := func(b []byte) []byte { return tc.f(b) }
			r.StatusRewrite.Store(&rewrite)
			s := newStatus(r.App, id)
			s.SetSize(100, 40)
			screentest.RecordTimers(s.app) // one answer is enough: no poll runs
			screentest.Drive(s, s.Init())
			view := screentest.OneLine(ansi.Strip(s.View()))
			if !strings.Contains(view, tc.says) || strings.Contains(view, "Paid out") || strings.Contains(view, "nothing was debited") ||
				strings.Contains(view, "PWNED") || screentest.Offered(s, "copy payout hash") {
				t.Fatalf("view:\n%s", ansi.Strip(s.View()))
			}
		})
	}
}

// TestStatusJournalsOwnOnly (issue 18): the status screen journals the
// states of a withdrawal only when this account's journal holds it: not
// one whose acceptance another account journaled on this machine, nor one
// made elsewhere.
func TestStatusJournalsOwnOnly(t *testing.T) {
	r := screentest.NewStatusRig(t)
	r.App.PollInterval = 2 * time.Second
	others, elsewhere := screentest.Seed(t, r, sandbox.DestCompleted), screentest.Seed(t, r, sandbox.DestCompleted)
	if err := r.App.Journal().Append(journal.Entry{Time: r.Clock.Now(), Kind: journal.KindAccepted,
		Env: r.App.Target.Env.Name, AccountID: sandbox.NoChainAccountID, QuoteID: others}); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string][]string{others: {"accepted"}, elsewhere: nil} {
		s := newStatus(r.App, id)
		pollToEnd(t, r, s, 10)
		if s.follow.Last.State != exchange.StateCompleted {
			t.Fatalf("%s followed to %s", id, s.follow.Last.State)
		}
		if got := r.JournalStates(id); !slices.Equal(got, want) {
			t.Errorf("%s journaled %v, want %v", id, got, want)
		}
	}
}

// TestStatusAnnouncesTheEnd (issue 21 item 15): with notify on, the answer
// that ends a followed withdrawal sends a desktop notification naming it;
// one that does not end it sends none.
func TestStatusAnnouncesTheEnd(t *testing.T) {
	r := screentest.NewStatusRig(t)
	id := r.Made(sandbox.DestCompleted, "25")
	done := newStatus(r.App, id)
	pollToEnd(t, r, done, 10)
	completed := done.follow.Last
	sending := completed
	sending.State, sending.WithdrawTxHash = exchange.StateSending, ""

	r.App.Notify = true
	s := newStatus(r.App, id)
	notified := func(cmd tea.Cmd) string {
		for _, m := range screentest.RunAll(cmd) {
			if raw, ok := m.(tea.RawMsg); ok {
				return raw.Msg.(string)
			}
		}
		return ""
	}
	if got := notified(s.answered(statusMsg{w: sending})); got != "" {
		t.Errorf("SENDING notified %q", got)
	}
	if got := notified(s.answered(statusMsg{w: completed})); !strings.Contains(got, "\x1b]9;Withdrawal COMPLETED: "+id+": ") {
		t.Errorf("COMPLETED notified %q", got)
	}
}

// TestExpiredQuoteHasOneName: a quote of this account that expired without
// being executed is EXPIRED on the status screen, followed and resumed
// from the journal, as on the board and in History; never REJECTED,
// REFUSED or CREATED.
func TestExpiredQuoteHasOneName(t *testing.T) {
	r := screentest.NewStatusRig(t)
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	rec := r.Intent(req, in) // journaled, its answer lost
	r.Clock.Set(in.ExpiresAt.Add(follow.ExecutableMargin + time.Second))
	id := req.QuoteID

	followed := newStatus(r.App, id)
	pollToEnd(t, r, followed, 10)
	if view := followed.Title() + "\n" + ansi.Strip(followed.View()); !strings.Contains(view, "Withdrawal EXPIRED") ||
		!strings.Contains(view, "State         EXPIRED") || !strings.Contains(view, exchange.ExpiredWords) {
		t.Errorf("the followed status:\n%s", view)
	}

	resumed := NewResume(r.App, rec).(*statusScreen)
	resumed.SetSize(100, 40)
	screentest.RecordTimers(resumed.app)
	screentest.Drive(resumed, resumed.Init())
	if view := resumed.Title() + "\n" + ansi.Strip(resumed.View()); !strings.Contains(view, "Withdrawal EXPIRED") ||
		!strings.Contains(view, "State         EXPIRED") || !strings.Contains(view, exchange.ExpiredWords) {
		t.Errorf("the resumed status:\n%s", view)
	}
}

// TestStatusShowsWhatSupportQuotes (issue 28 items 4 and 8): the detail of
// an own withdrawal shows its quote id, transfer id, destination, chain,
// state and payout hash, each id with a key that copies it; opened again
// while the service fails, it starts from the journal's record, never
// from blank.
func TestStatusShowsWhatSupportQuotes(t *testing.T) {
	r := screentest.NewStatusRig(t)
	r.App.PollInterval = 2 * time.Second
	id := r.Made(sandbox.DestCompleted, "25")
	s := newStatus(r.App, id)
	pollToEnd(t, r, s, 10)
	w := s.follow.Last
	view := screentest.OneLine(ansi.Strip(s.View()))
	for _, want := range []string{id, w.TxID, sandbox.DestCompleted, w.Chain, w.WithdrawTxHash, exchange.StateCompleted} {
		if want == "" || !strings.Contains(view, want) {
			t.Errorf("the detail lacks %q:\n%s", want, view)
		}
	}
	for key, want := range map[string]string{"i": id, "t": w.TxID, "d": sandbox.DestCompleted, "c": w.WithdrawTxHash} {
		_, cmd := s.Update(screentest.Key(key))
		if !slices.Contains(screentest.RunAll(cmd), tea.Raw(ansi.SetSystemClipboard(want))()) {
			t.Errorf("%s does not copy %s", key, want)
		}
	}

	r.FailStatus.Store(true)
	again := newStatus(r.App, id)
	again.SetSize(100, 40)
	screentest.RecordTimers(r.App)
	screentest.Drive(again, again.Init())
	if v := again.Title() + "\n" + screentest.OneLine(ansi.Strip(again.View())); !strings.Contains(v, "Withdrawal COMPLETED") ||
		!strings.Contains(v, w.WithdrawTxHash) || !strings.Contains(v, "Cannot check") {
		t.Errorf("opened again with the service failing:\n%s", v)
	}
}

// TestStatusOffersRefreshLastOnceEnded: while a withdrawal moves, r
// (refresh now) is its footer's first key; once it ended, the copies come
// first, so a short footer keeps "c copy payout hash" (at 60 columns it
// showed "r refresh now" alone).
func TestStatusOffersRefreshLastOnceEnded(t *testing.T) {
	r := screentest.NewStatusRig(t)
	id := r.Made(sandbox.DestCompleted, "25")
	done := newStatus(r.App, id)
	pollToEnd(t, r, done, 10)
	sending := done.follow.Last
	sending.State, sending.WithdrawTxHash = exchange.StateSending, ""
	s := newStatus(r.App, id)
	first := func() string { return s.KeyMap().ShortHelp()[0].Help().Desc }
	s.answered(statusMsg{w: sending})
	if got := first(); got != "refresh now" {
		t.Errorf("SENDING: the footer begins with %q", got)
	}
	if got := done.KeyMap().ShortHelp()[0].Help().Desc; got != "copy payout hash" {
		t.Errorf("COMPLETED: the footer begins with %q", got)
	}
}

// TestStatusNamesTheDestinationAsItsKey: the journaled address is the row
// "Destination", the word of d (copy destination), of History and of the
// withdrawal's form; it was "To".
func TestStatusNamesTheDestinationAsItsKey(t *testing.T) {
	r := screentest.NewStatusRig(t)
	s := newStatus(r.App, r.Made(sandbox.DestCompleted, "25"))
	pollToEnd(t, r, s, 10)
	s.SetSize(120, 40)
	if v := ansi.Strip(s.View()); !strings.Contains(v, "\nDestination   "+sandbox.DestCompleted) || !screentest.Offered(s, "copy destination") {
		t.Errorf("the destination row, or d, is missing:\n%s", v)
	}
}
