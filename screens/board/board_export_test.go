package board

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

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
