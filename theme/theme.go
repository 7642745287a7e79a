// Package theme holds every lipgloss style svcwallet draws with, for light and
// dark terminal backgrounds.
//
// Colour is never the only signal: the renderer drops colours under
// NO_COLOR, so selection uses reverse video, amounts to be signed are bold
// and underlined, and marked characters are reversed. Under TERM=dumb it
// drops the attributes too, so every choice, focus and selection is also
// a character the screens draw (›, (•)/( ), [x]/[ ]). Text prefixes
// ("Error:") are added by the code that renders them.
package theme

import (
	"charm.land/lipgloss/v2"
)

// Styles is the complete set of styles. Build it with New; the zero value
// renders plain text.
type Styles struct {
	// IsDark records which background the styles were built for.
	IsDark bool

	// AppTitle is the application name at the left of the top bar.
	AppTitle lipgloss.Style
	// TopBar is the full-width top bar; the segment styles are drawn
	// on top of it and must share its background.
	TopBar        lipgloss.Style
	TopBarTitle   lipgloss.Style
	TopBarEnv     lipgloss.Style
	TopBarSegment lipgloss.Style
	TopBarSep     lipgloss.Style

	// Help footer.
	HelpKey  lipgloss.Style
	HelpDesc lipgloss.Style
	HelpSep  lipgloss.Style

	// Toasts and prompts.
	ErrorToast lipgloss.Style
	InfoToast  lipgloss.Style
	Warning    lipgloss.Style

	// Content text.
	Heading lipgloss.Style
	Label   lipgloss.Style
	Value   lipgloss.Style
	Muted   lipgloss.Style

	// Lists: Selected is the whole highlighted row, Cursor the marker before it.
	Selected lipgloss.Style
	Cursor   lipgloss.Style

	// Panels: a bordered box, and the same box when it has the focus. The
	// focused one uses a thick border so the difference survives NO_COLOR.
	Panel        lipgloss.Style
	PanelFocused lipgloss.Style

	// Text inputs (prompt and text).
	InputFocused lipgloss.Style
	InputBlurred lipgloss.Style

	Spinner        lipgloss.Style
	ProgressFilled lipgloss.Style
	ProgressEmpty  lipgloss.Style

	// Danger emphasises what the user is about to sign (amounts, destination).
	Danger lipgloss.Style
	// Mark highlights characters that differ, e.g. between two addresses.
	Mark lipgloss.Style
}

// New returns the styles for a dark (isDark) or light terminal background.
func New(isDark bool) Styles {
	ld := lipgloss.LightDark(isDark)
	c := lipgloss.Color
	var (
		accent   = ld(c("#5B3CC4"), c("#9D86FF"))
		accentBg = c("#6B4FD8")
		onAccent = c("#FFFFFF")
		text     = ld(c("#1F1F1F"), c("#ECECEC"))
		label    = ld(c("#5F5F5F"), c("#A0A0A0"))
		muted    = ld(c("#8C8C8C"), c("#767676"))
		line     = ld(c("#C4C4C4"), c("#4E4E4E"))
		barBg    = ld(c("#E6E6E6"), c("#303030"))
		barFg    = ld(c("#333333"), c("#D0D0D0"))
		red      = ld(c("#B3261E"), c("#FF7A70"))
		green    = ld(c("#1E7A34"), c("#6FDC8C"))
		amber    = ld(c("#8A5300"), c("#FFC857"))
	)
	base := lipgloss.NewStyle()
	bar := base.Background(barBg).Foreground(barFg)

	return Styles{
		IsDark: isDark,

		AppTitle:      base.Bold(true).Foreground(onAccent).Background(accentBg).Padding(0, 1),
		TopBar:        bar,
		TopBarTitle:   bar.Bold(true),
		TopBarEnv:     bar.Bold(true).Foreground(amber),
		TopBarSegment: bar,
		TopBarSep:     bar.Foreground(muted),

		HelpKey:  base.Bold(true).Foreground(label),
		HelpDesc: base.Foreground(muted),
		HelpSep:  base.Foreground(line),

		ErrorToast: base.Bold(true).Foreground(red),
		InfoToast:  base.Foreground(green),
		Warning:    base.Bold(true).Foreground(amber),

		Heading: base.Bold(true).Foreground(accent),
		Label:   base.Foreground(label),
		Value:   base.Foreground(text),
		Muted:   base.Foreground(muted),

		Selected: base.Bold(true).Reverse(true),
		Cursor:   base.Bold(true).Foreground(accent),

		Panel: base.Border(lipgloss.RoundedBorder()).BorderForeground(line).Padding(0, 1),
		PanelFocused: base.Border(lipgloss.ThickBorder()).BorderForeground(accent).
			Padding(0, 1),

		InputFocused: base.Bold(true).Foreground(accent),
		InputBlurred: base.Foreground(muted),

		Spinner:        base.Foreground(accent),
		ProgressFilled: base.Foreground(accent),
		ProgressEmpty:  base.Foreground(line),

		Danger: base.Bold(true).Underline(true).Foreground(red),
		// Reversed, the amber foreground becomes the cell background and the
		// text takes the terminal's own background colour: high contrast on
		// both themes, and still visible with no colour at all.
		Mark: base.Bold(true).Reverse(true).Foreground(amber),
	}
}
