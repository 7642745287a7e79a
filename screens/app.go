// Package screens holds one file per console screen. Each screen keeps its
// Msg types and key map at the top, does its I/O in tea.Cmds only, and
// explains failures in the words of service.Explain.
package screens

import (
	"context"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/textinput"
	"github.com/charmbracelet/x/ansi"

	"svcwallet/service"
	"svcwallet/signer"
	"svcwallet/tui"
)

// requestTimeout bounds a screen's single call; the client's own HTTP timeout
// is per attempt, this one covers re-login too.
const requestTimeout = 30 * time.Second

// visit is the life of a screen on the stack: the calls it makes that are
// worth nothing once it is gone (reads, a deposit address or a login asked
// for from it) are cancelled when it is left (tui.Leaver), and with the
// console. Calls
// that move money or sign (withdraw, builder authorization) do not use it:
// their answer must arrive and be journaled even if the screen is gone.
type visit struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// context is the visit's context, started on first use under the root's.
func (v *visit) context(app *App) context.Context {
	if v.ctx == nil {
		v.ctx, v.cancel = context.WithCancel(app.root())
	}
	return v.ctx
}

// Leave cancels the visit's calls still out.
func (v *visit) Leave() {
	if v.cancel != nil {
		v.cancel()
	}
}

// call bounds one call made under parent by requestTimeout.
func call(parent context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, requestTimeout)
}

// Target is one environment the user may log in to, with its client.
type Target struct {
	Env    service.Environment
	Client *service.Client
	// Journal records this target's withdrawals (D11).
	Journal *service.Journal
	// Demo holds the sandbox's published credentials; nil for real services.
	Demo *Demo
}

// Demo credentials of the embedded sandbox, offered on the login screen.
type Demo struct {
	APIKey     string
	PrivateKey string // a published development key, never a real one
}

// App is what every screen shares besides the tui.Common: the fixed
// dependencies, the session, and the hooks tests replace. Screens hold a
// pointer.
type App struct {
	Deps
	Session
	Hooks
}

// Deps are the console's fixed dependencies: they do not change while it runs.
type Deps struct {
	Common      *tui.Common
	Targets     []Target
	KeystoreDir string
	Getenv      func(string) string
	// PollInterval is how often a followed withdrawal's status is asked.
	PollInterval time.Duration
	// Bell rings the terminal bell when a followed withdrawal changes state
	// (the config's bell).
	Bell bool
	// Context is the console's root context, cancelled on quit; nil means
	// context.Background.
	Context context.Context
}

// Session is the one login the console is in: the target environment with
// its client (credentials, expiry, silent re-login) and journal, and the
// wallet key when the login was by wallet. The login screen replaces it
// whole; the status bar reads it every time it draws (App.status).
type Session struct {
	Target Target
	// Signer is the logged-in account's key when the login was by wallet,
	// kept for signing withdrawals and builder authorizations.
	Signer signer.Key
}

// Hooks are the effects tests replace; nil means the real one.
type Hooks struct {
	// LoadKeystore decrypts a keystore file; tests replace the slow scrypt.
	LoadKeystore func(path, passphrase string) (signer.Key, error)
	// Nonce draws signature nonces; nil means signer.NewNonce (crypto/rand).
	// Tests fix it so digests on screen are stable.
	Nonce func() uint32
	// TmuxClipboard reads tmux's set-clipboard option; nil runs tmux. It
	// runs inside a Cmd; tests fake it.
	TmuxClipboard func() (string, error)
	// OpenURL opens a link in the browser; nil uses the desktop's opener.
	// It runs inside a Cmd; tests fake it.
	OpenURL func(link string) error
}

// Console starts the console on app: the status bar reads app's session
// from now on, and the first screen is the login.
func Console(app *App) tui.Screen {
	app.Common.Status = app.status
	return newLogin(app)
}

// nonce returns a fresh signature nonce (D9).
func (a *App) nonce() uint32 {
	if a.Nonce != nil {
		return a.Nonce()
	}
	return signer.NewNonce()
}

// journal is the session's journal: every withdrawal is written there
// before it is sent (D11). Nil when there is none.
func (a *App) journal() *service.Journal { return a.Target.Journal }

// withdrawer carries this session's withdrawals (sign, journal, send).
func (a *App) withdrawer() service.Withdrawer {
	return service.Withdrawer{Client: a.Client(), Journal: a.journal(), Now: a.Common.Now,
		BridgePins: bridgePinsPath(a)}
}

// Client is the logged-in target's client.
func (a *App) Client() *service.Client { return a.Target.Client }

// root is the console's context: cancelled when the console quits.
func (a *App) root() context.Context {
	if a.Context == nil {
		return context.Background()
	}
	return a.Context
}

// status is the status bar's content for the current session, read from the
// client at each draw, so a silent re-login shows its new expiry at once.
func (a *App) status() tui.Status {
	s, _ := a.Client().Session()
	return tui.Status{
		Env: a.Target.Env.Name, ChainID: a.Target.Env.ChainID,
		Account: s.FundingAccountAddress, SubAccount: s.SubAccountID, SessionExpires: s.Expires,
	}
}

// newInput returns a text input with a steady cursor: a blinking one would
// redraw an idle screen twice a second.
func newInput(c *tui.Common, placeholder string, masked bool) textinput.Model {
	in := textinput.New()
	in.Placeholder = placeholder
	in.Prompt = ""
	st := in.Styles()
	st.Cursor.Blink = false
	st.Focused.Text = c.Styles.Value
	st.Blurred.Text = c.Styles.Muted
	in.SetStyles(st)
	if masked {
		in.EchoMode = textinput.EchoPassword
		in.EchoCharacter = '•'
	}
	return in
}

// field renders "label  value" with the label padded to width w.
func field(c *tui.Common, label string, w int, value string) string {
	return inksFor(c).label.on(pad(label, w)) + " " + value
}

// pad right-pads s with spaces to display width w.
func pad(s string, w int) string {
	if n := width(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// clip truncates every line of s to width w, so no screen draws past the
// edge; a cut line ends in "…", so no word is ever cut silently (text that
// must be read whole is wrapped before, with wrapTo or errorBlock). Lines
// are not padded: the root fills the rest of the row. A final newline is
// dropped, so a view of h lines is h lines, not h+1.
func clip(s string, w int) string {
	if w <= 0 {
		return ""
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		if !surelyFits(l, w) && ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "…")
		}
	}
	return strings.Join(lines, "\n")
}

// surelyFits is a cheap test that line l takes at most w cells: an ASCII
// character takes at most one cell and any other rune at most two, so the
// sum outside CSI sequences bounds the width. Any other escape sequence
// makes it give up (false), leaving the exact measure to the caller.
func surelyFits(l string, w int) bool {
	cells := 0
	for i := 0; i < len(l); i++ {
		b := l[i]
		switch {
		case b == 0x1b:
			if i+1 >= len(l) || l[i+1] != '[' {
				return false
			}
			for i += 2; i < len(l) && (l[i] < 0x40 || l[i] > 0x7e); i++ {
			}
		case b < 0x80:
			cells++
		case b&0xc0 != 0x80: // the first byte of a multi-byte rune
			cells += 2
		}
	}
	return cells <= w
}

// width is ansi.StringWidth with a shortcut for printable ASCII, which is
// most of what screens measure (addresses, ids, names).
func width(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// truncate cuts s to w cells with a tail, only when it is wider.
func truncate(s string, w int, tail string) string {
	if width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, tail)
}

func uitoa(v uint64) string { return strconv.FormatUint(v, 10) }
