package kit

import (
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/internal/screens/kit/layout"
	"github.com/svcwallet/svcwallet/internal/tui"
)

// PreparingOffline is what a review says when quitting asks while what
// (its message) is being prepared for offline signing.
func PreparingOffline(what string) string {
	return what + " is being prepared for offline signing; if you quit, its file may not be written: prepare it again."
}

// OfflineKey prepares a review's message for offline signing: written for a
// wallet elsewhere, and nothing signed here (App.OfflineReady).
var OfflineKey = key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "prepare for offline signing"))

// OfflineCopyKey copies a prepared file's submit command (Offline.Submit):
// wrapped on a narrow screen, it cannot be copied whole from the terminal.
var OfflineCopyKey = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy the submit command"))

// Offline is a review's message prepared for offline signing: the file of
// its typed data, the account whose key must sign it, the command that
// sends the signature (naming the file as a word of its own: App.Command)
// and the time it must be sent before.
type Offline struct {
	Path   string
	Signer common.Address
	Submit string
	Before time.Time
}

// Copy copies the submit command to the clipboard (OfflineCopyKey).
func (o Offline) Copy(app *App) tea.Cmd {
	return CopyText(app, o.Submit, "Copied the submit command: replace 0x… with the signature")
}

// View says where the file is and how to finish: sign it with the signer's
// key in any wallet, then submit it before it expires. The commands name
// the file itself, so they run as shown.
func (o Offline) View(c *tui.Common, wd int) string {
	st := c.Styles
	file := safetext.ShellWord(o.Path)
	lines := []string{
		st.Value.Render("Prepared for offline signing; nothing was signed or sent."),
		layout.WrapField(c, "File", 16, st.Value.Render(o.Path), "", wd),
		layout.WrapField(c, "Sign with", 16, st.Value.Render(o.Signer.Hex()), "its key, in any wallet; with cast:", wd),
		layout.WrapField(c, "", 16, st.Value.Render("cast wallet sign --data --from-file "+file), "", wd),
		layout.WrapField(c, "Then run", 16, st.Value.Render(o.Submit), "", wd),
		layout.WrapField(c, "Before", 16, st.Value.Render(o.Before.UTC().Format("2006-01-02 15:04:05 UTC")), "", wd),
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

// OfflineReady reports whether a review may prepare what it shows for
// offline signing (OfflineKey), as the command line's --signer offline
// does: the journal keeps what submitting it needs, and the environment
// outlives the console. The embedded sandbox and its journal end with the
// console, so nothing prepared on it could ever be submitted.
func (a *App) OfflineReady() bool { return a.Journal() != nil && a.Target.Demo == nil }

// OfflineWriter returns the function, safe to run inside a Cmd, that writes
// a file of typed data for offline signing: a new 0600 file named name
// beside the journal (its directory is read now), never over an existing
// one; it returns the file's path. Only when OfflineReady.
func (a *App) OfflineWriter() func(name string, typedData []byte) (string, error) {
	dir := filepath.Dir(a.Journal().Path())
	return func(name string, typedData []byte) (string, error) {
		path := filepath.Join(dir, name)
		return path, osguard.CreateStateFile(path, typedData)
	}
}
