package cli

import (
	"strings"

	"github.com/charmbracelet/colorprofile"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// asksTmuxColours tells whether the console asks tmux if it shows true
// colour: inside tmux, when the environment and terminfo gave colours
// below it. lipgloss's own question was kept from running before main
// (internal/startenv), since it had no bound.
func asksTmuxColours(getenv func(string) string, p colorprofile.Profile) bool {
	return getenv("TMUX") != "" && p >= colorprofile.ANSI && p < colorprofile.TrueColor
}

// tmuxTrueColour asks tmux, bounded and with no secret in its environment
// (osguard.QuickOutput), whether it shows true colour.
func tmuxTrueColour() bool {
	info, err := osguard.QuickOutput(osguard.QuickWait, tmuxInfoKept, "tmux", "info")
	return err == nil && saysTrueColour(info)
}

// tmuxInfoKept is how much of tmux info is read: about 7 KiB a client
// attached, Tc past the first 4 KiB.
const tmuxInfoKept = 256 << 10

// saysTrueColour reads `tmux info`: one capability a line ("  57: RGB:
// (flag) true"), true colour being Tc or RGB set.
func saysTrueColour(info string) bool {
	for line := range strings.Lines(info) {
		f := strings.Fields(line)
		if len(f) > 0 && strings.HasSuffix(f[0], ":") && strings.Trim(f[0], "0123456789") == ":" {
			f = f[1:] // the capability's number
		}
		if len(f) >= 2 && (f[0] == "Tc:" || f[0] == "RGB:") && f[len(f)-1] == "true" {
			return true
		}
	}
	return false
}
