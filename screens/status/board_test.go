package status

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/shopspring/decimal"

	"svcwallet/clean"
	"svcwallet/screens/kit"
	"svcwallet/screens/screentest"
	"svcwallet/service"
	"svcwallet/service/config"
	"svcwallet/service/follow"
	"svcwallet/service/journal"
	"svcwallet/service/sandbox"
	"svcwallet/tui"
)

// boardRig is a board on the status rig's fake clock whose timers are
// recorded: the test advances the clock and fires them.
type boardRig struct {
	*screentest.StatusRig
	b      *boardScreen
	timers *[]screentest.Timer
	toasts []string
	clips  []tea.Msg
}

func newBoardRig(t *testing.T, r *screentest.StatusRig) *boardRig {
	br := &boardRig{StatusRig: r, b: NewBoard(r.App).(*boardScreen), timers: screentest.RecordTimers(r.App)}
	br.b.SetSize(120, 40)
	br.run(br.b.Init())
	return br
}

// run runs cmd and what follows in this goroutine, keeping toasts and
// clipboard writes apart.
func (br *boardRig) run(cmd tea.Cmd) {
	for _, m := range screentest.RunAll(cmd) {
		switch m := m.(type) {
		case tui.InfoMsg:
			br.toasts = append(br.toasts, m.Text)
		case tui.ErrorMsg:
			br.toasts = append(br.toasts, "Error: "+m.Err.Error())
		case boardTickMsg, boardAnswerMsg, boardLoadedMsg, boardSavedMsg:
			_, next := br.b.Update(m)
			br.run(next)
		default:
			br.clips = append(br.clips, m)
		}
	}
}

func (br *boardRig) send(msg tea.Msg) {
	_, cmd := br.b.Update(msg)
	br.run(cmd)
}

// fire advances the clock to the earliest timer and fires it; false when
// none is pending (the board stopped ticking).
func (br *boardRig) fire() bool {
	if len(*br.timers) == 0 {
		return false
	}
	tm := (*br.timers)[0]
	*br.timers = (*br.timers)[1:]
	br.Clock.Advance(tm.D)
	br.send(tm.Msg)
	return true
}

func (br *boardRig) plain() string { return ansi.Strip(br.b.View()) }

// rowOf is the board's line of id.
func (br *boardRig) rowOf(id string) string {
	for _, l := range strings.Split(br.plain(), "\n") {
		if strings.Contains(l, id[:min(len(id), 20)]) {
			return l
		}
	}
	return ""
}

// TestBoardPaste: a pasted id becomes a row; a paste of several, separated
// by spaces, commas and new lines, adds each once, and a malformed id is
// said, not added.
func TestBoardPaste(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	one := screentest.Seed(t, r, sandbox.DestCompleted)
	br.send(tea.PasteMsg{Content: one})
	if len(br.b.ids) != 1 || !strings.Contains(br.rowOf(one), "SUBMITTED") {
		t.Fatalf("pasted id not on the board:\n%s", br.plain())
	}
	two, three := screentest.Seed(t, r, sandbox.DestFailed), screentest.Seed(t, r, sandbox.DestRefunded)
	br.send(tea.PasteMsg{Content: two + ", " + three + "\n" + one + "\r\n" + two + " bad\x01id"})
	if got := strings.Join(br.b.ids, " "); got != one+" "+two+" "+three {
		t.Fatalf("board holds %q, want the three ids once each", got)
	}
	if v := screentest.OneLine(br.b.View()); !strings.Contains(v, "Not a quote id, not added: badid") {
		t.Fatalf("malformed id not said:\n%s", br.plain())
	}
	if !br.b.Inputting() || br.b.input.Value() != "" {
		t.Fatalf("the field lost focus or kept the paste (%q)", br.b.input.Value())
	}
	// Typing one id and enter adds it too.
	four := screentest.Seed(t, r, sandbox.DestCompleted)
	for _, c := range four {
		br.send(tea.KeyPressMsg{Code: c, Text: string(c)})
	}
	br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	if len(br.b.ids) != 4 || br.rowOf(four) == "" {
		t.Fatalf("typed id not added:\n%s", br.plain())
	}
}

// TestBoardFollowsToTheEnd: a mix followed on the fake clock to COMPLETED,
// FAILED and REFUNDED, an unknown id to NOT FOUND; each change is marked
// and announced once, the moving rows sort first, final ids are never asked
// again and the ticks stop.
func TestBoardFollowsToTheEnd(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	ids := map[string]string{
		screentest.Seed(t, r, sandbox.DestCompleted): "✓ COMPLETED",
		screentest.Seed(t, r, sandbox.DestFailed):    "✗ FAILED",
		screentest.Seed(t, r, sandbox.DestRefunded):  "↩ REFUNDED",
		"q-doesnotexist": "? NOT FOUND",
	}
	// Another account's withdrawal is unknown to this one.
	other := r.Client(sandbox.NoChainAPIKey)
	req, _ := r.Signed(other, sandbox.NoChainPrivateKey, sandbox.DestCompleted, "10")
	if _, err := other.Withdraw(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	ids[req.QuoteID] = "? NOT FOUND"
	var paste []string
	for id := range ids {
		paste = append(paste, id)
	}
	br.send(tea.PasteMsg{Content: strings.Join(paste, "\n")})
	for i := 0; i < 10 && br.rowOf("q-doesnotexist") != "" && !strings.Contains(br.rowOf("q-doesnotexist"), "NOT FOUND"); i++ {
		br.fire()
	}
	if f, _ := br.b.sched.Get(br.b.list.Item(br.b.list.Len() - 1)); !f.Final || br.b.sched.Moving()+len(br.b.inflight) == 0 {
		t.Fatalf("the final row is not after the moving ones:\n%s", br.plain())
	}
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	if len(*br.timers) != 0 || br.b.ticking || br.b.sched.Moving() != 0 {
		t.Fatalf("still ticking with nothing moving: %d timers", len(*br.timers))
	}
	for id, want := range ids {
		if row := br.rowOf(id); !strings.Contains(row, want) {
			t.Errorf("%s: row %q, want %s", id, row, want)
		}
	}
	for id, want := range ids {
		if strings.HasSuffix(want, "NOT FOUND") {
			continue
		}
		n := 0
		for _, toast := range br.toasts {
			if strings.HasPrefix(toast, id+":") {
				n++
				if !strings.HasSuffix(toast, strings.Fields(want)[1]) && !strings.Contains(toast, "SENDING") {
					t.Errorf("toast %q", toast)
				}
			}
		}
		if n == 0 || n > 2 {
			t.Errorf("%s announced %d times: %q", id, n, br.toasts)
		}
		if !strings.HasPrefix(br.rowOf(id), " •") {
			t.Errorf("change not marked on %q", br.rowOf(id))
		}
	}
	calls := r.StatusCalls.Load()
	br.send(boardTickMsg{tag: br.b.tag})
	if r.StatusCalls.Load() != calls {
		t.Fatal("a final id was asked again")
	}
	// enter opens the existing status detail of the selected row.
	br.send(tea.KeyPressMsg{Code: tea.KeyTab})
	_, cmd := br.b.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if push, ok := cmd().(tui.PushMsg); !ok || push.Screen.(*statusScreen).quoteID != br.b.list.Item(0) {
		t.Fatalf("enter did not open the status of %s", br.b.list.Item(0))
	}
}

// TestBoardRestartKeeps: the ids are kept per environment in a 0600 file
// next to the journal and are on a new board after a restart; x removes.
func TestBoardRestartKeeps(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	a, b := screentest.Seed(t, r, sandbox.DestCompleted), screentest.Seed(t, r, sandbox.DestFailed)
	br.send(tea.PasteMsg{Content: a + " " + b})
	path := filepath.Join(filepath.Dir(r.App.Journal().Path()), follow.WatchlistFile)
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("board file: %v %v", fi, err)
	}
	again := newBoardRig(t, r)
	if got := strings.Join(again.b.ids, " "); got != a+" "+b {
		t.Fatalf("after a restart the board holds %q", got)
	}
	again.send(tea.KeyPressMsg{Code: tea.KeyTab})
	again.send(tea.KeyPressMsg{Code: 'x', Text: "x"})
	third := newBoardRig(t, r)
	if len(third.b.ids) != 1 {
		t.Fatalf("x not kept: %q", third.b.ids)
	}
	// Another environment has a board of its own.
	r.App.Target.Env.Name = "other"
	if other := newBoardRig(t, r); len(other.b.ids) != 0 {
		t.Fatalf("another environment sees %q", other.b.ids)
	}
}

// TestBoardFilterAndCopy: / narrows the rows; c copies the quote id, C the
// payout hash, offered only when there is one.
func TestBoardFilterAndCopy(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	done, failed := screentest.Seed(t, r, sandbox.DestCompleted), screentest.Seed(t, r, sandbox.DestFailed)
	br.send(tea.PasteMsg{Content: done + "," + failed})
	br.send(tea.KeyPressMsg{Code: tea.KeyTab})
	if screentest.Offered(br.b, "copy payout hash") {
		t.Fatal("C offered before any payout hash")
	}
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	br.send(tea.KeyPressMsg{Code: '/', Text: "/"})
	for _, c := range "complet" {
		br.send(tea.KeyPressMsg{Code: c, Text: string(c)})
	}
	br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	if br.b.list.Len() != 1 || br.b.list.Item(0) != done || br.rowOf(failed) != "" {
		t.Fatalf("filter shows %d rows:\n%s", br.b.list.Len(), br.plain())
	}
	br.clips = nil
	br.send(tea.KeyPressMsg{Code: 'c', Text: "c"})
	if len(br.clips) != 1 || br.clips[0] != tea.SetClipboard(done)() {
		t.Fatalf("c copied %#v, want %s", br.clips, done)
	}
	f, _ := br.b.sched.Get(done)
	if f.Last.WithdrawTxHash == "" || !screentest.Offered(br.b, "copy payout hash") {
		t.Fatal("no payout hash to copy on a completed withdrawal")
	}
	br.clips = nil
	br.send(tea.KeyPressMsg{Code: 'C', Text: "C"})
	if len(br.clips) != 1 || br.clips[0] != tea.SetClipboard(f.Last.WithdrawTxHash)() {
		t.Fatalf("C copied %#v", br.clips)
	}
}

// boardScrub hides the sandbox's random quote ids (cut by the column) and
// payout hashes from the goldens.
var boardScrub = regexp.MustCompile(`q-[a-z2-7]{8,}|0x[0-9a-f]{3,7}…[0-9a-f]{5,7}`)

// TestBoardGolden: a board with a completed, a failed, a moving and an
// unknown withdrawal.
func TestBoardGolden(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	ids := []string{screentest.Seed(t, r, sandbox.DestCompleted), screentest.Seed(t, r, sandbox.DestFailed), "q-doesnotexist"}
	br.send(tea.PasteMsg{Content: strings.Join(ids, " ")})
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	moving := screentest.Seed(t, r, sandbox.DestRefunded)
	br.send(tea.PasteMsg{Content: moving})
	br.fire() // its first answer: SUBMITTED
	r.Clock.Advance(42 * time.Second)
	br.send(tea.KeyPressMsg{Code: tea.KeyTab})
	root := tui.New(br.b, tui.Options{Theme: "dark", Common: r.App.Common})
	for _, sz := range screentest.GoldenSizes {
		screentest.Feed(root, tea.WindowSizeMsg{Width: sz.W, Height: sz.H})
		frame := screentest.CheckFrame(t, root.View().Content, sz.W, sz.H)
		t.Run(fmt.Sprintf("%dx%d", sz.W, sz.H), func(t *testing.T) {
			golden.RequireEqual(t, []byte(boardScrub.ReplaceAllStringFunc(ansi.Strip(frame), func(s string) string {
				return s[:2] + strings.Map(func(r rune) rune {
					if r == '…' {
						return r
					}
					return 'x'
				}, s[2:])
			})))
		})
	}
}

// BenchmarkBoardView: the board's frame at 120x40 with 1,000 rows.
func BenchmarkBoardView(b *testing.B) {
	now := screentest.RigStart
	app := &kit.App{Deps: kit.Deps{Common: tui.NewCommon(true, func() time.Time { return now })},
		Session: kit.Session{Target: kit.Target{Env: config.SandboxEnvironment("http://127.0.0.1:1", sandbox.DefaultChainID)}}}
	board := NewBoard(app).(*boardScreen)
	board.SetSize(120, 40)
	var ids []string
	for i := range 1000 {
		ids = append(ids, fmt.Sprintf("q-bench-%05d", i))
	}
	board.add(ids, false)
	for i := range ids {
		id, _, ok := board.sched.Next(now)
		if !ok {
			b.Fatal("nothing due")
		}
		board.sched.Answer(id, service.Withdrawal{QuoteID: id, State: service.StateSubmitted, Chain: "ARBITRUM",
			TokenOut: "USDT", ReceiveAmount: decimal.NewFromInt(int64(i))}, nil, now)
		now = now.Add(time.Second)
	}
	board.sortRows()
	board.typeIDs(false)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		_ = board.View()
	}
}

// TestHistoryAddsToBoard: w on History puts the account's accepted
// withdrawals of this environment on the board, once.
func TestHistoryAddsToBoard(t *testing.T) {
	r := screentest.NewStatusRig(t)
	screentest.HistoryEntries(t, r)
	h := NewHistory(r.App).(*historyScreen)
	h.SetSize(120, 40)
	screentest.Drive(h, h.Init())
	if !screentest.Offered(h, "watch all") {
		t.Fatal("w not offered")
	}
	_, cmd := h.Update(tea.KeyPressMsg{Code: 'w', Text: "w"})
	if msg := cmd(); msg != (tui.InfoMsg{Text: "Added 2 withdrawals to the watch board (s on Home)"}) {
		t.Fatalf("w said %#v", msg)
	}
	_, cmd = h.Update(tea.KeyPressMsg{Code: 'w', Text: "w"})
	if msg, ok := cmd().(tui.InfoMsg); !ok || !strings.Contains(msg.Text, "already") {
		t.Fatalf("w again said %#v", msg)
	}
	br := newBoardRig(t, r)
	if got := strings.Join(br.b.ids, " "); got != "q-sending q-completed" {
		t.Fatalf("board holds %q, want the sending and the completed withdrawal", got)
	}
}

// TestBoardResumeAsksLostAnswers: an answer that arrived while the detail
// was on top is lost; back on the board the id is asked again and followed.
func TestBoardResumeAsksLostAnswers(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	id := screentest.Seed(t, r, sandbox.DestCompleted)
	br.b.input.SetValue(id)
	_, add := br.b.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	for _, m := range screentest.RunAll(add) {
		if tick, ok := m.(boardTickMsg); ok {
			br.b.Update(tick) // hands id out; its answer is dropped
		}
	}
	if len(br.b.inflight) != 1 || br.b.sched.Moving() != 0 {
		t.Fatalf("id not in flight: %v", br.b.inflight)
	}
	br.run(br.b.Resume())
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	if row := br.rowOf(id); !strings.Contains(row, "COMPLETED") {
		t.Fatalf("the lost answer's id was not followed again: %q", row)
	}
}

// TestBoardBell: with the config's bell on, each announced change also
// rings the terminal bell; with it off, never.
func TestBoardBell(t *testing.T) {
	for _, on := range []bool{true, false} {
		r := screentest.NewStatusRig(t)
		r.App.Bell = on
		br := newBoardRig(t, r)
		id := screentest.Seed(t, r, sandbox.DestCompleted)
		br.send(tea.PasteMsg{Content: id})
		for i := 0; i < 100 && br.fire(); i++ {
		}
		bells, changes := 0, 0
		for _, m := range br.clips {
			if raw, ok := m.(tea.RawMsg); ok && fmt.Sprint(raw.Msg) == "\a" {
				bells++
			}
		}
		for _, toast := range br.toasts {
			if strings.HasPrefix(toast, id+":") {
				changes++
			}
		}
		if changes == 0 || (on && bells != changes) || (!on && bells != 0) {
			t.Errorf("bell %v: %d bells for %d announced changes", on, bells, changes)
		}
	}
}

// TestTypingAndPastingNeverQuit: on the board's id field, q and ? are text
// and a bracketed paste goes to the field.
func TestTypingAndPastingNeverQuit(t *testing.T) {
	r := screentest.NewStatusRig(t)
	screentest.TypeAndPasteUnderRoot(t, "watch board", r.App, NewBoard(r.App).(*boardScreen))
}

// TestFilterTakesPastes: while the history's or the board's filter is
// typed, a bracketed paste goes into it like typed keys (it used to be
// dropped).
func TestFilterTakesPastes(t *testing.T) {
	r := screentest.NewStatusRig(t)
	h, b := NewHistory(r.App).(*historyScreen), NewBoard(r.App).(*boardScreen)
	screentest.FilterTakesPaste(t, "history", h, &h.list)
	screentest.FilterTakesPaste(t, "board", b, &b.list)
}

// TestKeyNeverKept: a private key typed or pasted into the board's id
// field (whose pastes skip the field) or into the board's or the history's
// filter is cleared and said, never shown (issue 17 item 7).
func TestKeyNeverKept(t *testing.T) {
	r := screentest.NewStatusRig(t)
	b := NewBoard(r.App).(*boardScreen)
	screentest.RequireKeyCleared(t, r.App, b,
		screentest.KeyField{Name: "board ids", Value: func() string { return b.input.Value() }},
		screentest.KeyField{Name: "board filter", Focus: b.list.StartFilter, Value: b.list.Filter})
	if len(b.ids) != 0 {
		t.Errorf("the board follows %d ids made of the key", len(b.ids))
	}
	h := NewHistory(r.App).(*historyScreen)
	screentest.RequireKeyCleared(t, r.App, h, screentest.KeyField{Name: "history filter", Focus: h.list.StartFilter, Value: h.list.Filter})
}

// TestMalformedIDsShortened: ids refused for their shape are repeated with
// at most 8 hex digits in a row, so a paste holding most of a key (cut
// short of 64 digits, or split) is not put back on screen.
func TestMalformedIDsShortened(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	long := "q-" + screentest.KeyHex[:60] + "-" + screentest.KeyHex[4:64] + "-" + screentest.KeyHex[:10] // 135 characters
	br.send(tea.PasteMsg{Content: long + " " + screentest.KeyHex[:63] + "\x01"})
	v := screentest.OneLine(br.b.View())
	if want := "Not a quote id, not added: q-" + screentest.KeyHex[:8] + "…-" + screentest.KeyHex[4:12] + "…"; !strings.Contains(v, want) {
		t.Errorf("the refusal does not say %q (screen shown with hex runs cut):\n%s", want, clean.Quoted(v))
	}
	if screentest.ShowsKeyPiece(v) || len(br.b.ids) != 0 {
		t.Errorf("the refusal repeats more than 8 hex digits in a row, or an id was added (%d)", len(br.b.ids))
	}
}

// TestBoardJournalsOwnOnly (issue 18): the board journals each state it
// learns of the account's own withdrawal once (SUBMITTED is the
// acceptance), as the status screen does, and nothing of an id this
// account's journal does not hold: here one whose acceptance another
// account journaled on this machine.
func TestBoardJournalsOwnOnly(t *testing.T) {
	r := screentest.NewStatusRig(t)
	own := r.Made(sandbox.DestCompleted, "25")
	other := screentest.Seed(t, r, sandbox.DestCompleted)
	if err := r.App.Journal().Append(journal.Entry{Time: r.Clock.Now(), Kind: journal.KindAccepted,
		Env: r.App.Target.Env.Name, AccountID: sandbox.NoChainAccountID, QuoteID: other}); err != nil {
		t.Fatal(err)
	}
	br := newBoardRig(t, r)
	br.send(tea.PasteMsg{Content: own + "\n" + other})
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	if !strings.Contains(br.rowOf(own), "COMPLETED") || !strings.Contains(br.rowOf(other), "COMPLETED") {
		t.Fatalf("not followed to the end:\n%s", br.plain())
	}
	if got, want := r.JournalStates(own), []string{"accepted", service.StateSending, service.StateCompleted}; !slices.Equal(got, want) {
		t.Errorf("own withdrawal journaled %v, want %v", got, want)
	}
	if got := r.JournalStates(other); !slices.Equal(got, []string{"accepted"}) {
		t.Errorf("another account's withdrawal journaled %v for this one", got)
	}
	if !r.Record(own).Finished() {
		t.Errorf("the own withdrawal's record is not finished: %+v", r.Record(own))
	}
}
