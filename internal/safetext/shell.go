package safetext

import (
	"runtime"
	"strings"
)

// Shell is the shell a command svcwallet prints for the user to paste is
// quoted for.
type Shell int

const (
	// POSIX is sh, bash, zsh and fish, which read its lines alike: the
	// user's shell on unix.
	POSIX Shell = iota
	// PowerShell is Windows' shell, where ' quotes and a \ is a path's.
	PowerShell
)

// userShell is the shell of the system svcwallet runs on: PowerShell on
// Windows, a POSIX shell elsewhere.
func userShell() Shell { return shellOf(runtime.GOOS) }

func shellOf(goos string) Shell {
	if goos == "windows" {
		return PowerShell
	}
	return POSIX
}

// ShellWord is w as one word of the user's shell (userShell().Word).
func ShellWord(w string) string { return userShell().Word(w) }

// ShellLine is words as one command line of the user's shell
// (userShell().Line).
func ShellLine(words ...string) string { return userShell().Line(words...) }

// Word is w as one word of s: unchanged when it holds only characters s
// neither splits on nor expands, else in single quotes. "0x…", the
// ellipsis the user fills in, is left as it is for a POSIX shell, and
// quoted for PowerShell, where it would start a number.
func (s Shell) Word(w string) string {
	if w == "" {
		return "''"
	}
	plain := "-_./:@%+=,…"
	// zsh reads a bare =NAME as the path of the program NAME, fish a bare
	// %self as its process id.
	if s == POSIX && (strings.HasPrefix(w, "=") || strings.HasPrefix(w, "%")) {
		return s.quote(w)
	}
	if s == PowerShell {
		// , makes an array there, @ splats, % and ~ begin aliases; a \
		// is a path's and needs no quotes. A word that reads as a number
		// (007, 0x10, -5, .5, 1e3) may reach the program as its value
		// (007 as 7), not as typed: it is quoted.
		plain = `-_./:=+\…`
		// A bare word beginning with - is read as a parameter, and broken
		// at its first . (PowerShell issue 6291): -prod.eu as -prod .eu.
		if looksNumeric(w) || strings.HasPrefix(w, "-") && strings.ContainsFunc(w, func(r rune) bool {
			return !(r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) {
			return s.quote(w)
		}
	}
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(plain, r)) {
			return s.quote(w)
		}
	}
	return w
}

// looksNumeric: w begins as a PowerShell number does, a digit, or a sign
// or a point before one.
func looksNumeric(w string) bool {
	if len(w) > 1 && strings.IndexByte("-+.", w[0]) >= 0 {
		w = w[1:]
	}
	return w[0] >= '0' && w[0] <= '9'
}

// quote is w in s's single quotes, inside which nothing is expanded.
func (s Shell) quote(w string) string {
	if s == PowerShell {
		// PowerShell reads the typographic single quotes as ' too; each
		// doubled stands for itself.
		var b strings.Builder
		b.WriteByte('\'')
		for _, r := range w {
			if strings.ContainsRune("'‘’‚‛", r) {
				b.WriteRune(r)
			}
			b.WriteRune(r)
		}
		b.WriteByte('\'')
		return b.String()
	}
	// fish (whose completion svcwallet ships) takes \' and \\ inside single
	// quotes as escapes, so a backslash, as a quote, stands outside them:
	// written \\ there, sh and fish both read one.
	return "'" + strings.NewReplacer("'", `'\''`, `\`, `'\\'`).Replace(w) + "'"
}

// Line is words as one command line of s (Word each). PowerShell runs a
// quoted program's name only after its call operator, &.
func (s Shell) Line(words ...string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = s.Word(w)
	}
	line := strings.Join(out, " ")
	if s == PowerShell && len(words) > 0 && out[0] != words[0] {
		line = "& " + line
	}
	return line
}
