package builder

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/tui"
)

// builderLoginMsg answers logging in with the builder's new API key.
type builderLoginMsg struct {
	session exchange.Session
	err     error
}

var builderResultKeys = struct {
	Copy, Login, Done key.Binding
}{
	Copy:  key.NewBinding(key.WithKeys("c"), tui.WithHelp("c", "copy the API key", "copy")),
	Login: key.NewBinding(key.WithKeys("l"), tui.WithHelp("l", "log in with it", "log in")),
	Done:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "home")),
}

// builderResultScreen says the builder is authorized, with its caps. In API-key
// mode it shows the returned key once: it lives only in this screen, so
// leaving the screen forgets it.
type builderResultScreen struct {
	kit.Visit // its calls end when it is left
	app       *kit.App
	auth      builder.Auth
	exp       int64 // signed expiration, unix nanoseconds
	apiKey    string
	copied    bool
	logging   bool
	err       error
	wd, h     int
}

// newBuilderResult shows an accepted authorization; apiKey is "" without one.
func newBuilderResult(app *kit.App, a builder.Auth, exp int64, apiKey string) *builderResultScreen {
	return &builderResultScreen{app: app, auth: a, exp: exp, apiKey: apiKey}
}

func (r *builderResultScreen) Init() tea.Cmd { return nil }

func (r *builderResultScreen) Title() string { return "Builder authorized" }

func (r *builderResultScreen) SetSize(w, h int) { r.wd, r.h = w, h }

func (r *builderResultScreen) KeyMap() help.KeyMap { return r.bindings().KeyMap() }

// bindings: copying and logging in with the API key while there is one;
// nothing while that login is out.
func (r *builderResultScreen) bindings() kit.Bindings {
	withKey := r.apiKey != "" && !r.logging
	return kit.Bindings{
		{Key: builderResultKeys.Copy, On: withKey, Do: func() tea.Cmd {
			r.copied = true
			return kit.CopyText(r.app, r.apiKey, "API key copied to the clipboard")
		}},
		{Key: builderResultKeys.Login, On: withKey, Do: r.login},
		{Key: builderResultKeys.Done, On: !r.logging, Do: func() tea.Cmd { return tui.Pop(r) }},
	}
}

// login opens a session with the builder's new API key.
func (r *builderResultScreen) login() tea.Cmd {
	r.logging, r.err = true, nil
	client, apiKey, parent := r.app.Client(), r.apiKey, r.Context(r.app)
	return func() tea.Msg {
		cx, cancel := kit.Call(parent)
		defer cancel()
		s, err := client.Login(cx, exchange.APIKey(apiKey))
		return builderLoginMsg{session: s, err: err}
	}
}

func (r *builderResultScreen) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case builderLoginMsg:
		return r, r.loggedIn(msg)
	case tea.KeyPressMsg:
		cmd, _ := r.bindings().Handle(msg)
		return r, cmd
	}
	return r, nil
}

// loggedIn starts over at home with the builder key's session, which the
// client never keeps (exchange.Options.OnRenewed): said, so no one takes
// later commands for the builder's.
func (r *builderResultScreen) loggedIn(msg builderLoginMsg) tea.Cmd {
	r.logging = false
	if msg.err != nil {
		r.err = exchange.Explain(msg.err)
		return nil
	}
	r.apiKey = ""
	r.app.Signer = nil // the session is now the API key's, not the wallet's
	info := "Logged in with the builder's API key"
	if msg.session.Location != "" {
		info += " (" + msg.session.Location + ")"
	}
	info += ", for this console run only: it is not kept"
	return tea.Batch(tui.Reset(r.app.Makers.Home(r.app)), tui.ShowInfo(info))
}

// resultBlanks is how many blank lines the result has between its parts
// with an API key (render).
const resultBlanks = 3

// View draws the result whole, its blank lines given up one at a time
// when the screen is too short for them (an API key's long label at
// 60x20): only as many as must go, so no row is left empty below.
func (r *builderResultScreen) View() string {
	if r.h <= 0 {
		return r.render(resultBlanks)
	}
	v, _ := layout.Fitted(resultBlanks+1, r.h, func(level int) string { return r.render(resultBlanks - level) })
	return v
}

// render draws the result with the first kept of its blank lines: the one
// above the API key's heading, then above the warning to copy it, then
// below the heading (the heading binds to its facts without it).
func (r *builderResultScreen) render(kept int) string {
	c := r.app.Common
	st := c.Styles
	const lw = 16
	blank := func(i int) string {
		if i < kept {
			return "\n"
		}
		return ""
	}
	var b strings.Builder
	line := func(label, value string) { b.WriteString(layout.WrapField(c, label, lw, value, "", r.wd) + "\n") }
	facts := func(fs []intent.Fact) {
		for _, f := range fs {
			line(f.Label, st.Value.Render(f.Value))
		}
	}
	facts(r.auth.Granted(time.Unix(0, r.exp)))
	if !r.auth.WithKey {
		b.WriteString(blank(0) + st.Muted.Render(layout.WrapTo("No API key was created. Press enter to go back home.", max(r.wd, 1))) + "\n")
		return layout.Clip(b.String(), r.wd)
	}
	b.WriteString(blank(0) + st.Heading.Render("API key for the builder") + "\n" + blank(2))
	facts(r.auth.KeyFacts(""))
	switch {
	case r.apiKey == "":
		line("API key", st.Muted.Render("(forgotten)"))
	default:
		line("API key", st.Danger.Render(r.apiKey))
	}
	wrap := func(s string) string { return layout.WrapTo(s, max(r.wd, 1)) }
	b.WriteString(blank(1) + st.Warning.Render(wrap("This API key is shown once and will not be shown again: copy it now.")) + "\n")
	switch {
	case r.logging:
		b.WriteString(st.Muted.Render(wrap("Logging in with the new API key…")) + "\n")
	case r.err != nil:
		b.WriteString(layout.ErrorBlock(c, "Login failed", r.err, r.wd))
	case r.copied:
		b.WriteString(st.Muted.Render(wrap("l logs in with it in place of this session, for this console run only (it is not kept); enter goes home and forgets it.")) + "\n")
	default:
		b.WriteString(st.Muted.Render(wrap("c copies it, l logs in with it in place of this session, for this console run only (it is not kept), enter goes home.")) + "\n")
	}
	return layout.Clip(b.String(), r.wd)
}
