package kit

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/tui"
)

// preparingOffline is what a review says when quitting asks while what
// (its message) is being prepared for offline signing.
func preparingOffline(what string) string {
	return what + " is being prepared for offline signing; if you quit, its file may not be written: prepare it again."
}

// offlineKey prepares a review's message for offline signing: written for a
// wallet elsewhere, and nothing signed here (App.OfflineReady).
var offlineKey = key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "prepare for offline signing"))

// NoKeyWords are err, no key here, and where o acts (can, as Acts holds the
// footer to) that o prepares what for offline signing: one wording for the
// reviews that hide enter without a key.
func (g *ReviewGate) NoKeyWords(err error, can bool, what string) error {
	if !g.Acts(can) {
		return err
	}
	return exchange.UserError{Text: err.Error() + " — or press o to prepare " + what + " for offline signing"}
}

// offlineCopyKey copies a prepared file's submit command (Offline.Submit).
// Its help is short: at 60 columns the footer holds it beside the others.
var offlineCopyKey = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy command"))

// Offline is a review's intent prepared for offline signing (offlineKey),
// as --signer offline does on the command line: Preparing while it is
// journaled and written, then its file at Path, which nothing more is
// signed beside, and the Submit command that sends its signature.
type Offline struct {
	Preparing bool
	Path      string
	Prepared  intent.Prepared
	Submit    string
	command   string
	earlier   bool // prepared before this review: o would only say so again
}

// offlineMsg answers Offline.Prepare: the file written, or why not.
type offlineMsg struct {
	p            intent.Prepared
	path, submit string
	err          error
}

// Done reports whether the file is written.
func (o *Offline) Done() bool { return o.Path != "" }

// Prepare journals the intent (prepare, the domain's) and writes its file
// named name beside the journal, in a Cmd. chosen is the command line that
// chooses it (runnext.Withdraw, runnext.Authorize): its first word's submit
// finishes it, and with --signer offline for account and --out name it is
// what to run when the file is not written.
func (o *Offline) Prepare(app *App, chosen []string, account common.Address, name, what string, prepare func(context.Context) (intent.Prepared, error)) tea.Cmd {
	o.Preparing, o.command = true, chosen[0]
	instead := app.Command(append(slices.Clone(chosen), "--signer", "offline", "--account", account.Hex(), "--out", safetext.FileName(name))...)
	root, path, write := app.Root(), app.offlinePath(name), app.offlineWriter()
	submit := app.CommandOn([]string{o.command, "submit"}, []string{path}, "--signature", "0x…")
	return func() tea.Msg {
		if !safetext.Printable(path) {
			// The sign and submit commands name the file: they would not
			// read as they run. Refused before anything is journaled.
			return offlineMsg{err: &OfflineFolderError{Folder: filepath.Dir(path), Instead: instead}}
		}
		cx, cancel := Call(root)
		defer cancel()
		p, err := prepare(cx)
		if already, ok := errors.AsType[*withdrawal.PreparedAlreadyError](err); ok {
			// Its file was written beside the journal under this name.
			return offlineMsg{err: exchange.UserError{Text: already.Error() + ": sign its file and run `" + submit +
				"`, or get a new quote to prepare another withdrawal", Cause: err}}
		}
		if err != nil {
			return offlineMsg{err: exchange.Explain(err)}
		}
		path, err := write(name, p.File())
		if err != nil {
			return offlineMsg{err: exchange.UserError{Text: "the " + what + " is journaled but its file could not be written (" + err.Error() +
				"): run `" + instead + "` with the same choices instead", Cause: err}}
		}
		return offlineMsg{p: p, path: path, submit: submit}
	}
}

// OfflineFolderError: nothing was prepared, since the state folder's name
// is not Printable; Instead is the command line that prepares it with
// --out. A review too short for itself shows it alone: nothing here mends it.
type OfflineFolderError struct{ Folder, Instead string }

func (e *OfflineFolderError) Error() string {
	// The face's label opens the sentence ("Not withdrawn: ").
	return "nothing was prepared, as the folder of svcwallet's state, " + safetext.Shown(e.Folder) +
		", holds a character a terminal acts on or hides, and no command could name the file in it as it reads: prepare it on the command line, `" + e.Instead + "`"
}

// Update takes Prepare's answer (handled), returning why nothing was
// prepared, or nil once the file is written.
func (o *Offline) Update(app *App, msg tea.Msg) (err error, handled bool) {
	m, ok := msg.(offlineMsg)
	if !ok {
		return nil, false
	}
	o.Preparing, o.earlier = false, errors.As(m.err, new(*withdrawal.PreparedAlreadyError))
	if m.err != nil {
		return m.err, true
	}
	// The submit command names the file as a word of its own.
	o.Path, o.Prepared, o.Submit = m.path, m.p, m.submit
	return nil, true
}

// Bindings are o, which prepares when can, and c, which copies the submit
// command once the file is written: wrapped on a narrow screen, it cannot
// be copied whole from the terminal.
func (o *Offline) Bindings(app *App, can bool, prepare func() tea.Cmd) Bindings {
	return Bindings{{Key: offlineKey, On: can, Do: prepare}, {Key: offlineCopyKey, On: o.Done(), Do: func() tea.Cmd {
		return CopyText(app, o.Submit, "Copied the submit command: replace 0x… with the signature")
	}}}
}

// View says how to finish, what must be read first: before when, the
// command to run (it names the file), then the key to sign with in any
// wallet and cast's command. The commands name the file itself, so they run
// as shown. On a narrow screen (below offlineWide) the lines go without a
// label column, so that at 60x20 below the review the expiry and the submit
// command are still in sight.
func (o *Offline) View(c *tui.Common, wd int) string {
	st := c.Styles
	before := o.Prepared.Expiration().UTC().Format("2006-01-02 15:04:05 UTC")
	cast := "cast wallet sign --data --from-file " + safetext.ShellWord(o.Path)
	signer := o.Prepared.Signer.Hex()
	var lines []string
	if wd >= offlineWide {
		lines = []string{
			st.Value.Render("Prepared for offline signing; nothing was signed or sent."),
			layout.WrapField(c, "Before", 16, st.Value.Render(before), "", wd),
			layout.WrapField(c, "Then run", 16, st.Value.Render(o.Submit), "", wd),
			layout.WrapField(c, "Sign with", 16, st.Value.Render(signer), "its key, in any wallet; with cast:", wd),
			layout.WrapField(c, "", 16, st.Value.Render(cast), "", wd),
		}
	} else {
		lines = []string{
			st.Value.Render(layout.WrapTo("Prepared, not signed: submit before "+before, wd)),
			st.Value.Render(layout.WrapTo(o.Submit, wd)),
			st.Label.Render(layout.WrapTo("Sign it with "+signer+"'s key in any wallet; with cast:", wd)),
			st.Value.Render(layout.WrapTo(cast, wd)),
		}
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		if !strings.HasSuffix(l, "\n") {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// offlineWide is the narrowest screen Offline.View gives a label column:
// 80 columns hold it in the rows left below the review at 80x24.
const offlineWide = 70

// OfflineReady reports whether a review may prepare what it shows for
// offline signing (offlineKey), as the command line's --signer offline
// does: the journal keeps what submitting it needs, and the environment
// outlives the console. The embedded sandbox and its journal end with the
// console, so nothing prepared on it could ever be submitted.
func (a *App) OfflineReady() bool { return a.Journal() != nil && a.Target.Demo == nil }

// offlineWriter returns the function, safe to run inside a Cmd, that writes
// a file of typed data for offline signing: a new 0600 file named name
// beside the journal (its directory is read now), never over an existing
// one; it returns the file's path. Only when OfflineReady.
func (a *App) offlineWriter() func(name string, typedData []byte) (string, error) {
	dir := filepath.Dir(a.Journal().Path())
	return func(name string, typedData []byte) (string, error) {
		path := offlinePathIn(dir, name)
		return path, osguard.CreateStateFile(path, typedData)
	}
}

// offlinePath is where offlineWriter writes the file named name.
func (a *App) offlinePath(name string) string {
	return offlinePathIn(filepath.Dir(a.Journal().Path()), name)
}

func offlinePathIn(dir, name string) string {
	return filepath.Join(dir, safetext.FileName(name)) // it holds a quote id
}
