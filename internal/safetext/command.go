package safetext

import (
	"strings"
	"unicode"
)

// LeftOut follows a command line whose flag's file path could not be
// printed (Command): what to add, and why it is not there. It says the
// config file: "the file's path" read as the path of a file the line
// names (withdraw submit FILE). Pasted, the line runs in no shell: sh
// stops at its "(", PowerShell at its lone "'".
func LeftOut(flag string) string {
	return " (add " + flag + " and the config file's path: it holds a character a terminal acts on or hides, so it is not printed)"
}

// Command is a svcwallet command line for the user to run next: words,
// then flag and path when path is not "" (--config and the config file the
// user named), each a word of the user's shell (ShellLine), so that the
// line runs as printed. It is the one way every face prints such a line.
// A path holding what a terminal acts on or hides (a control, an escape, a
// bidi or invisible character, a space other than ' ', bytes not UTF-8)
// cannot be shown as it is, quoted or not: the line goes without it and
// says so (LeftOut).
func Command(flag, path string, words ...string) string {
	return userShell().Command(flag, path, words...)
}

// Command is Command for shell s.
func (s Shell) Command(flag, path string, words ...string) string {
	if path == "" {
		return s.Line(words...)
	}
	if !printable(path) {
		return s.Line(words...) + LeftOut(flag)
	}
	return s.Line(append(words, flag, path)...)
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
