package board

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// boardRig is a board on the status rig's fake clock whose timers are
// recorded: the test advances the clock and fires them.
type boardRig struct {
	*screentest.StatusRig
	b      *boardScreen
	timers *[]dueTimer
	toasts []string
	clips  []tea.Msg
	opened *openedStatus // the last row's status screen opened
	last   tea.Msg       // the last timer fired
}

// openedStatus stands in for the status screen the board opens on a row
// (kit.Makers.BoardStatus), keeping what the board handed it.
type openedStatus struct {
	*screentest.Home
	f      follow.Followed
	paused time.Duration
	tell   kit.Tell
}

// dueTimer is a timer a screen asked for and when it is due.
type dueTimer struct {
	at  time.Time
	msg tea.Msg
}

func newBoardRig(t *testing.T, r *screentest.StatusRig) *boardRig {
	br := unstartedBoardRig(r)
	br.run(br.b.Init())
	return br
}

// unstartedBoardRig is a board at 120x40 whose timers are recorded, not
// started yet.
func unstartedBoardRig(r *screentest.StatusRig) *boardRig {
	var timers []dueTimer
	br := &boardRig{}
	r.App.Timer = func(d time.Duration, msg tea.Msg) tea.Cmd {
		timers = append(timers, dueTimer{r.Clock.Now().Add(d), msg})
		return nil
	}
	r.App.Wait = screentest.ByTimers
	r.App.Makers.BoardStatus = func(app *kit.App, f follow.Followed, paused time.Duration, tell kit.Tell) tui.Screen {
		br.opened = &openedStatus{Home: &screentest.Home{App: app}, f: f, paused: paused, tell: tell}
		return br.opened
	}
	br.StatusRig, br.b, br.timers = r, New(r.App).(*boardScreen), &timers
	br.b.SetSize(120, 40)
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
		case boardTickMsg, boardAskedMsg, boardLoadedMsg, boardSaveMsg, boardSavedMsg, boardExportedMsg, boardJournalTickMsg, boardJournaledMsg:
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

// fire advances the clock to the earliest timer of the asking, the draws
// and the saves, if it is not due yet, and fires it; false when none is
// pending (the board stopped ticking). The journal's watch, which ticks
// while the board is shown, is fired by fireWatch.
func (br *boardRig) fire() bool {
	return br.fireFirst(func(m tea.Msg) bool { _, watch := m.(boardJournalTickMsg); return !watch })
}

// fireWatch fires the journal watch's tick (watchJournal) as fire does.
func (br *boardRig) fireWatch() bool {
	return br.fireFirst(func(m tea.Msg) bool { _, watch := m.(boardJournalTickMsg); return watch })
}

func (br *boardRig) fireFirst(of func(tea.Msg) bool) bool {
	i := -1
	for j, tm := range *br.timers {
		if of(tm.msg) && (i < 0 || tm.at.Before((*br.timers)[i].at)) {
			i = j
		}
	}
	if i < 0 {
		return false
	}
	tm := (*br.timers)[i]
	*br.timers = slices.Delete(*br.timers, i, i+1)
	br.last = tm.msg
	if d := tm.at.Sub(br.Clock.Now()); d > 0 {
		br.Clock.Advance(d)
	}
	br.send(tm.msg)
	return true
}

// toList gives the board the keys, from the id field if it has them.
func (br *boardRig) toList() {
	if br.b.typingIDs() {
		br.send(tea.KeyPressMsg{Code: tea.KeyTab})
	}
}

func (br *boardRig) plain() string { return ansi.Strip(br.b.View()) }

// boardIDs are the board's quote ids in the order added.
func boardIDs(b *boardScreen) []string {
	rows := slices.Clone(b.list.Items())
	slices.SortFunc(rows, func(x, y *boardRow) int { return x.seq - y.seq })
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.QuoteID
	}
	return ids
}

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
	if len(boardIDs(br.b)) != 1 || !strings.Contains(br.rowOf(one), "SUBMITTED") {
		t.Fatalf("pasted id not on the board:\n%s", br.plain())
	}
	two, three := screentest.Seed(t, r, sandbox.DestFailed), screentest.Seed(t, r, sandbox.DestRefunded)
	br.send(tea.PasteMsg{Content: two + ", " + three + "\n" + one + "\r\n" + two + " bad\x01id"})
	if got := strings.Join(boardIDs(br.b), " "); got != one+" "+two+" "+three {
		t.Fatalf("board holds %q, want the three ids once each", got)
	}
	if v := screentest.OneLine(br.b.View()); !strings.Contains(v, `Not a quote id, not added: "bad\x01id"`) {
		t.Fatalf("malformed id not said:\n%s", br.plain())
	}
	if br.b.Inputting() || br.b.input.Value() != "" {
		t.Fatalf("after adding ids the field kept the keys or the paste (%q)", br.b.input.Value())
	}
	// Typing one id and enter adds it too.
	br.send(tea.KeyPressMsg{Code: 'a', Text: "a"})
	four := screentest.Seed(t, r, sandbox.DestCompleted)
	for _, c := range four {
		br.send(tea.KeyPressMsg{Code: c, Text: string(c)})
	}
	br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	if len(boardIDs(br.b)) != 4 || br.rowOf(four) == "" {
		t.Fatalf("typed id not added:\n%s", br.plain())
	}
}

// seedEnds seeds a withdrawal to each end, COMPLETED, FAILED and
// REFUNDED, and returns each id with how its row ends.
func seedEnds(t *testing.T, r *screentest.StatusRig) map[string]string {
	return map[string]string{
		screentest.Seed(t, r, sandbox.DestCompleted): "✓ COMPLETED",
		screentest.Seed(t, r, sandbox.DestFailed):    "✗ FAILED",
		screentest.Seed(t, r, sandbox.DestRefunded):  "↩ REFUNDED",
	}
}

// TestBoardFollowsToTheEnd: a mix followed on the fake clock to COMPLETED,
// FAILED and REFUNDED, an unknown id to NOT FOUND; each change is marked
// and announced once, the moving rows sort first, final ids are never asked
// again and the ticks stop.
func TestBoardFollowsToTheEnd(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	ids := seedEnds(t, r)
	ids["q-doesnotexist2"] = "? NOT FOUND"
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
	for i := 0; i < 10 && br.rowOf("q-doesnotexist2") != "" && !strings.Contains(br.rowOf("q-doesnotexist2"), "NOT FOUND"); i++ {
		br.fire()
	}
	if f, _ := br.b.list.Item(br.b.list.Len()-1).Followed, true; !f.Final || br.b.sched.Moving() == 0 {
		t.Fatalf("the final row is not after the moving ones:\n%s", br.plain())
	}
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	if br.fire() || br.b.ticking || br.b.sched.Moving() != 0 {
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
		if row := []rune(br.rowOf(id)); len(row) < 2 || row[1] != '•' { // after the cursor's column
			t.Errorf("change not marked on %q", br.rowOf(id))
		}
	}
	calls := r.StatusCalls.Load()
	br.send(boardTickMsg{tag: br.b.tag})
	if r.StatusCalls.Load() != calls {
		t.Fatal("a final id was asked again")
	}
	// enter opens the existing status detail of the selected row.
	br.toList()
	_, cmd := br.b.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if push, ok := cmd().(tui.PushMsg); !ok || push.Screen.(*openedStatus).f.QuoteID != br.b.list.Item(0).QuoteID {
		t.Fatalf("enter did not open the status of %s", br.b.list.Item(0).QuoteID)
	}
}

// boardScrub hides the sandbox's random quote ids (cut by the column) and
// payout hashes from the goldens.
var boardScrub = regexp.MustCompile(`q-[a-z2-7]{5,}(…[a-z2-7]{5,})?|0x[0-9a-f]{3,7}…[0-9a-f]{5,7}`)

// TestBoardGolden: a board with a completed, a failed, a moving and an
// unknown withdrawal.
func TestBoardGolden(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	ids := []string{screentest.Seed(t, r, sandbox.DestCompleted), screentest.Seed(t, r, sandbox.DestFailed), "q-doesnotexist2"}
	br.send(tea.PasteMsg{Content: strings.Join(ids, " ")})
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	// A larger amount on another chain: at 80 columns its receive amount
	// leaves out the last check rather than cut a chain's name.
	moving, err := r.Exchange.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestRefunded, "POLYGON", "1000")
	if err != nil {
		t.Fatal(err)
	}
	br.send(tea.PasteMsg{Content: moving})
	br.fire() // its first answer: SUBMITTED
	r.Clock.Advance(42 * time.Second)
	br.toList()
	root := tui.New(br.b, tui.Options{Theme: "dark", Common: r.App.Common})
	for _, sz := range screentest.GoldenSizes {
		screentest.Feed(root, tea.WindowSizeMsg{Width: sz.W, Height: sz.H})
		frame := screentest.CheckFrame(t, root.View().Content, sz.W, sz.H)
		// At 60 columns the id is cut in the middle before a chain's name
		// (a cut one can read as another: POLYGON… for POLYGON_TEST), and
		// the amount's unit goes before its digits.
		amount := " 998.5 USDT "
		if sz.W < 80 {
			amount = " 998.5 "
		}
		for _, whole := range []string{" POLYGON ", " ARBITRUM ", amount} {
			if !strings.Contains(ansi.Strip(frame), whole) {
				t.Errorf("%dx%d: %q is not drawn whole:\n%s", sz.W, sz.H, whole, ansi.Strip(frame))
			}
		}
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

// TestBoardRateLimited (issue 21 bug 3): a 429 is said as what it is, with
// its countdown, on the rows not yet answered, in the footer and in the
// detail, never as NO ANSWER or not found; the asks resume after it.
func TestBoardRateLimited(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	done := screentest.Seed(t, r, sandbox.DestCompleted)
	br.send(tea.PasteMsg{Content: done})
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	a, b := screentest.Seed(t, r, sandbox.DestCompleted), screentest.Seed(t, r, sandbox.DestCompleted)
	r.LimitStatus.Store(3)
	br.send(tea.PasteMsg{Content: a + " " + b}) // b, the newest, is asked first
	for i := 0; i < 3 && !strings.Contains(br.rowOf(b), "RATE LIMITED"); i++ {
		br.fire() // the budget's next slot
	}
	v := br.plain()
	if !strings.Contains(br.rowOf(b), "‖ RATE LIMITED") || !strings.Contains(v, "rate limited, resuming in 3s") || strings.Contains(v, "NO ANSWER") {
		t.Fatalf("a 429 on the board:\n%s", v)
	}
	start := r.Clock.Now()
	for i := 0; i < 3 && !strings.Contains(br.plain(), "resuming in 2s"); i++ {
		br.fire()
	}
	if v := br.plain(); !strings.Contains(v, "rate limited, resuming in 2s") || r.Clock.Now().Sub(start) > time.Second {
		t.Fatalf("the countdown is not redrawn within a second (%s):\n%s", r.Clock.Now().Sub(start), v)
	}
	// The detail of a row is handed the board's record and the pause, so
	// that it shows the record at once and asks only once the pause is
	// over (TestBoardStatusWaitsOutThePause).
	br.toList()
	br.send(tea.KeyPressMsg{Code: tea.KeyEnd})
	_, cmd := br.b.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	detail := cmd().(tui.PushMsg).Screen.(*openedStatus)
	if detail.f.QuoteID != done || detail.f.Last.State != exchange.StateCompleted || !detail.f.Known ||
		detail.paused <= time.Second || detail.paused > 2*time.Second {
		t.Fatalf("the detail was handed %+v, paused %s; want %s COMPLETED, paused for 2s", detail.f, detail.paused, done)
	}
	r.LimitStatus.Store(0)
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	if !strings.Contains(br.rowOf(a), "COMPLETED") || !strings.Contains(br.rowOf(b), "COMPLETED") || strings.Contains(br.plain(), "rate limited") {
		t.Errorf("the asks did not resume after the pause:\n%s", br.plain())
	}
}

// TestBoardProgress (issue 28 item 6): while rows have no record yet the
// count says how many were asked ("asked 3 of 10"), and the totals count
// each outcome and what moves; once every row has one, the progress goes.
func TestBoardProgress(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	var ids []string
	for i := range 10 {
		ids = append(ids, fmt.Sprintf("q-gone-%02d", i))
	}
	br.send(tea.PasteMsg{Content: strings.Join(ids, " ")})
	if v := br.plain(); !strings.Contains(v, "10 withdrawals · asked 1 of 10") || !strings.Contains(v, "\n  1 not found · 0 moving") {
		t.Fatalf("after the paste (one asked at once):\n%s", v)
	}
	br.fire()
	br.fire()
	if p, tot := br.b.progress(), br.b.totals(); p != "asked 3 of 10" || tot != "3 not found · 0 moving" {
		t.Fatalf("after three asks: %q, %q", p, tot)
	}
	// Answers faster than one a second are drawn together, within a second.
	start := br.Clock.Now()
	for br.fire() {
		if _, ok := br.last.(boardDrawMsg); ok {
			break
		}
	}
	if d := br.Clock.Now().Sub(start); d > boardDrawEvery {
		t.Fatalf("the answers were drawn %s later", d)
	}
	asked := fmt.Sprintf("asked %d of 10", 10-br.b.tally.unasked)
	if v := br.plain(); !strings.Contains(v, asked) || !strings.Contains(v, fmt.Sprintf("\n  %d not found · 0 moving", 10-br.b.tally.unasked)) {
		t.Fatalf("after the draw, want %q:\n%s", asked, v)
	}
	for i := 0; i < 100 && br.fire(); i++ {
	}
	if v := br.plain(); strings.Contains(v, "asked") || !strings.Contains(v, "10 withdrawals\n") || !strings.Contains(v, "10 not found · 0 moving") {
		t.Fatalf("once all were asked:\n%s", v)
	}
}
