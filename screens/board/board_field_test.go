package board

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mr-tron/base58"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// TestTypingAndPastingNeverQuit: on the board's id field, q and ? are text
// and a bracketed paste goes to the field.
func TestTypingAndPastingNeverQuit(t *testing.T) {
	r := screentest.NewStatusRig(t)
	screentest.TypeAndPasteUnderRoot(t, "watch board", r.App, New(r.App).(*boardScreen))
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
