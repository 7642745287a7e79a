package cli

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/svcwallet/svcwallet/internal/plain"
)

// warn writes a warning to w as every command words one ("svcwallet
// withdraw: warning: more than 5%…"): in lower case after the colon, as an
// error's words are, where the service's sentences begin with a capital.
func warn(w io.Writer, who, format string, a ...any) {
	fmt.Fprintf(plain.Fitted(w), "%s: warning: %s\n", who, lowerFirst(fmt.Sprintf(format, a...)))
}

// lowerFirst lowers s's first letter only where it begins a word of a
// sentence ("More than", "An earlier", "A withdrawal's"): a name in
// capitals (USDT), a path (C:\Users, a drive letter) or an id is
// never changed.
func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if !unicode.IsUpper(r) {
		return s
	}
	rest := s[n:]
	end := strings.IndexFunc(rest, func(c rune) bool { return !unicode.IsLetter(c) })
	if end < 0 {
		end = len(rest)
	}
	word, after := rest[:end], rest[end:]
	if strings.ToLower(word) != word || (after != "" && !strings.ContainsAny(after[:1], " ,;'")) {
		return s
	}
	return string(unicode.ToLower(r)) + rest
}
