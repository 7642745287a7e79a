//go:build unix

package runnext

import "testing"

// TestCommandFlagsWhereTaken: plain mode's and the console's `key import`
// goes without --env (key refuses it as an unknown flag), env use without
// --env, the rest with both; the config path stays one word (POSIX's
// quoting, hence unix).
func TestCommandFlagsWhereTaken(t *testing.T) {
	for _, tc := range []struct {
		words []string
		want  string
	}{
		{[]string{"key", "import"}, "svcwallet key import"},
		{[]string{"sandbox"}, "svcwallet sandbox"},
		{[]string{"env", "use", "NAME"}, "svcwallet env use NAME --config '/my cfg/c.toml'"},
		{[]string{"auth", "status"}, "svcwallet auth status --config '/my cfg/c.toml'"},
		{[]string{"auth", "logout"}, "svcwallet auth logout --env prod --config '/my cfg/c.toml'"},
		{[]string{"doctor"}, "svcwallet doctor --env prod --config '/my cfg/c.toml'"},
	} {
		if got := Command("/my cfg/c.toml", "prod", tc.words...); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
	if got := Command("", "", "doctor"); got != "svcwallet doctor" {
		t.Errorf("no environment nor config: %s", got)
	}
}

// TestCommandOnEndsFlagsBeforeADashOperand: an operand beginning with '-'
// goes last, after "--", the flags before it; a --config left out is said
// to go before "--", where it is still read as a flag.
func TestCommandOnEndsFlagsBeforeADashOperand(t *testing.T) {
	for _, tc := range []struct {
		config   string
		operands []string
		want     string
	}{
		{"/c.toml", []string{"q-1"}, "svcwallet status q-1 --watch --env prod --config /c.toml"},
		{"/c.toml", []string{"q-1", "-abc"}, "svcwallet status --watch --env prod --config /c.toml -- q-1 -abc"},
		{"/c.toml", []string{"q-1", "-"}, `printf '%s\n' - | svcwallet status --watch --env prod --config /c.toml -- q-1 -`},
		{"/c\u202e.toml", []string{"-abc"}, "svcwallet status --watch --env prod -- -abc (add --config and the config file's path before --: it holds a character a terminal acts on or hides, so it is not printed)"},
	} {
		if got := CommandOn(tc.config, "prod", []string{"status"}, tc.operands, "--watch"); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}
