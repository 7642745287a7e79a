package board

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/tui"
)

// Exporting the board: e asks where, pre-filled with today's file in the
// folder the console started in (else the state directory); enter writes every row, in the order shown, as CSV
// (follow.CSVHeader's columns) to a new 0600 file there.

var exportKeys = struct{ Write, Cancel key.Binding }{
	Write:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "write the CSV")),
	Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
}

// maxExportSuffix bounds the names tried beside today's file when it is
// taken: a second export of the day gets -2, and so on.
const maxExportSuffix = 99

// exporting: the export's path field has the keys.
func (b *boardScreen) exporting() bool { return b.exportTo.Focused() }

// todaysExport is the file an export goes to unless told otherwise: named
// after the environment, whose name may hold what no file name may (a ':'),
// in the folder the console started in (kit.Deps.ExportDir), else the
// state folder.
func (b *boardScreen) todaysExport() string {
	name := "watchboard-" + b.app.Target.Env.Name + "-" + b.app.Common.Now().Format("20060102") + ".csv"
	dir := b.app.ExportDir
	if dir == "" {
		dir = kit.StateDir(b.app)
	}
	return filepath.Join(dir, safetext.FileName(name))
}

// askExport gives the path field the keys, pre-filled with today's file:
// typing replaces it (kit.Input.Prefill).
func (b *boardScreen) askExport() tea.Cmd {
	b.err, b.exportedTo, b.lasts = nil, "", b.exportLasts(b.todaysExport(), "In %s: type another path to keep the export")
	b.list.Blurred = true
	b.exportTo.Prefill(b.todaysExport())
	return b.exportTo.Focus()
}

// endExport gives the board the keys back.
func (b *boardScreen) endExport() tea.Cmd {
	b.exportTo.Blur()
	b.list.Blurred = false
	if b.exportErr {
		b.err, b.exportErr = nil, false
	}
	return nil
}

// exportBindings are the path field's keys.
func (b *boardScreen) exportBindings() kit.Bindings {
	return kit.Bindings{
		{Key: exportKeys.Write, On: true, Do: b.export},
		{Key: exportKeys.Cancel, On: true, Do: b.endExport},
	}
}

// export writes the CSV where the field says, in a Cmd. A path that does
// not end in .csv is refused in the field, which takes today's file back:
// what was typed is no file name, and may be what was meant for another
// window (a passphrase), so it is neither used nor left on screen. Today's
// file, when taken, gives way to the next free name beside it; a file the
// user named is never replaced.
func (b *boardScreen) export() tea.Cmd {
	path := strings.TrimSpace(b.exportTo.Value())
	if !strings.HasSuffix(strings.ToLower(path), ".csv") {
		b.err, b.exportErr = exchange.UserError{Text: "The export's file name must end in .csv: type a path, or enter for today's file"}, true
		b.exportTo.Prefill(b.todaysExport())
		return nil
	}
	// Each row as every output gives a withdrawal (follow.Record), read
	// here: the scheduler's own records are the board's alone.
	env, today, tag := b.app.Target.Env, path == b.todaysExport(), b.tag
	out := [][]string{follow.CSVHeader}
	for _, r := range b.list.Items() {
		own, _ := b.sched.Record(r.QuoteID)
		rec := r.Record(env.Name, own)
		rec.ExplorerURL = env.ExplorerTxURL(rec.Chain, rec.WithdrawTxHash)
		out = append(out, rec.CSVRow())
	}
	return func() tea.Msg {
		rows := len(out) - 1
		var buf bytes.Buffer
		if err := safetext.WriteCSV(&buf, out); err != nil {
			return boardExportedMsg{tag: tag, err: err}
		}
		path, err := writeExport(path, today, buf.Bytes())
		return boardExportedMsg{tag: tag, path: path, rows: rows, err: err}
	}
}

// writeExport writes b to a new file at path (a leading ~/ is the home
// directory), in a directory that exists; next: when path is taken, the
// next free name beside it (-2, -3, …) is used instead.
func writeExport(path string, next bool, b []byte) (string, error) {
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		home, err := os.UserHomeDir()
		if err != nil {
			return path, err
		}
		path = filepath.Join(home, rest)
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return path, fmt.Errorf("there is no directory %s", safetext.ShownTyped(filepath.Dir(path)))
	}
	err := osguard.CreateStateFile(path, b)
	base := strings.TrimSuffix(path, filepath.Ext(path))
	for n := 2; next && errors.Is(err, os.ErrExist) && n <= maxExportSuffix; n++ {
		path = base + "-" + strconv.Itoa(n) + ".csv"
		err = osguard.CreateStateFile(path, b)
	}
	if errors.Is(err, os.ErrExist) {
		return path, fmt.Errorf("%s exists already: type another name", safetext.ShownTyped(path))
	}
	if fi, lerr := os.Lstat(path); err != nil && lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		// Not the private-file words (move the real file into its place):
		// an export is a new file, and the link is what is in its way.
		return path, fmt.Errorf("a link is at %s: not followed; remove it or type another name", safetext.ShownTyped(path))
	}
	if err != nil {
		// The system's words repeat the path as typed (open PATH: …).
		return path, errors.New(safetext.Quoted(err.Error()))
	}
	return path, nil
}

// exportLasts is said, in format, where an export's path is shown when it
// will not outlast the console: the embedded sandbox's state folder
// (offered when the console started in the home folder, the root or a
// shared one) is deleted when svcwallet quits, with its journal. Said, not
// swapped for the real state folder: the sandbox's rows stay out of it.
func (b *boardScreen) exportLasts(path, format string) string {
	if b.app.Target.Demo == nil || filepath.Dir(path) != kit.StateDir(b.app) {
		return ""
	}
	return fmt.Sprintf(format, "the embedded sandbox's folder, deleted when svcwallet quits")
}

// exportDone takes the end of an export: said, and the field closed; or
// said under the field, left open to type another path.
func (b *boardScreen) exportDone(msg boardExportedMsg) tea.Cmd {
	if msg.err != nil {
		b.err, b.exportErr = exchange.UserError{Text: "The board could not be exported: " + msg.err.Error(), Cause: msg.err}, true
		return nil
	}
	b.endExport()
	b.exportedTo = fmt.Sprintf("Exported %d %s to %s", msg.rows, kit.Plural(msg.rows, "withdrawal", "withdrawals"), safetext.Shown(msg.path))
	b.lasts = b.exportLasts(msg.path, "(%s: export again elsewhere to keep it)")
	return tui.ShowInfo(strings.TrimSpace(b.exportedTo + " " + b.lasts))
}
