package safetext

import (
	"strconv"
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

// LeftOutBefore is LeftOut for a line whose last words follow "--", after
// which a flag reads as an operand: flag goes before it.
func LeftOutBefore(flag string) string {
	return " (add " + flag + " and the config file's path before --: it holds a character a terminal acts on or hides, so it is not printed)"
}

// Command is a svcwallet command line for the user to run next: words,
// then flag and path when path is not "" (--config and the config file the
// user named), each a word of the user's shell (ShellLine), so that the
// line runs as printed. It is the one way every face prints such a line.
// A path holding what a terminal acts on or hides (not Printable) cannot
// be shown as it is, quoted or not: the line goes without it and says so
// (LeftOut).
func Command(flag, path string, words ...string) string {
	return userShell().Command(flag, path, words...)
}

// Command is Command for shell s.
func (s Shell) Command(flag, path string, words ...string) string {
	if path == "" {
		return s.Line(words...)
	}
	if !Printable(path) {
		return s.Line(words...) + LeftOut(flag)
	}
	return s.Line(append(words, flag, path)...)
}

// CommandEnding is Command with operands after "--", which ends a
// command's flags, so that an operand beginning with '-' (a quote id
// journaled as -abc) is read as one: words, flag and path, then "--" and
// the operands. PowerShell is given '--' quoted: bare, some versions take
// it as their own end of parameters and pass the program none.
func CommandEnding(flag, path string, words []string, operands ...string) string {
	return userShell().CommandEnding(flag, path, words, operands...)
}

// CommandEnding is CommandEnding for shell s.
func (s Shell) CommandEnding(flag, path string, words []string, operands ...string) string {
	dash := "--"
	if s == PowerShell {
		dash = s.quote(dash)
	}
	tail := " " + dash
	for _, o := range operands {
		tail += " " + s.Word(o)
	}
	line := s.Command(flag, path, words...)
	if base, cut := strings.CutSuffix(line, LeftOut(flag)); cut && path != "" {
		return base + tail + LeftOutBefore(flag)
	}
	return line + tail
}

// Piped is line run with input as its standard input, in the user's
// shell (Shell.Piped).
func Piped(input, line string) string { return userShell().Piped(input, line) }

// Piped is line run with input, one line, as its standard input, in s:
// printf in a POSIX shell, where zsh's echo takes a lone "-" for the end
// of its options and writes an empty line; a quoted string in PowerShell.
func (s Shell) Piped(input, line string) string {
	if s == PowerShell {
		return s.quote(input) + " | " + line
	}
	return `printf '%s\n' ` + s.Word(input) + " | " + line
}

// Printable reports whether s shows as it is on a terminal: Text leaves it
// whole (no control, escape, bidi or invisible character, bytes UTF-8),
// and it holds no space but ' ' (a no-break or an ideographic space reads
// as ' ' and is another character). It is the one check of every path
// svcwallet prints for a person to read or copy: one that fails it is
// shown Go-quoted, escaped (safetext.Shown), and named in no command line.
func Printable(s string) bool {
	if Text(s) != s {
		return false
	}
	return !strings.ContainsFunc(s, func(r rune) bool {
		return r != ' ' && (unicode.IsSpace(r) || !unicode.IsGraphic(r))
	})
}

// Shown is a path (or a value the environment names) as a message names
// it: as it is when Printable, else Go-quoted, what a terminal acts on or
// hides escaped so that the name is seen as it is (a no-break space as
// \u00a0, not as a space). A path is no secret: it is escaped, not cleaned.
func Shown(path string) string {
	if Printable(path) {
		return path
	}
	return strconv.Quote(path)
}
