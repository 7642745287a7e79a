package board

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/screentest"
)

// exportRig is a board with one row, its keys on the list.
func exportRig(t *testing.T, r *screentest.StatusRig) *boardRig {
	br := newBoardRig(t, r)
	br.send(tea.PasteMsg{Content: "q-gone-404"})
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	br.toList()
	return br
}

// TestBoardExportSaysTheLinkInItsWay: a link planted at the export's name
// is said as what it is, not with the private-file words (move the real
// file into its place), and nothing is written through it.
func TestBoardExportSaysTheLinkInItsWay(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("links need privileges on Windows")
	}
	br := exportRig(t, screentest.NewStatusRig(t))
	dir := t.TempDir()
	target, link := filepath.Join(dir, "elsewhere.csv"), filepath.Join(dir, "x.csv")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	br.send(tea.KeyPressMsg{Code: 'e', Text: "e"})
	br.send(tea.PasteMsg{Content: link})
	br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	v := screentest.OneLine(br.plain())
	if !strings.Contains(v, "a link is at "+safetext.ShownTyped(link)+": not followed; remove it or type another name") || strings.Contains(v, "real file") {
		t.Errorf("a link at the export's name:\n%s", br.plain())
	}
	if _, err := os.Lstat(target); err == nil {
		t.Error("written through the link")
	}
}

// TestBoardExportSaysWhatDoesNotLast: on the embedded sandbox without a
// folder to offer, today's file is in the sandbox's folder, which is
// deleted when svcwallet quits: the field says so as it opens, and where
// the export went says it again; a path typed elsewhere says nothing of it.
func TestBoardExportSaysWhatDoesNotLast(t *testing.T) {
	r := screentest.NewStatusRig(t)
	r.App.Target.Demo = screentest.Demo()
	br := exportRig(t, r)
	const said = "the embedded sandbox's folder, deleted when svcwallet quits"
	br.send(tea.KeyPressMsg{Code: 'e', Text: "e"})
	if v := screentest.OneLine(br.plain()); !strings.Contains(v, "In "+said+": type another path to keep the export") {
		t.Errorf("the field does not say its folder ends:\n%s", br.plain())
	}
	br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	if got := br.toasts[len(br.toasts)-1]; !strings.HasSuffix(got, "("+said+": export again elsewhere to keep it)") {
		t.Errorf("the export said %q", got)
	}
	mine := filepath.Join(t.TempDir(), "kept.csv")
	br.send(tea.KeyPressMsg{Code: 'e', Text: "e"})
	br.send(tea.PasteMsg{Content: mine})
	br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	if got := br.toasts[len(br.toasts)-1]; got != "Exported 1 withdrawal to "+mine {
		t.Errorf("a path elsewhere said %q", got)
	}
}

// TestBoardExportPathShownAsItReads: a path holding a no-break space,
// which reads as a space and is another character, is said escaped
// (safetext.Printable), never as a path with a space.
func TestBoardExportPathShownAsItReads(t *testing.T) {
	br := exportRig(t, screentest.NewStatusRig(t))
	dir := filepath.Join(t.TempDir(), "a\u00a0b")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	br.send(tea.KeyPressMsg{Code: 'e', Text: "e"})
	br.send(tea.PasteMsg{Content: filepath.Join(dir, "x.csv")})
	br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	if got := br.toasts[len(br.toasts)-1]; strings.Contains(got, "\u00a0") || !strings.Contains(got, `a\u00a0b`) {
		t.Errorf("the export said %q", got)
	}
}

// TestBoardExportNoteWrapsAtSpaces: at 60 columns, what is said of the
// sandbox's folder wraps at spaces, as the field opens and after the
// export; only the path, which is copied, is wrapped whole (a word cut in
// two read "svcwallet qui" then "ts").
func TestBoardExportNoteWrapsAtSpaces(t *testing.T) {
	r := screentest.NewStatusRig(t)
	r.App.Target.Demo = screentest.Demo()
	br := exportRig(t, r)
	br.b.SetSize(60, 20)
	lines := func() []string { return strings.Split(br.plain(), "\n") }
	whole := func(when, note string) {
		t.Helper()
		for _, word := range strings.Fields(note) {
			if !slices.ContainsFunc(lines(), func(l string) bool { return strings.Contains(l, word) }) {
				t.Errorf("%s: %q cut in two:\n%s", when, word, br.plain())
			}
		}
	}
	br.send(tea.KeyPressMsg{Code: 'e', Text: "e"})
	whole("as the field opens", "In the embedded sandbox's folder, deleted when svcwallet quits: type another path to keep the export")
	br.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	whole("after the export", "(the embedded sandbox's folder, deleted when svcwallet quits: export again elsewhere to keep it)")
}
