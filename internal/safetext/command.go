package safetext

import (
	"strings"
	"unicode"
)

// ConfigLeftOut follows a command line whose --config path could not be
// printed (Command): what to add, and why it is not there.
const ConfigLeftOut = " (add --config and the config file's path: it holds a character a terminal acts on or hides, so it is not printed)"

// Command is a svcwallet command line for the user to run next: words,
// then --config and config when config is not "", each a word of the
// user's shell (ShellLine), so that the line runs as printed. It is the
// one way every face prints such a line. A config path holding what a
// terminal acts on or hides (a control, an escape, a bidi or invisible
// character, a space other than ' ', bytes not UTF-8) cannot be shown as it
// is, quoted or not: the line goes without it and says so (ConfigLeftOut).
func Command(config string, words ...string) string { return userShell().Command(config, words...) }

// Command is Command for shell s.
func (s Shell) Command(config string, words ...string) string {
	if config == "" {
		return s.Line(words...)
	}
	if !printable(config) {
		return s.Line(words...) + ConfigLeftOut
	}
	return s.Line(append(words, "--config", config)...)
}

// printable reports whether s shows as it is on a terminal: Text leaves it
// whole, and it holds no space but ' ' (a no-break or an ideographic space
// reads as ' ' and is another character).
func printable(s string) bool {
	if Text(s) != s {
		return false
	}
	return !strings.ContainsFunc(s, func(r rune) bool {
		return r != ' ' && (unicode.IsSpace(r) || !unicode.IsGraphic(r))
	})
}
