package board

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io/fs"
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
	"github.com/mr-tron/base58"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
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
	if got := strings.Join(boardIDs(again.b), " "); got != a+" "+b {
		t.Fatalf("after a restart the board holds %q", got)
	}
	again.toList()
	again.send(tea.KeyPressMsg{Code: 'x', Text: "x"})
	third := newBoardRig(t, r)
	if len(boardIDs(third.b)) != 1 {
		t.Fatalf("x not kept: %q", boardIDs(third.b))
	}
	// Another environment has a board of its own.
	r.App.Target.Env.Name = "other"
	if other := newBoardRig(t, r); len(boardIDs(other.b)) != 0 {
		t.Fatalf("another environment sees %q", boardIDs(other.b))
	}
}

// TestBoardFilterAndCopy: / narrows the rows; c copies the quote id, C the
// payout hash, offered only when there is one.
func TestBoardFilterAndCopy(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	done, failed := screentest.Seed(t, r, sandbox.DestCompleted), screentest.Seed(t, r, sandbox.DestFailed)
	br.send(tea.PasteMsg{Content: done + "," + failed})
	br.toList()
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
	if br.b.list.Len() != 1 || br.b.list.Item(0).QuoteID != done || br.rowOf(failed) != "" {
		t.Fatalf("filter shows %d rows:\n%s", br.b.list.Len(), br.plain())
	}
	br.clips = nil
	br.send(tea.KeyPressMsg{Code: 'c', Text: "c"})
	if len(br.clips) != 1 || br.clips[0] != tea.Raw(ansi.SetSystemClipboard(done))() {
		t.Fatalf("c copied %#v, want %s", br.clips, done)
	}
	f, _ := br.b.sched.Get(done)
	if f.Last.WithdrawTxHash == "" || !screentest.Offered(br.b, "copy payout hash") {
		t.Fatal("no payout hash to copy on a completed withdrawal")
	}
	br.clips = nil
	br.send(tea.KeyPressMsg{Code: 'C', Text: "C"})
	if len(br.clips) != 1 || br.clips[0] != tea.Raw(ansi.SetSystemClipboard(f.Last.WithdrawTxHash))() {
		t.Fatalf("C copied %#v", br.clips)
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

// TestTypingAndPastingNeverQuit: on the board's id field, q and ? are text
// and a bracketed paste goes to the field.
func TestTypingAndPastingNeverQuit(t *testing.T) {
	r := screentest.NewStatusRig(t)
	screentest.TypeAndPasteUnderRoot(t, "watch board", r.App, New(r.App).(*boardScreen))
}

// TestFilterTakesPastes: while the board's filter is typed, a bracketed
// paste goes into it like typed keys (it used to be dropped).
func TestFilterTakesPastes(t *testing.T) {
	r := screentest.NewStatusRig(t)
	b := New(r.App).(*boardScreen)
	screentest.FilterTakesPaste(t, "board", b, &b.list)
}

// TestKeyNeverKept (issue 17 item 7, issue 35 item 3): a private key
// typed or pasted into the board's id field or its filter is cleared or
// refused, never shown, followed or asked; one written as a payout hash
// (0x and 64 hex digits) is looked up here as one, and not found, said
// without repeating it. The rest of a paste is kept.
func TestKeyNeverKept(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	key := screentest.KeyHex
	one := screentest.Seed(t, r, sandbox.DestCompleted)
	for _, c := range []struct{ how, text, said string }{
		{"pasted bare", key, "private key's shape, not shown"},
		{"pasted over two lines", "0x" + key[:32] + "\n" + key[32:] + "\n", "private key's shape, not shown"},
		{"pasted with 0x", "0x" + key, "payout hash you gave was not found"},
		{"pasted inside text, with an id", "my key is 0x" + key + " (do not share)\n" + one, "payout hash you gave was not found"},
	} {
		br.toasts = nil
		br.send(tea.PasteMsg{Content: c.text})
		v := screentest.OneLine(br.b.View())
		if !strings.Contains(v, c.said) || screentest.ShowsKeyPiece(br.plain()) || br.b.input.Value() != "" {
			t.Errorf("key %s: field %d characters, the board says:\n%s", c.how, len(br.b.input.Value()), br.plain())
		}
	}
	if ids := boardIDs(br.b); len(ids) != 1 || ids[0] != one {
		t.Errorf("the board follows %q, want only the id pasted with a key", ids)
	}
	// Typed, a key is cleared; a hash is held as typed, then looked up.
	br.send(tea.KeyPressMsg{Code: 'a', Text: "a"})
	for _, typed := range []string{key, "0x" + key} {
		for _, ch := range typed {
			br.send(tea.KeyPressMsg{Code: ch, Text: string(ch)})
		}
		if strings.HasPrefix(typed, "0x") {
			br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
		}
		if br.b.input.Value() != "" || screentest.ShowsKeyPiece(br.plain()) {
			t.Errorf("key typed %.2s…: the field holds %d characters:\n%s", typed, len(br.b.input.Value()), br.plain())
		}
	}
	if n := r.StatusCalls.Load(); n > 1 {
		t.Errorf("%d status requests, want only the pasted id's", n)
	}
	// The filter takes a hash as text; any other key's shape is cleared.
	b := New(r.App).(*boardScreen)
	screentest.RequireKeyCleared(t, r.App, b, screentest.KeyField{Name: "board filter", Focus: b.list.StartFilter, Value: b.list.Filter,
		Hashes: true})
	// The id field's enter adds what it holds: a key's shape typed short
	// of 64 digits is cleared first, and nothing is added.
	b = New(r.App).(*boardScreen)
	b.typeIDs(true)
	for _, c := range "0x" + screentest.KeyHex[:62] {
		b.Update(tea.KeyPressMsg{Code: c, Text: string(c)})
	}
	_, cmd := b.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	said := false
	for _, m := range screentest.RunAll(cmd) {
		e, ok := m.(tui.ErrorMsg)
		said = said || ok && e.Err == kit.KeyCleared
	}
	if b.input.Value() != "" || b.list.Len() != 0 || !said {
		t.Errorf("the id field's enter acted on a key's shape: the field holds %d characters, the board %d rows, cleared said %t", len(b.input.Value()), b.list.Len(), said)
	}
}

// TestMalformedIDsShortened: ids refused for their shape are repeated with
// at most 8 hex digits in a row, so a paste holding most of a key (cut
// short of 64 digits, or split) is not put back on screen.
func TestMalformedIDsShortened(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	long := "q-" + screentest.KeyHex[:60] + "-" + screentest.KeyHex[4:64] + "-" + screentest.KeyHex[:10] // 135 characters
	br.send(tea.PasteMsg{Content: long + " " + screentest.KeyHex[:61] + "\x01"})
	v := screentest.OneLine(br.b.View())
	if want := `Not a quote id, not added: "q-` + screentest.KeyHex[:8] + "…-" + screentest.KeyHex[4:12] + "…"; !strings.Contains(v, want) {
		t.Errorf("the refusal does not say %q (screen shown with hex runs cut):\n%s", want, safetext.Quoted(v))
	}
	if screentest.ShowsKeyPiece(v) || len(boardIDs(br.b)) != 0 {
		t.Errorf("the refusal repeats more than 8 hex digits in a row, or an id was added (%d)", len(boardIDs(br.b)))
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
	if got, want := r.JournalStates(own), []string{"accepted", exchange.StateSending, exchange.StateCompleted}; !slices.Equal(got, want) {
		t.Errorf("own withdrawal journaled %v, want %v", got, want)
	}
	if got := r.JournalStates(other); !slices.Equal(got, []string{"accepted"}) {
		t.Errorf("another account's withdrawal journaled %v for this one", got)
	}
	if !r.Record(own).Finished() {
		t.Errorf("the own withdrawal's record is not finished: %+v", r.Record(own))
	}
}

// loadOnly builds a board as a restart does and hands it only what it read
// from the disk: no tick has run, no status is asked yet. It returns the
// Cmd that starts the asks.
func loadOnly(t *testing.T, r *screentest.StatusRig) (*boardRig, tea.Cmd) {
	t.Helper()
	br := unstartedBoardRig(r)
	for _, m := range screentest.RunAll(br.b.Init()) {
		if loaded, ok := m.(boardLoadedMsg); ok {
			_, kick := br.b.Update(loaded)
			return br, kick
		}
	}
	t.Fatal("the board read nothing")
	return nil, nil
}

// TestBoardRestartShowsRecords (issue 21 bug 2): what the board learned is
// kept with it; after a restart every row shows its last record at once,
// before any request, opened at the top; a final id is never asked again,
// and the footer counts as moving only what is in motion.
func TestBoardRestartShowsRecords(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	want := seedEnds(t, r)
	var paste []string
	for id := range want {
		paste = append(paste, id)
	}
	for i := range 40 {
		id := fmt.Sprintf("q-gone-%02d", i)
		paste, want[id] = append(paste, id), "? NOT FOUND"
	}
	br.send(tea.PasteMsg{Content: strings.Join(paste, "\n")})
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	if v := br.plain(); !strings.Contains(v, "  1–32 of 43 withdrawals\n") || !strings.Contains(v, " · 0 moving") {
		t.Fatalf("the board is not at the top, or counts what does not move:\n%s", v)
	}
	calls := r.StatusCalls.Load()
	again, kick := loadOnly(t, r)
	for i := range min(again.b.list.Len(), 32) { // the rows drawn
		id := again.b.list.Item(i).QuoteID
		if row := again.rowOf(id); !strings.Contains(row, want[id]) {
			t.Errorf("after a restart %s shows %q, want %s at once", id, row, want[id])
		}
	}
	for id, w := range want {
		if r := again.b.rows[id]; !strings.Contains(boardGlyph(r.label)+" "+r.label, w) {
			t.Errorf("after a restart %s is %s, want %s at once", id, r.label, w)
		}
	}
	if v := again.plain(); !strings.Contains(v, "  1–32 of 43 withdrawals\n") || !strings.Contains(v, " · 0 moving") {
		t.Errorf("the restarted board is not at the top, or counts what does not move:\n%s", v)
	}
	again.run(kick)
	for i := 0; i < 1000 && again.fire(); i++ {
	}
	if n := r.StatusCalls.Load() - calls; n != 0 {
		t.Fatalf("after a restart %d requests asked about final withdrawals", n)
	}
	// A moving one is shown as last seen, counted, and asked again.
	moving := screentest.Seed(t, r, sandbox.DestCompleted)
	again.send(tea.PasteMsg{Content: moving})
	again.fire()
	if row := again.rowOf(moving); !strings.Contains(row, "▶ SUBMITTED") {
		t.Fatalf("the moving withdrawal: %q", row)
	}
	third, kick := loadOnly(t, r)
	if row, v := third.rowOf(moving), third.plain(); !strings.Contains(row, "▶ SUBMITTED") || !strings.Contains(v, "· 1 moving") {
		t.Errorf("after a restart the moving one shows %q:\n%s", row, v)
	}
	third.run(kick)
	for i := 0; i < 1000 && third.fire(); i++ {
	}
	if got := third.b.rows[moving].Outcome().Name; got != exchange.StateCompleted {
		t.Errorf("the moving one was not followed on: %s", got)
	}
}

// TestBoardKeepsWhatIsSeen: a change is kept within boardSaveEvery, a
// restart in between never asks an id the file holds as final, and what
// the file says of an id is checked as an answer would be: a record of
// another id, or of the wrong shape, is dropped and its id asked again.
func TestBoardKeepsWhatIsSeen(t *testing.T) {
	r := screentest.NewStatusRig(t)
	id := screentest.Seed(t, r, sandbox.DestCompleted)
	path := kit.WatchlistPath(r.App)
	other := screentest.Seed(t, r, sandbox.DestFailed)
	planted := []follow.Kept{
		{QuoteID: id, Record: &exchange.Withdrawal{QuoteID: other, State: exchange.StateCompleted, Chain: "ARBITRUM", TokenOut: "USDT", WithdrawTxHash: "0x" + strings.Repeat("ab", 32)}},
		{QuoteID: other, Record: &exchange.Withdrawal{QuoteID: other, State: "PAID\x1b[2J", Chain: "ARBITRUM", TokenOut: "USDT"}},
	}
	if err := (&follow.WatchFile{Path: path, Env: r.App.Target.Env.Name}).Append(planted, nil); err != nil {
		t.Fatal(err)
	}
	br, kick := loadOnly(t, r)
	for _, id := range []string{id, other} {
		if row := br.rowOf(id); !strings.Contains(row, "· ASKING") {
			t.Errorf("a planted record was believed: %q", row)
		}
	}
	br.run(kick)
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	kept, err := (&follow.WatchFile{Path: path, Env: r.App.Target.Env.Name}).Load()
	if err != nil || len(kept) != 2 || kept[0].Record == nil || kept[0].Record.State != exchange.StateCompleted || kept[1].Record.State != exchange.StateFailed {
		t.Fatalf("the file keeps %+v (%v)", kept, err)
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

// TestBoardSorts (issue 21 item 13): S cycles through an order a column,
// each turned round by the next S, the column marked in the titles, and
// keeps it as answers come.
func TestBoardSorts(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	small, large := r.Made(sandbox.DestCompleted, "5"), r.Made(sandbox.DestFailed, "50")
	br.send(tea.PasteMsg{Content: "q-gone-404 " + small + " " + large})
	for br.b.sched.Moving() > 0 && (!br.b.rows[large].Known || !br.b.rows[small].Known || !br.b.rows["q-gone-404"].NotFound) {
		br.fire()
	}
	br.toList()
	order := func() []string {
		var ids []string
		for i := range br.b.list.Len() {
			ids = append(ids, br.b.list.Item(i).QuoteID)
		}
		return ids
	}
	if got := order(); got[2] != "q-gone-404" {
		t.Fatalf("moving first: %q", got)
	}
	for range 6 {
		br.send(tea.KeyPressMsg{Code: 'S', Text: "S"})
	}
	if got, title := order(), strings.Split(br.plain(), "\n")[5]; !slices.Equal(got, []string{large, small, "q-gone-404"}) || !strings.Contains(title, "RECEIVE↓") || strings.Contains(title, "STATE↑") {
		t.Fatalf("by amount, largest first: %q under %q", got, title)
	}
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	if got := order(); !slices.Equal(got, []string{large, small, "q-gone-404"}) {
		t.Errorf("the order by amount was not kept as answers came: %q", got)
	}
}

// TestBoardSortGroupsStates (issue 28 item 7): by state the rows are
// grouped, the moving ones first, FAILED together, COMPLETED last, each
// group in the order added; S again turns it round, ↓ in the title.
func TestBoardSortGroupsStates(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	var ids []string
	for _, to := range []string{sandbox.DestCompleted, sandbox.DestFailed, sandbox.DestCompleted, sandbox.DestFailed} {
		ids = append(ids, screentest.Seed(t, r, to))
	}
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
	br.fire() // SUBMITTED
	br.toList()
	order := func() []string {
		var got []string
		for i := range br.b.list.Len() {
			got = append(got, br.b.list.Item(i).QuoteID)
		}
		return got
	}
	title := func() string { return strings.Split(br.plain(), "\n")[5] }
	want := []string{moving, ids[1], ids[3], ids[0], ids[2]}
	if got := order(); !slices.Equal(got, want) || !strings.Contains(title(), "STATE↑") {
		t.Fatalf("by state %q under %q, want %q", got, title(), want)
	}
	br.send(tea.KeyPressMsg{Code: 'S', Text: "S"})
	slices.Reverse(want)
	if got := order(); !slices.Equal(got, want) || !strings.Contains(title(), "STATE↓") {
		t.Fatalf("by state turned round %q under %q, want %q", got, title(), want)
	}
}

// TestBoardClearAndUndo (issue 21 item 13, issue 28 item 9): f clears the
// COMPLETED and EXPIRED rows and keeps those that need a follow-up
// (FAILED, REFUNDED, NOT FOUND), F every row that ended, n the ids not
// found, each offered only when there are some; u puts the last ones
// cleared back as they were, without asking them again; a board a clear
// left empty says what was cleared; the board file follows.
func TestBoardClearAndUndo(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	done, failed := screentest.Seed(t, r, sandbox.DestCompleted), screentest.Seed(t, r, sandbox.DestFailed)
	br.send(tea.PasteMsg{Content: done + " " + failed + " q-gone-1 q-gone-2"})
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	// A larger amount on another chain: at 80 columns its receive amount
	// leaves out the last check rather than cut a chain's name.
	moving, err := r.Exchange.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestRefunded, "POLYGON", "1000")
	if err != nil {
		t.Fatal(err)
	}
	br.send(tea.PasteMsg{Content: moving})
	br.fire()
	br.toList()
	if screentest.Offered(br.b, "undo remove") || !screentest.Offered(br.b, "clear completed") || !screentest.Offered(br.b, "clear all ended") ||
		!screentest.Offered(br.b, "clear not found") {
		t.Fatal("the clears are not offered, or undo is before anything was removed")
	}
	if v := br.plain(); !strings.Contains(v, "1 completed · 1 failed · 2 not found · 1 moving") {
		t.Errorf("the totals:\n%s", v)
	}
	br.send(tea.KeyPressMsg{Code: 'f', Text: "f"})
	if got := boardIDs(br.b); !slices.Equal(got, []string{failed, "q-gone-1", "q-gone-2", moving}) || br.toasts[len(br.toasts)-1] != "Cleared 1 completed withdrawal: u puts it back" {
		t.Fatalf("f left %q, said %q", got, br.toasts)
	}
	if screentest.Offered(br.b, "clear completed") || !screentest.Offered(br.b, "undo remove") {
		t.Fatal("f still offered with nothing completed, or u not offered")
	}
	calls := r.StatusCalls.Load()
	br.send(tea.KeyPressMsg{Code: 'u', Text: "u"})
	if got := boardIDs(br.b); !slices.Equal(got, []string{done, failed, "q-gone-1", "q-gone-2", moving}) || !strings.Contains(br.rowOf(done), "✓ COMPLETED") {
		t.Fatalf("u put back %q:\n%s", got, br.plain())
	}
	if r.StatusCalls.Load() != calls || screentest.Offered(br.b, "undo remove") {
		t.Fatal("u asked about final withdrawals again, or offers a second undo")
	}
	br.send(tea.KeyPressMsg{Code: 'F', Text: "F"})
	if got := boardIDs(br.b); !slices.Equal(got, []string{moving}) || br.toasts[len(br.toasts)-1] != "Cleared 1 failed, 2 not found, 1 completed withdrawals: u puts them back" {
		t.Fatalf("F left %q, said %q", got, br.toasts[len(br.toasts)-1])
	}
	br.send(tea.KeyPressMsg{Code: 'u', Text: "u"})
	br.send(tea.KeyPressMsg{Code: 'n', Text: "n"})
	if got := boardIDs(br.b); !slices.Equal(got, []string{done, failed, moving}) {
		t.Fatalf("n left %q", got)
	}
	kept, _ := (&follow.WatchFile{Path: kit.WatchlistPath(r.App), Env: r.App.Target.Env.Name}).Load()
	if len(kept) != 3 {
		t.Errorf("the file keeps %d ids after n, want 3", len(kept))
	}
	for i := 0; i < 1000 && br.fire(); i++ { // the moving one ends
	}
	br.toasts = nil
	br.send(tea.KeyPressMsg{Code: 'F', Text: "F"})
	if v := br.plain(); len(boardIDs(br.b)) != 0 || !strings.Contains(v, "Cleared 1 failed, 1 refunded, 1 completed withdrawals: u puts them back.") ||
		strings.Contains(v, "No withdrawals on the board yet") {
		t.Errorf("the board a clear left empty:\n%s", v)
	}
	// The empty board's body says it: a toast said it twice.
	if len(br.toasts) != 0 {
		t.Errorf("the clear that left the board empty is said again: %q", br.toasts)
	}
}

// TestBoardExport (issue 21 item 13, issue 28 item 10): e asks where,
// pre-filled with today's file in the state directory; enter writes every
// row, filtered out or not, as CSV to a new 0600 file, and says where; a
// cell a spreadsheet would run is escaped. Today's file taken, the next
// export goes beside it; a path typed over the pre-filled one is used, a
// file there is never replaced, and text that is no .csv path (a word, a
// passphrase typed by mistake) is refused in the field.
func TestBoardExport(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	done := screentest.Seed(t, r, sandbox.DestCompleted)
	br.send(tea.PasteMsg{Content: done + " q-gone-404 -1234567"})
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	br.toList()
	br.send(tea.KeyPressMsg{Code: '/', Text: "/"})
	br.send(tea.PasteMsg{Content: "gone"})
	br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	br.send(tea.KeyPressMsg{Code: 'e', Text: "e"})
	dir := filepath.Dir(r.App.Journal().Path())
	path := filepath.Join(dir, "watchboard-sandbox-20260302.csv")
	if !br.b.Inputting() || br.b.exportTo.Value() != path || !strings.Contains(br.plain(), "› Export to   "+path) {
		t.Fatalf("e does not ask where, pre-filled with %s:\n%s", path, br.plain())
	}
	br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	if want := "Exported 3 withdrawals to " + path; br.toasts[len(br.toasts)-1] != want || br.b.Inputting() {
		t.Fatalf("enter said %q, want %q (the field left open: %v)", br.toasts[len(br.toasts)-1], want, br.b.Inputting())
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("export file: %v %v", fi, err)
	}
	// The path stays under the field, whole, until the next key: the
	// toast gives way to the next change.
	if v := strings.ReplaceAll(br.plain(), "\n", ""); !strings.Contains(v, "Exported 3 withdrawals to "+path) {
		t.Errorf("the export's path is not on the board:\n%s", br.plain())
	}
	br.send(tea.KeyPressMsg{Code: tea.KeyDown})
	if strings.Contains(br.plain(), "Exported") {
		t.Errorf("the export's note outlived the next key:\n%s", br.plain())
	}
	f, _ := os.Open(path)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) != 4 || !slices.Equal(rows[0], follow.CSVHeader) {
		t.Fatalf("CSV %q, %v", rows, err)
	}
	byID := map[string][]string{}
	for _, row := range rows[1:] {
		byID[row[0]] = row
	}
	cell := func(row []string, name string) string { return row[slices.Index(follow.CSVHeader, name)] }
	if got := byID[done]; cell(got, "outcome") != exchange.StateCompleted || cell(got, "chain") != "ARBITRUM" ||
		!strings.HasPrefix(cell(got, "withdraw_tx_hash"), "0x") || cell(got, "last_checked") == "" {
		t.Errorf("the completed row: %q", got)
	}
	if got := byID["'-1234567"]; got == nil || cell(got, "outcome") != follow.LabelNotFound {
		t.Errorf("the id a spreadsheet would compute is not escaped: %q", rows)
	}
	// A second export of the day is a new file beside the first.
	br.send(tea.KeyPressMsg{Code: 'e', Text: "e"})
	br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	second := strings.TrimSuffix(path, ".csv") + "-2.csv"
	if want := "Exported 3 withdrawals to " + second; br.toasts[len(br.toasts)-1] != want {
		t.Fatalf("a second export said %q, want %q", br.toasts[len(br.toasts)-1], want)
	}
	if first, _ := os.ReadFile(path); len(first) == 0 {
		t.Error("the second export replaced the first")
	}
	// Typed over: words are refused in the field, and a path is used as
	// typed, never replacing a file.
	typed := func(s string) {
		br.send(tea.KeyPressMsg{Code: 'e', Text: "e"})
		for _, c := range s {
			br.send(tea.KeyPressMsg{Code: c, Text: string(c)})
		}
		br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	}
	files := func() int { m, _ := filepath.Glob(filepath.Join(dir, "*.csv")); return len(m) }
	typed("correct horse battery")
	if v := screentest.OneLine(br.plain()); !br.b.exporting() || !strings.Contains(v, "must end in .csv") || files() != 2 ||
		strings.Contains(v, "horse") {
		t.Fatalf("words typed as the export's path:\n%s", br.plain())
	}
	br.send(tea.KeyPressMsg{Code: tea.KeyEscape})
	mine := filepath.Join(t.TempDir(), "case 123.csv")
	typed(mine)
	if br.toasts[len(br.toasts)-1] != "Exported 3 withdrawals to "+mine {
		t.Fatalf("a typed path: said %q", br.toasts[len(br.toasts)-1])
	}
	typed(mine)
	if v := screentest.OneLine(br.plain()); !br.b.exporting() || !strings.Contains(v, "exists already: type another name") {
		t.Fatalf("an export over a file:\n%s", br.plain())
	}
	// A typed name is said escaped, its hex runs cut (safetext.ShownTyped):
	// cleaned, the no-break space read as a space, another file's name.
	br.send(tea.KeyPressMsg{Code: tea.KeyEscape})
	odd := filepath.Join(filepath.Dir(mine), "x\u00a0"+screentest.KeyHex[:20]+".csv")
	if err := os.WriteFile(odd, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	typed(odd)
	if v, want := screentest.OneLine(br.plain()), `/x\u00a0`+screentest.KeyHex[:8]+`….csv" exists already`; !strings.Contains(v, want) {
		t.Fatalf("a typed name over a file is not said %q:\n%s", want, br.plain())
	}
}

// TestBoardWheel (issue 21 item 13): the board asks for the mouse wheel
// only while its rows have the keys, and the wheel moves its cursor.
func TestBoardWheel(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	br.send(tea.PasteMsg{Content: "q-gone-1 q-gone-2 q-gone-3"})
	br.send(tea.KeyPressMsg{Code: 'a', Text: "a"})
	if br.b.Wheel() {
		t.Fatal("the wheel is asked for while ids are typed")
	}
	br.toList()
	br.send(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	br.send(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if sel, _ := br.b.list.Selected(); !br.b.Wheel() || sel != br.b.list.Item(2) {
		t.Fatalf("two notches down selected %s, not the third row (wheel %v)", sel.QuoteID, br.b.Wheel())
	}
}

// TestBoardHelp (issue 21 item 13): every key the board's footer could
// offer is a binding that acts, and ? lists every key that acts now with
// the legend of the rows' marks, whole at 80x24 and 120x40, and at 60x20
// over pages that ? turns (nothing cut short).
func TestBoardHelp(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	done := screentest.Seed(t, r, sandbox.DestCompleted)
	var ids []string
	for i := range 40 {
		ids = append(ids, fmt.Sprintf("q-gone-%02d", i))
	}
	br.send(tea.PasteMsg{Content: done + " " + strings.Join(ids, " ")})
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	br.toList()
	br.send(tea.KeyPressMsg{Code: tea.KeyHome})    // a row not found
	br.send(tea.KeyPressMsg{Code: 'x', Text: "x"}) // so u acts too
	root := tui.New(br.b, tui.Options{Theme: "dark", Common: r.App.Common})
	for _, sz := range screentest.GoldenSizes {
		screentest.Feed(root, tea.WindowSizeMsg{Width: sz.W, Height: sz.H})
		// ? opens the help and turns its pages while it says "? more".
		var frames []string
		for page := 1; page == 1 || strings.Contains(strings.Join(strings.Fields(frames[len(frames)-1]), " "), "? more"); page++ {
			screentest.Feed(root, tea.KeyPressMsg{Code: '?', Text: "?"})
			frame := ansi.Strip(screentest.CheckFrame(t, root.View().Content, sz.W, sz.H))
			if cut := strings.NewReplacer("q-…", "", "q…", "").Replace(frame); strings.Contains(cut, "…") {
				t.Errorf("%dx%d: page %d of ? is cut short:\n%s", sz.W, sz.H, page, frame)
			}
			name := fmt.Sprintf("%dx%d", sz.W, sz.H)
			if page > 1 {
				name += fmt.Sprintf("-%d", page)
			}
			t.Run(name, func(t *testing.T) { golden.RequireEqual(t, []byte(frame)) })
			frames = append(frames, frame)
			if page > 3 {
				t.Fatalf("%dx%d: ? shows more than 3 pages", sz.W, sz.H)
			}
		}
		frame := strings.Join(frames, "\n")
		listed := strings.Join(strings.Fields(frame), " ")
		for _, b := range br.b.bindings().KeyMap().ShortHelp() {
			if !strings.Contains(listed, b.Help().Key+" "+b.Help().Desc) {
				t.Errorf("%dx%d: ? does not list %q:\n%s", sz.W, sz.H, b.Help().Key+" "+b.Help().Desc, frame)
			}
		}
		for _, want := range []string{"S sort", "e export CSV", "f clear completed", "F clear all ended", "n clear not found", "u undo remove", "• changed since last selected", "! accepted, now CREATED or unknown", "‖ rate limited"} {
			if !strings.Contains(listed, want) {
				t.Errorf("%dx%d: ? does not list %q:\n%s", sz.W, sz.H, want, frame)
			}
		}
		if screentest.Feed(root, tea.KeyPressMsg{Code: '?', Text: "?"}); strings.Contains(ansi.Strip(root.View().Content), "close help") {
			t.Errorf("%dx%d: ? on the last page did not close the help", sz.W, sz.H)
		}
	}
}

// TestBoardPasteSkipsComments: the board's field reads ids as `svcwallet
// status -` does (follow.ParseQuoteIDs): a # starts a comment to the end of
// its line, whether the line ends in \n, \r\n or \r, so no word of a
// comment is added or said; what is malformed is.
func TestBoardPasteSkipsComments(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	one, two := screentest.Seed(t, r, sandbox.DestCompleted), screentest.Seed(t, r, sandbox.DestFailed)
	br.send(tea.PasteMsg{Content: one + "\n# comment\nbad!id\r" + two + " # another one, " + one + "\r\n#" + two})
	if got := strings.Join(boardIDs(br.b), " "); got != one+" "+two {
		t.Fatalf("board holds %q, want %s and %s", got, one, two)
	}
	v := screentest.OneLine(br.b.View())
	if !strings.Contains(v, `Not a quote id, not added: "bad!id". `) || strings.Contains(v, "# comment") || strings.Contains(v, "another") {
		t.Fatalf("the refusal says more or less than bad!id:\n%s", br.plain())
	}
}

// TestBoardEmptyFieldErrorLeavesWithFocus: enter on the empty field asks
// for an id; once the board has the keys, that is said no more.
func TestBoardEmptyFieldErrorLeavesWithFocus(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	br.send(tea.PasteMsg{Content: screentest.Seed(t, r, sandbox.DestCompleted)})
	br.send(tea.KeyPressMsg{Code: 'a', Text: "a"})
	br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	if !strings.Contains(br.plain(), "Type or paste a quote id first") {
		t.Fatalf("enter on the empty field said nothing:\n%s", br.plain())
	}
	br.send(tea.KeyPressMsg{Code: tea.KeyTab})
	if br.b.Inputting() || strings.Contains(br.plain(), "Type or paste a quote id first") {
		t.Fatalf("the field's error stayed once the board had the keys:\n%s", br.plain())
	}
	// A load error is the board's, not the field's: it stays.
	br.b.err = exchange.UserError{Text: "The board's saved ids cannot be read"}
	br.send(tea.KeyPressMsg{Code: 'a', Text: "a"})
	br.send(tea.KeyPressMsg{Code: tea.KeyTab})
	if !strings.Contains(br.plain(), "saved ids cannot be read") {
		t.Errorf("leaving the field took the board's own error:\n%s", br.plain())
	}
}

// TestExpiredQuoteHasOneName: a quote of this account that expired without
// being executed is EXPIRED on the board and in its CSV export, as on the
// status screen and in History; never REJECTED, REFUSED or CREATED.
func TestExpiredQuoteHasOneName(t *testing.T) {
	r := screentest.NewStatusRig(t)
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	r.Intent(req, in) // journaled, its answer lost
	r.Clock.Set(in.ExpiresAt.Add(follow.ExecutableMargin + time.Second))
	id := req.QuoteID

	br := newBoardRig(t, r)
	br.send(tea.PasteMsg{Content: id})
	for i := 0; i < 100 && br.fire(); i++ {
	}
	if row := br.rowOf(id); !strings.Contains(row, "○ EXPIRED") {
		t.Errorf("board row %q, want ○ EXPIRED", row)
	}
	f, ok := br.b.sched.Get(id)
	if rec := f.Record("sandbox", journal.Record{}); !ok || rec.Outcome != follow.LabelExpired {
		t.Errorf("record %+v, want EXPIRED", rec)
	}
}

// TestListEscClearsFilterFirst (issue 21 bug 5): on the watch board, / and
// text then esc clears the filter and stays; only an esc with no filter
// goes back.
func TestListEscClearsFilterFirst(t *testing.T) {
	r := screentest.NewStatusRig(t)
	screentest.HistoryEntries(t, r)
	screentest.RecordTimers(r.App)
	root := tui.New(screentest.NewHome(r.App), tui.Options{Theme: "dark", Common: r.App.Common})
	screentest.Feed(root, tea.WindowSizeMsg{Width: 120, Height: 40})
	screentest.Feed(root, tui.PushMsg{Screen: New(r.App)})
	screentest.Feed(root, tea.PasteMsg{Content: "q-sending q-completed"}) // the board has the keys after it
	screentest.RequireEscClearsFilterFirst(t, root, func(m tea.Msg) { screentest.Feed(root, m) }, "sending")
}

// TestBoardRefusesWords (issue 28 item 2): words typed into the id field
// (a passphrase, a shell line) are refused in the field with the reason,
// never repeated, asked or kept; an id typed there is added and the board
// then has the keys, so what is typed next is not taken for ids; a board
// that holds ids opens on them.
func TestBoardRefusesWords(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	typeLine := func(s string) {
		for _, c := range s {
			br.send(tea.KeyPressMsg{Code: c, Text: string(c)})
		}
		br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	}
	calls := r.StatusCalls.Load()
	typeLine("correct horse battery")
	v := screentest.OneLine(br.plain())
	if len(boardIDs(br.b)) != 0 || !strings.Contains(v, "Not a quote id, not added: 3 words (not shown)") ||
		strings.Contains(v, "horse") || !br.b.typingIDs() {
		t.Fatalf("typed words on the board (%d rows):\n%s", len(boardIDs(br.b)), br.plain())
	}
	for i := 0; i < 10 && br.fire(); i++ {
	}
	if _, err := os.Stat(kit.WatchlistPath(r.App)); r.StatusCalls.Load() != calls || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("typed words were asked (%d) or kept (%v)", r.StatusCalls.Load()-calls, err)
	}
	id := screentest.Seed(t, r, sandbox.DestCompleted)
	typeLine(id)
	if got := boardIDs(br.b); len(got) != 1 || got[0] != id || br.b.typingIDs() || br.b.input.Value() != "" {
		t.Fatalf("after adding %s the board holds %q, the field has the keys: %v", id, got, br.b.typingIDs())
	}
	typeLine("sudo rm")
	if len(boardIDs(br.b)) != 1 || br.b.input.Value() != "" {
		t.Fatalf("what was typed after adding went into the field (%q) or on the board", br.b.input.Value())
	}
	if again := newBoardRig(t, r); again.b.typingIDs() {
		t.Error("a board that holds ids opens with the field focused")
	}
}

// TestBoardFlushes (issue 28 item 3): what the board learned since its
// last save is written when the console ends (kit.Flushes, run after the
// program on q, SIGHUP or SIGTERM), not lost with the wait between saves;
// a board opened again writes what the last one of its file owed before
// it reads the file.
func TestBoardFlushes(t *testing.T) {
	r, _, _, f, file := answerUnsaved(t)
	if _, err, _ := r.App.Ended(time.Second); err != nil { // as the console ends
		t.Fatal(err)
	}
	kept, _ := file.Load()
	if len(kept) != 1 || kept[0].Record == nil || kept[0].Record.State != f.Last.State {
		t.Fatalf("after the console's end the file keeps %+v, want %s", kept, f.Last.State)
	}

	// Left with an answer owed, the board's next visit writes it first.
	r, br, id, f, _ := answerUnsaved(t)
	again, _ := loadOnly(t, r) // what it read, before it asks anything
	if row := again.rowOf(id); !br.b.saveDue || !strings.Contains(row, f.Outcome().Name) {
		t.Fatalf("a board opened again shows %q, want the last board's %s", row, f.Outcome().Name)
	}
}

// TestBoardStartsFromTheJournal (issue 28 item 4): after a restart with
// the service failing, a withdrawal of this account followed to its end
// elsewhere (the status screen, the command line) shows the journal's
// record on the board, never NO ANSWER; and its destination, which only
// the journal knows, finds it.
func TestBoardStartsFromTheJournal(t *testing.T) {
	r := screentest.NewStatusRig(t)
	id := r.Made(sandbox.DestCompleted, "25")
	r.Clock.Advance(sandbox.DefaultSettle)
	w, err := r.App.Client().WithdrawalStatus(t.Context(), id)
	if err != nil || w.State != exchange.StateCompleted {
		t.Fatalf("%s is %s (%v)", id, w.State, err)
	}
	if err := r.App.Withdrawer().JournalState(id, w); err != nil {
		t.Fatal(err)
	}
	if _, err := follow.AddToWatchlist(kit.WatchlistPath(r.App), r.App.Target.Env.Name, "", []string{id}); err != nil {
		t.Fatal(err)
	}
	r.FailStatus.Store(true)
	br := newBoardRig(t, r)
	for i := 0; i < 10 && br.fire(); i++ {
	}
	if row := br.rowOf(id); !strings.Contains(row, "✓ COMPLETED") || strings.Contains(row, "NO ANSWER") {
		t.Fatalf("with the service failing the row reads %q, want the journal's COMPLETED", row)
	}
	br.send(tea.KeyPressMsg{Code: '/', Text: "/"})
	br.send(tea.PasteMsg{Content: sandbox.DestCompleted[:12]})
	if br.b.list.Len() != 1 {
		t.Errorf("its destination finds %d rows", br.b.list.Len())
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

// TestBoardFindsWhatCustomersQuote (issue 35 items 3 and 4): a payout hash
// or transfer id pasted into the field adds the withdrawal this machine
// has seen with it (a row's answer, or the journal's record of an own
// one) and says so; never asked of the service as a quote id. The filter
// takes a whole payout hash as text to match.
func TestBoardFindsWhatCustomersQuote(t *testing.T) {
	r := screentest.NewStatusRig(t)
	// An own withdrawal the journal saw paid out, with its payout hash.
	sess, _ := r.App.Client().Session()
	own := journal.Record{QuoteID: "q-ownpaid1", TxHash: "0x" + strings.Repeat("9a", 32)}
	for _, e := range []journal.Entry{
		{Kind: journal.KindAccepted, TxID: "tx-ownpaid1"},
		{Kind: journal.KindState, State: exchange.StateCompleted, TxHash: own.TxHash},
	} {
		e.Time, e.Env, e.AccountID, e.QuoteID = r.Clock.Now(), r.App.Target.Env.Name, sess.AccountID, own.QuoteID
		if err := r.App.Journal().Append(e); err != nil {
			t.Fatal(err)
		}
	}
	br := newBoardRig(t, r)
	done := screentest.Seed(t, r, sandbox.DestCompleted)
	br.send(tea.PasteMsg{Content: done})
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	row := br.b.rows[done]
	if row.Last.WithdrawTxHash == "" || row.Last.TxID == "" {
		t.Fatalf("no payout hash or transfer id on %s: %+v", done, row.Last)
	}
	calls := r.StatusCalls.Load()
	br.toasts = nil
	br.send(tea.PasteMsg{Content: strings.ToUpper(row.Last.TxID) + "\n" + own.TxHash})
	if ids := boardIDs(br.b); len(ids) != 2 || ids[1] != own.QuoteID {
		t.Fatalf("after pasting a transfer id on the board and an own payout hash: %q", ids)
	}
	if len(br.toasts) != 1 || !strings.Contains(br.toasts[0], "is withdrawal "+done) || !strings.Contains(br.toasts[0], "is withdrawal "+own.QuoteID) {
		t.Errorf("finding not said: %q", br.toasts)
	}
	if n := r.StatusCalls.Load() - calls; n > 1 {
		t.Errorf("%d status requests after the paste, want the own withdrawal's only", n)
	}
	br.send(tea.PasteMsg{Content: "tx-neverseen1"})
	if v := screentest.OneLine(br.b.View()); !strings.Contains(v, "Transfer id tx-neverseen1 was not found") || !strings.Contains(v, "ask for the quote id") || !strings.Contains(v, "History on the machine that made it") {
		t.Errorf("an unseen transfer id:\n%s", br.plain())
	}
	br.toList()
	br.send(tea.KeyPressMsg{Code: '/', Text: "/"})
	br.send(tea.PasteMsg{Content: row.Last.WithdrawTxHash})
	if br.b.list.Len() != 1 || br.b.list.Item(0).QuoteID != done {
		t.Errorf("the filter with a whole payout hash shows %d rows:\n%s", br.b.list.Len(), br.plain())
	}
}

// TestBoardExportStateSeen (issue 35 item 6): every exported row that was
// answered has state_seen, as `status --csv` does and SINCE shows; also
// one whose state the journal already held (an own withdrawal, recalled).
func TestBoardExportStateSeen(t *testing.T) {
	r := screentest.NewStatusRig(t)
	c := r.Client(sandbox.DemoAPIKey)
	req, _ := r.Signed(c, sandbox.DemoPrivateKey, sandbox.DestCompleted, "10")
	if _, err := r.App.Client().Withdraw(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	sess, _ := r.App.Client().Session()
	for _, e := range []journal.Entry{{Kind: journal.KindAccepted}, {Kind: journal.KindState, State: exchange.StateSubmitted}} {
		e.Time, e.Env, e.AccountID, e.QuoteID = r.Clock.Now(), r.App.Target.Env.Name, sess.AccountID, req.QuoteID
		if err := r.App.Journal().Append(e); err != nil {
			t.Fatal(err)
		}
	}
	br := newBoardRig(t, r)
	seeded := screentest.Seed(t, r, sandbox.DestCompleted)
	br.send(tea.PasteMsg{Content: req.QuoteID + " " + seeded})
	br.fire()
	br.fire()
	br.toList()
	br.send(tea.KeyPressMsg{Code: 'e', Text: "e"})
	br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	f, err := os.Open(strings.TrimPrefix(br.b.exportedTo, "Exported 2 withdrawals to "))
	if err != nil {
		t.Fatalf("no export (%v): %q", err, br.toasts)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("CSV %q, %v", rows, err)
	}
	seen, checked := slices.Index(rows[0], "state_seen"), slices.Index(rows[0], "last_checked")
	for _, row := range rows[1:] {
		if row[seen] == "" || row[checked] == "" {
			t.Errorf("%s: state_seen %q, last_checked %q", row[0], row[seen], row[checked])
		}
	}
}

// TestBoardLearnsWhatItsRowSaw: an answer the status screen of a row gets
// is the board's too (kit.Tell): back on the board the row shows it, never
// "ASKING never" for an id its own screen just showed.
func TestBoardLearnsWhatItsRowSaw(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	id := screentest.Seed(t, r, sandbox.DestCompleted)
	br.send(tea.PasteMsg{Content: id})
	br.toList()
	br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	if br.opened == nil || br.opened.tell == nil {
		t.Fatal("enter opened no status screen that tells the board")
	}
	w, err := r.Client(sandbox.DemoAPIKey).WithdrawalStatus(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	w.State, w.UpdatedAt = exchange.StateSending, r.Clock.Now()
	br.send(br.opened.tell(id, w, nil))
	if row := br.rowOf(id); !strings.Contains(row, "SENDING") {
		t.Fatalf("the row's screen saw SENDING; the board's row: %q", row)
	}
}

// TestBoardHeadingFits: the filter being typed is drawn whole at 80
// columns (the heading gives way to it), and at 60 the two heading lines
// drop whole phrases rather than end cut ("reques…").
func TestBoardHeadingFits(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	br.send(tea.PasteMsg{Content: screentest.Seed(t, r, sandbox.DestCompleted)})
	br.fire()
	br.toList()
	br.b.SetSize(60, 20)
	lines := strings.Split(br.plain(), "\n")
	for _, l := range lines[:2] {
		if strings.HasSuffix(strings.TrimSpace(l), "…") || ansi.StringWidth(l) > 60 {
			t.Errorf("at 60 columns a heading line is cut: %q", l)
		}
	}
	br.b.SetSize(80, 24)
	br.send(tea.KeyPressMsg{Code: '/', Text: "/"})
	for _, c := range "POLYGON-TEST" {
		br.send(tea.KeyPressMsg{Code: c, Text: string(c)})
	}
	if first := strings.Split(br.plain(), "\n")[0]; !strings.Contains(first, "POLYGON-TEST") || ansi.StringWidth(first) > 80 {
		t.Errorf("at 80 columns the filter typed is not drawn whole: %q", first)
	}
}

// TestBoardEmptyWrapsAt60: an empty board's sentence says what to do next
// whole at the smallest size, wrapped rather than cut.
func TestBoardEmptyWrapsAt60(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	br.b.SetSize(60, 20)
	v := strings.Join(strings.Fields(br.plain()), " ")
	if !strings.Contains(v, "or press w on History to add this account's.") {
		t.Errorf("at 60 columns the empty board's sentence is cut:\n%s", br.plain())
	}
}

// TestBoardSolanaShapeSaysBothFacts: an id of a SOLANA payout hash's
// shape not seen here is added as the quote id it may be, and the board
// says so (none seen here has that payout hash); the hash is shortened.
func TestBoardSolanaShapeSaysBothFacts(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	sig := make([]byte, 64)
	for i := range sig {
		sig[i] = byte(i*13 + 2)
	}
	solana := base58.Encode(sig)
	br.send(tea.PasteMsg{Content: solana})
	if ids := boardIDs(br.b); len(ids) != 1 || ids[0] != solana {
		t.Fatalf("not added as a quote id: %q", ids)
	}
	if len(br.toasts) != 1 || !strings.Contains(br.toasts[0], "no withdrawal's seen here") || !strings.Contains(br.toasts[0], "asked as the quote id") || strings.Contains(br.toasts[0], solana) {
		t.Errorf("the payout hash's fact not said: %q", br.toasts)
	}
}

// TestBoardRefusesOwnAPIKey: the session's API key typed on the board
// (it may pass the typed-id check), as a quote id or held by a transfer
// id's shape, is refused: never asked, shown, nor saved to the board's
// file ("tx-KEY" was said back not seen).
func TestBoardRefusesOwnAPIKey(t *testing.T) {
	for _, typedKey := range []string{sandbox.DemoAPIKey + "1", follow.TransferIDPrefix + sandbox.DemoAPIKey} {
		t.Run(typedKey[:3], func(t *testing.T) { boardRefusesOwnAPIKey(t, typedKey) })
	}
}

func boardRefusesOwnAPIKey(t *testing.T, typedKey string) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	calls := r.StatusCalls.Load()
	for _, c := range typedKey {
		br.send(tea.KeyPressMsg{Code: c, Text: string(c)})
	}
	br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	v := screentest.OneLine(br.plain())
	said := safetext.Capitalized(follow.ErrOwnSecretGiven.Error()) // the service's one wording
	if len(boardIDs(br.b)) != 0 || br.b.err == nil || !strings.Contains(br.b.err.Error(), said) || strings.Contains(v, sandbox.DemoAPIKey) {
		t.Fatalf("the API key typed on the board (%d rows):\n%s", len(boardIDs(br.b)), br.plain())
	}
	// The generated ids' shape is no reason to refuse a credential.
	if strings.Contains(strings.ToLower(v), "quote ids are generated") {
		t.Errorf("the refusal of the API key says the typed-id rule:\n%s", br.plain())
	}
	for i := 0; i < 10 && br.fire(); i++ {
	}
	if _, err := os.Stat(kit.WatchlistPath(r.App)); r.StatusCalls.Load() != calls || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the API key was asked (%d) or kept (%v)", r.StatusCalls.Load()-calls, err)
	}
}

// TestBoardRefusesRecoveryPhrase: a recovery phrase pasted on the board is
// refused whole and named as what it is, never asked, shown nor saved.
func TestBoardRefusesRecoveryPhrase(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	calls := r.StatusCalls.Load()
	br.send(tea.PasteMsg{Content: "legal winner thank year wave sausage worth useful legal winner thank yellow"})
	v := screentest.OneLine(br.plain())
	if len(boardIDs(br.b)) != 0 || !strings.Contains(v, "(a recovery phrase's or a key's shape, not shown)") || strings.Contains(v, "sausage") {
		t.Fatalf("a recovery phrase pasted on the board (%d rows):\n%s", len(boardIDs(br.b)), br.plain())
	}
	// Numbered one a line, each line is refused, and said once with how
	// many: each said it, and the message was cut at the second.
	var numbered []string
	for i, w := range strings.Fields("legal winner thank year wave sausage worth useful legal winner thank yellow") {
		numbered = append(numbered, fmt.Sprintf("%02d.%s", i+1, w))
	}
	br.send(tea.PasteMsg{Content: strings.Join(numbered, "\n")})
	v = screentest.OneLine(br.plain())
	if !strings.Contains(v, `Not a quote id, not added: (12 lines: a recovery phrase's or a key's shape, not shown).`) || strings.Contains(v, "sausage") {
		t.Fatalf("a numbered recovery phrase pasted on the board:\n%s", br.plain())
	}
	for i := 0; i < 10 && br.fire(); i++ {
	}
	if _, err := os.Stat(kit.WatchlistPath(r.App)); r.StatusCalls.Load() != calls || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the phrase was asked (%d) or kept (%v)", r.StatusCalls.Load()-calls, err)
	}
}

// TestBoardFileOwnAPIKeyNotShown: a row of the board's file whose id is
// the session's API key (saved before it was refused) is neither shown
// nor asked.
func TestBoardFileOwnAPIKeyNotShown(t *testing.T) {
	r := screentest.NewStatusRig(t)
	id := screentest.Seed(t, r, sandbox.DestCompleted)
	planted := []follow.Kept{{QuoteID: sandbox.DemoAPIKey + "1"}, {QuoteID: id}}
	if err := (&follow.WatchFile{Path: kit.WatchlistPath(r.App), Env: r.App.Target.Env.Name}).Append(planted, nil); err != nil {
		t.Fatal(err)
	}
	br, kick := loadOnly(t, r)
	br.run(kick)
	for i := 0; i < 100 && br.fire(); i++ {
	}
	// Not on the board, so never in its scheduler: never asked.
	if got := boardIDs(br.b); len(got) != 1 || got[0] != id || strings.Contains(br.plain(), sandbox.DemoAPIKey) {
		t.Fatalf("the board holds %q:\n%s", got, br.plain())
	}
}

// TestBoardFieldSaysWhatItTakes: the id field's label and placeholder name
// every kind of id the line above it takes, at each golden size: they said
// "Quote ids" and "paste or type quote ids", so a payout hash or an
// explorer link looked refused before it was tried.
func TestBoardFieldSaysWhatItTakes(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	root := tui.New(br.b, tui.Options{Theme: "dark", Common: r.App.Common})
	for _, sz := range screentest.GoldenSizes {
		screentest.Feed(root, tea.WindowSizeMsg{Width: sz.W, Height: sz.H})
		frame := ansi.Strip(screentest.CheckFrame(t, root.View().Content, sz.W, sz.H))
		field := ""
		for _, l := range strings.Split(frame, "\n") {
			if strings.Contains(l, " "+boardIDsLabel+" ") {
				field = l
			}
		}
		for _, want := range []string{"quote ids", "hashes", "transfer ids", "links"} {
			if !strings.Contains(field, want) {
				t.Errorf("%dx%d: the id field does not say %q:\n%s", sz.W, sz.H, want, frame)
			}
		}
		if strings.Contains(field, "Quote ids") {
			t.Errorf("%dx%d: the id field is labelled quote ids alone:\n%s", sz.W, sz.H, field)
		}
	}
}

// TestBoardExportNamedAfterAnyEnvironment: today's file is named after the
// environment in a name every system writes as named: a ':' in the
// environment's name would write, on Windows, an alternate data stream.
func TestBoardExportNamedAfterAnyEnvironment(t *testing.T) {
	r := screentest.NewStatusRig(t)
	r.App.Target.Env.Name = "prod:eu"
	br := newBoardRig(t, r)
	if got := filepath.Base(br.b.todaysExport()); got != "watchboard-prod_eu-20260302.csv" {
		t.Errorf("today's file is %q, want watchboard-prod_eu-20260302.csv", got)
	}
}

// TestBoardExportPathSaidBackClean: the export's path is said back (where
// it went, or why not, in the system's words too) without a bidi override
// or an escape, which would reorder or colour the line: the field drops
// them from what is typed, but ~/ is $HOME, which may hold them.
func TestBoardExportPathSaidBackClean(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	br.send(tea.PasteMsg{Content: "q-gone-1"})
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	br.toList()
	home := filepath.Join(t.TempDir(), "a\u202eb\x1b[31mred")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	for _, tc := range []struct{ path, says string }{
		{"~/x.csv", "Exported 1 withdrawal to "},
		{"~/" + strings.Repeat("x", 300) + ".csv", "file name too long"},
	} {
		br.send(tea.KeyPressMsg{Code: 'e', Text: "e"})
		br.send(tea.PasteMsg{Content: tc.path})
		br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
		if v := br.b.View(); !strings.Contains(screentest.OneLine(ansi.Strip(v)), tc.says) || strings.Contains(v, "\u202e") || strings.Contains(v, "\x1b[31mred") {
			t.Errorf("%q said back as:\n%q", tc.path, v)
		}
		br.send(tea.KeyPressMsg{Code: tea.KeyEscape})
	}
}

// TestBoardShortenedIDSaysPasteItWhole: an id or hash as a screen shortens
// it (0x2c1f9…c5676aa, the board's own payout column) is refused as
// shortened, saying to give it whole, not with the generated ids' shape.
func TestBoardShortenedIDSaysPasteItWhole(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	br.send(tea.PasteMsg{Content: "0x2c1f9…c5676aa"})
	v := screentest.OneLine(br.b.View())
	if len(boardIDs(br.b)) != 0 || !strings.Contains(v, `Not a quote id, not added: "0x2c1f9…c5676aa". It is shortened`) ||
		!strings.Contains(v, "give it whole") || strings.Contains(v, "quote ids are generated") {
		t.Fatalf("a shortened hash is not said to be one:\n%s", br.plain())
	}
}

// TestBoardExportOfferedWhereTheConsoleStarted: with the folder the console
// started in (kit.Deps.ExportDir), e offers today's file there, where a
// support agent looks, and says its full path once written; the state
// folder, hidden, is offered only without one (TestBoardExport).
func TestBoardExportOfferedWhereTheConsoleStarted(t *testing.T) {
	r := screentest.NewStatusRig(t)
	r.App.ExportDir = t.TempDir()
	br := newBoardRig(t, r)
	br.send(tea.PasteMsg{Content: "q-gone-404"})
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	br.toList()
	br.send(tea.KeyPressMsg{Code: 'e', Text: "e"})
	path := filepath.Join(r.App.ExportDir, "watchboard-sandbox-20260302.csv")
	if br.b.exportTo.Value() != path {
		t.Fatalf("e offers %q, want %q", br.b.exportTo.Value(), path)
	}
	br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	if _, err := os.Stat(path); err != nil || br.toasts[len(br.toasts)-1] != "Exported 1 withdrawal to "+path {
		t.Errorf("the export is not where it is said (%v): %q", err, br.toasts)
	}
}

// TestBoardKeyShapeSaysTheNextStep: a paste refused for a private key's
// shape says the next step status and plain mode give (follow.HashAdvice):
// a TRON hash's 0x in front, or that 0x and 65 hex digits look like a
// payout hash a digit too long; the board said none.
func TestBoardKeyShapeSaysTheNextStep(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	for text, want := range map[string]string{
		screentest.KeyHex:              "A TRON payout hash has this shape too: give it with 0x in front",
		"0x" + screentest.KeyHex + "a": "It looks like a payout hash a digit too long (0x and 64 hex digits): copy it again, whole",
	} {
		br.send(tea.PasteMsg{Content: text})
		if v := screentest.OneLine(br.b.View()); !strings.Contains(v, want) || screentest.ShowsKeyPiece(br.plain()) {
			t.Errorf("%.4s… pasted, the board says:\n%s", text, br.plain())
		}
	}
}

// TestBoardHelpLeavesRowsAt60x20: ? at 60x20 lays the board's keys out in
// as few lines as let every one be read, so the board keeps rows above
// them, the selected one among them, with few keys on (rows not found
// only) or all (a payout hash to copy, rows to clear and one to undo), esc
// back beside them: with few, the help took 13 lines in one tall column
// and left none.
func TestBoardHelpLeavesRowsAt60x20(t *testing.T) {
	for _, all := range []bool{false, true} {
		t.Run(fmt.Sprintf("all_keys_%v", all), func(t *testing.T) {
			r := screentest.NewStatusRig(t)
			br := newBoardRig(t, r)
			var ids []string
			for i := range 5 {
				ids = append(ids, fmt.Sprintf("q-gone-%02d", i))
			}
			done := ""
			if all {
				done = screentest.Seed(t, r, sandbox.DestCompleted)
				ids = append(ids, done)
			}
			br.send(tea.PasteMsg{Content: strings.Join(ids, " ")})
			for i := 0; i < 1000 && br.fire(); i++ {
			}
			root := tui.New(New(r.App), tui.Options{Theme: "dark", Common: r.App.Common})
			screentest.Feed(root, tea.WindowSizeMsg{Width: 60, Height: 20})
			screentest.Feed(root, tui.PushMsg{Screen: br.b})
			screentest.Feed(root, tea.KeyPressMsg{Code: tea.KeyTab})
			if all {
				screentest.Feed(root, tea.KeyPressMsg{Code: tea.KeyHome})
				screentest.Feed(root, tea.KeyPressMsg{Code: 'x', Text: "x"})
			}
			for range 6 {
				if sel, _ := br.b.list.Selected(); sel.QuoteID == done || !all && sel.QuoteID == "q-gone-04" {
					break
				}
				screentest.Feed(root, tea.KeyPressMsg{Code: tea.KeyDown})
			}
			screentest.Feed(root, tea.KeyPressMsg{Code: '?', Text: "?"})
			frame := ansi.Strip(screentest.CheckFrame(t, root.View().Content, 60, 20))
			listed := strings.Join(strings.Fields(frame), " ")
			for _, b := range br.b.bindings().KeyMap().ShortHelp() {
				if !strings.Contains(listed, b.Help().Key+" "+b.Help().Desc) {
					t.Errorf("? does not list %q:\n%s", b.Help().Key+" "+b.Help().Desc, frame)
				}
			}
			if on := strings.Contains(listed, "C copy payout hash") && strings.Contains(listed, "u undo remove"); on != all {
				t.Errorf("C and u listed %v, want %v:\n%s", on, all, frame)
			}
			rows, selected := 0, false
			for _, l := range strings.Split(frame, "\n") {
				if strings.HasPrefix(l, "  q-") || strings.HasPrefix(l, "› q-") {
					rows++
					selected = selected || strings.HasPrefix(l, "› q-")
				}
			}
			if rows < 3 || !selected {
				t.Errorf("the help leaves %d rows of the board, the selected one shown %v:\n%s", rows, selected, frame)
			}
		})
	}
}

// TestBoardExportClearsAKeyBeforeEnter: a key's shape typed short of 64
// digits into the export's path is cleared before enter acts, so nothing
// is exported under it (the empty path asks for one again): the field's
// rule comes before the screen's keys.
func TestBoardExportClearsAKeyBeforeEnter(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	br.send(tea.PasteMsg{Content: screentest.Seed(t, r, sandbox.DestCompleted)})
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	br.toList()
	br.send(tea.KeyPressMsg{Code: 'e', Text: "e"})
	for _, c := range "0x" + screentest.KeyHex[:62] {
		br.send(tea.KeyPressMsg{Code: c, Text: string(c)})
	}
	br.toasts = nil
	br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	if screentest.ShowsKeyPiece(br.b.exportTo.Value()) || len(br.toasts) != 1 || br.toasts[0] != "Error: "+kit.KeyCleared.Error() {
		t.Errorf("enter acted on a key's shape: the path holds %d characters, said %q", len(br.b.exportTo.Value()), br.toasts)
	}
	if screentest.ShowsKeyPiece(strings.Join(br.toasts, " ")) {
		t.Errorf("a toast repeats the key: %q", br.toasts)
	}
}
