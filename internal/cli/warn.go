package cli

import (
	"fmt"
	"io"
	"unicode"
	"unicode/utf8"
)

// warn writes a warning to w as every command words one ("svcwallet
// withdraw: warning: more than 5%…"): in lower case after the colon, as an
// error's words are, where the service's sentences begin with a capital.
func warn(w io.Writer, who, format string, a ...any) {
	fmt.Fprintf(w, "%s: warning: %s\n", who, lowerFirst(fmt.Sprintf(format, a...)))
}

// lowerFirst lowers s's first letter unless it begins a name in capitals
// (USDT, SOLANA, HTTP).
func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if next, _ := utf8.DecodeRuneInString(s[n:]); !unicode.IsUpper(r) || unicode.IsUpper(next) {
		return s
	}
	return string(unicode.ToLower(r)) + s[n:]
}
