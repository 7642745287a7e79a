package kit

import (
	"cmp"
	"fmt"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// KeyCleared is what a field says when it drops text with the shape of a
// private key; it never repeats the text.
var KeyCleared = exchange.UserError{Text: safetext.Capitalized(safetext.KeyShape) + ": it was cleared and not used. " +
	"Keys are read from a keystore file or $" + signer.KeyEnvVar}

// SecretCleared is what a field wanting wants (Input.Want; "": its own
// words) says when it drops text with the shape of a wallet's recovery
// phrase or secret key in another shape than hex (safetext.TypedSecret),
// with what to type instead; it never repeats the text.
func SecretCleared(wants string) exchange.UserError {
	return exchange.UserError{Text: "That has the shape of a wallet's recovery phrase or secret key: it was cleared and not used. svcwallet never asks for one: type " +
		cmp.Or(wants, "what the field asks for")}
}

// Input is the console's text field. Text typed or pasted into it that
// holds the shape of a private key (safetext.HoldsKeyShape) empties it and shows
// KeyCleared: no field takes a private key, and one kept would be drawn,
// sent as an id or an API key, or quoted in an error. Passphrase fields
// are the exception (NewPassphrase).
type Input struct {
	textinput.Model
	c          *tui.Common
	passphrase bool
	// prefilled: the value was put there for the user (Prefill), not
	// typed, and is untouched.
	prefilled bool
	// drawn keeps the last View by what it drew from: a screen's frame is
	// drawn after every message, and a field's was much of it.
	drawn *drawnInput
	// hashes: a payout hash standing as one token (quoted, bracketed or
	// before punctuation too, follow.TokenHash) is not a key's shape here
	// (TakeHashes).
	hashes bool
	// wants is what the field asks for, said when it clears a secret
	// (Want, SecretCleared).
	wants string
}

// Want names what the field asks for ("the API key"): the next step
// SecretCleared gives when the field drops a recovery phrase.
func (in *Input) Want(what string) { in.wants = what }

// TakeHashes lets the field hold a payout hash (0x and 64 hex digits)
// standing as one token, as follow.MaskHashes reads it: a field whose text is only ever looked up among what
// this machine has seen, never sent (the board's ids and filter). Any other
// key's shape is still cleared.
func (in *Input) TakeHashes() { in.hashes = true }

// holdsKey is the key guard: s holds a private key's shape.
func (in Input) holdsKey(s string) bool {
	if in.hashes {
		s = follow.MaskHashes(s)
	}
	return safetext.HoldsKeyShape(s)
}

// holdsSecret is the key guard of a wallet's other secrets (a recovery
// phrase, an extended private key: safetext.TypedSecret), drawn in the
// field as they were typed or pasted.
func holdsSecret(s string) bool { return safetext.TypedSecret(s) == safetext.PhraseSecret }

// drawnInput is an Input's last View and what it was drawn from.
type drawnInput struct {
	key, view string
}

// Prefill puts v in the field for the user to keep or replace: the first
// text typed or pasted replaces it whole and backspace empties it, so
// typing 45d over a pre-filled 7d makes 45d; a key that moves the cursor
// keeps it for editing.
func (in *Input) Prefill(v string) {
	in.Model.SetValue(v)
	in.prefilled = v != ""
}

// SetValue replaces the value; it is not pre-filled (Prefill).
func (in *Input) SetValue(v string) {
	in.Model.SetValue(v)
	in.prefilled = false
}

// NewInput returns a text field with a steady cursor: a blinking one would
// redraw an idle screen twice a second. masked hides what is typed (an API
// key) but still refuses a key.
func NewInput(c *tui.Common, placeholder string, masked bool) Input {
	in := textinput.New()
	in.Placeholder = placeholder
	in.Prompt = ""
	in.SetStyles(inputStyles(c))
	if masked {
		in.EchoMode = textinput.EchoPassword
		in.EchoCharacter = '•'
	}
	return Input{Model: in, c: c, drawn: &drawnInput{}}
}

// inputStyles are a field's styles in the theme c holds now: its text and
// cursor in the theme's text colour, as textinput's cursor (ANSI 7, light
// grey) and a dark theme's text vanish on a light background.
func inputStyles(c *tui.Common) textinput.Styles {
	st := textinput.DefaultStyles(c.Styles.IsDark)
	st.Cursor.Blink = false
	st.Cursor.Color = c.Styles.Value.GetForeground()
	st.Focused.Text = c.Styles.Value
	st.Blurred.Text = c.Styles.Muted
	return st
}

// caret is the text cursor of a focused field on a terminal without
// attributes, where textinput's (reverse video) does not show.
const caret = "▏"

// View is textinput's, except under TERM=dumb (tui.Common.Plain): there
// the cursor, drawn in reverse video, would not show, so a focused field
// draws it as caret before the character it is on, in the place of the
// blank cell kept for it at the end.
func (in Input) View() string {
	if in.drawn == nil {
		return in.view()
	}
	key := fmt.Sprint(in.Value(), "\x00", in.Position(), in.Focused(), in.Width(), in.c != nil && in.c.Plain(),
		in.c != nil && in.c.Styles.IsDark, in.Placeholder, in.EchoMode)
	if key != in.drawn.key {
		in.drawn.key, in.drawn.view = key, in.view()
	}
	return in.drawn.view
}

func (in Input) view() string {
	m := in.Model
	if in.c != nil {
		// The theme may have changed since the field was made: the
		// terminal's answer about its background comes after the first frame.
		m.SetStyles(inputStyles(in.c))
	}
	if in.c == nil || !in.c.Plain() || !in.Focused() {
		return m.View()
	}
	m.SetVirtualCursor(false)
	v := m.View()
	x := m.Cursor().Position.X
	w := ansi.StringWidth(v)
	out := ansi.Truncate(v, x, "") + caret + ansi.TruncateLeft(v, x, "")
	if strings.HasSuffix(ansi.Strip(v), " ") {
		out = ansi.Truncate(out, w, "")
	}
	return out
}

// NewPassphrase returns a masked field that takes any text: a passphrase
// is never shown, sent or quoted, and one of 64 hex digits (openssl rand
// -hex 32) is a sound choice that refusing would lock out of its keystore.
func NewPassphrase(c *tui.Common, placeholder string) Input {
	in := NewInput(c, placeholder, true)
	in.passphrase = true
	return in
}

// Update is textinput's, with the key guard. A paste holding a key is
// dropped before it is inserted, since a CharLimit could keep most of it
// while cutting the run short of 64; a field without the focus takes no
// paste, so it keeps what it holds.
func (in Input) Update(msg tea.Msg) (Input, tea.Cmd) {
	if p, ok := msg.(tea.PasteMsg); ok && in.Focused() && !in.passphrase && in.holdsKey(p.Content) {
		in.SetValue("")
		return in, tui.ShowError(KeyCleared)
	}
	if p, ok := msg.(tea.PasteMsg); ok && in.Focused() && !in.passphrase && holdsSecret(p.Content) {
		in.SetValue("")
		return in, tui.ShowError(SecretCleared(in.wants))
	}
	if in.prefilled && in.Focused() {
		if in.replaces(msg) {
			in.SetValue("")
		}
		switch msg.(type) {
		case tea.KeyPressMsg, tea.PasteMsg:
			in.prefilled = false
		}
		if k, ok := msg.(tea.KeyPressMsg); ok && (k.Code == tea.KeyBackspace || k.Code == tea.KeyDelete) {
			return in, nil // the value went whole
		}
	}
	var cmd tea.Cmd
	in.Model, cmd = in.Model.Update(msg)
	if !in.passphrase && in.holdsKey(in.Value()) && !in.typingOn(msg) {
		in.SetValue("")
		return in, tea.Batch(cmd, tui.ShowError(KeyCleared))
	}
	if !in.passphrase && holdsSecret(in.Value()) {
		in.SetValue("")
		return in, tea.Batch(cmd, tui.ShowError(SecretCleared(in.wants)))
	}
	return in, cmd
}

// Guard is the key guard on a key press the screen takes before the
// field sees it (a submit's enter, tab, esc): text with a key's shape,
// kept while more digits may come (typingOn), is cleared first, so no
// screen acts on what the field would clear. Every screen calls it
// before its own keys: the field's rule first.
func (in *Input) Guard(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || k.Text != "" || !in.Focused() || in.passphrase || !in.holdsKey(in.Value()) {
		return nil // typed text goes to Update, which keeps the rule itself
	}
	in.SetValue("")
	return tui.ShowError(KeyCleared)
}

// typingOn reports whether msg typed a hex digit at the end of the value
// and the shape of a key there is short of a key's 64 digits: a key typed
// by hand is cleared at its 64th (no digit typed after the warning takes
// it down and stays), and a payout hash typed is whole at its 64th. A key
// written with fewer, pasted or given, is refused whole
// (safetext.HoldsKeyShape).
func (in Input) typingOn(msg tea.Msg) bool {
	k, ok := msg.(tea.KeyPressMsg)
	v := in.Value()
	if !ok || len(k.Text) != 1 || !safetext.HexDigits(k.Text, 1) || in.Position() != utf8.RuneCountInString(v) {
		return false
	}
	if in.hashes {
		v = follow.MaskHashes(v)
	}
	for _, span := range safetext.KeySpans(v) {
		if span[1] != len(v) || hexDigits(v[span[0]:span[1]]) >= 64 {
			return false
		}
	}
	return true
}

// hexDigits counts the hex digits of s.
func hexDigits(s string) int {
	n := 0
	for i := range len(s) {
		if safetext.HexDigits(s[i:i+1], 1) {
			n++
		}
	}
	return n
}

// replaces says whether msg, on a pre-filled value, takes its place:
// text typed or pasted, backspace or delete.
func (in Input) replaces(msg tea.Msg) bool {
	switch m := msg.(type) {
	case tea.PasteMsg:
		return true
	case tea.KeyPressMsg:
		return m.Text != "" && m.Mod&^tea.ModShift == 0 || m.Code == tea.KeyBackspace || m.Code == tea.KeyDelete
	}
	return false
}

// LooksLikeAPIKey reports whether s has the shape of an API key: one token
// of at least 16 letters, digits, '-', '_' or '.', with a '-' or a digit
// (sandbox-demo-key, a UUID, base64url). A passphrase may have it too, so
// it is only said once the text failed as a passphrase.
func LooksLikeAPIKey(s string) bool {
	if len(s) < 16 || !safetext.IsToken(s) || strings.ContainsRune(s, ':') {
		return false
	}
	return strings.ContainsAny(s, "-0123456789")
}
