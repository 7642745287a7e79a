package cli

import (
	"testing"

	"github.com/charmbracelet/colorprofile"
)

// TestSaysTrueColour: tmux info's Tc or RGB set is true colour; missing,
// false, or the words elsewhere in a line are not.
func TestSaysTrueColour(t *testing.T) {
	for _, tc := range []struct {
		info string
		want bool
	}{
		{"Terminal 0: xterm-256color for /dev/pts/1, flags 0x1f:\n  57: RGB: (flag) true\n  63: Tc: [missing]\n", true},
		{" 197: Tc: (flag) true\n", true},
		{"RGB: (flag) true", true},
		{"  57: RGB: [missing]\n  63: Tc: [missing]\n", false},
		{"  57: RGB: (flag) false\n", false},
		{"  12: Ss: (string) \\033[Tc true\n", false},
		{"  Tcx: (flag) true\n", false},
		{"", false},
	} {
		if got := saysTrueColour(tc.info); got != tc.want {
			t.Errorf("saysTrueColour(%q) = %v, want %v", tc.info, got, tc.want)
		}
	}
}

// TestAsksTmuxColours: only inside tmux, and only when the environment
// gave colours below true colour (not NO_COLOR's attributes alone).
func TestAsksTmuxColours(t *testing.T) {
	inTmux := func(name string) string { return map[string]string{"TMUX": "/tmp/tmux-0/default,1,0"}[name] }
	outside := func(string) string { return "" }
	for _, tc := range []struct {
		getenv func(string) string
		p      colorprofile.Profile
		want   bool
	}{
		{inTmux, colorprofile.ANSI256, true},
		{inTmux, colorprofile.ANSI, true},
		{inTmux, colorprofile.TrueColor, false},
		{inTmux, colorprofile.ASCII, false},
		{inTmux, colorprofile.NoTTY, false},
		{outside, colorprofile.ANSI256, false},
	} {
		if got := asksTmuxColours(tc.getenv, tc.p); got != tc.want {
			t.Errorf("in tmux %v, profile %v: asks %v, want %v", tc.getenv("TMUX") != "", tc.p, got, tc.want)
		}
	}
}
