package safetext

import "strings"

// ShellWord is w as one word of a POSIX shell, for a command svcwallet
// prints for the user to paste: unchanged when it holds only characters no
// shell splits on or expands, else in single quotes. "0x…", the ellipsis
// the user fills in, is left as it is.
func ShellWord(w string) string {
	if w == "" {
		return "''"
	}
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@%+=,…", r)) {
			return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
	}
	return w
}

// ShellLine is words as one command line of a POSIX shell (ShellWord each).
func ShellLine(words ...string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = ShellWord(w)
	}
	return strings.Join(out, " ")
}
