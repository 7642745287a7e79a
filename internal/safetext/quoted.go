package safetext

import (
	"fmt"
	"strconv"
	"strings"
)

// maxQuotedHex is the most hex digits in a row an error repeats of what a
// user typed or pasted: enough to recognise an id, a path or an address by
// its start, far from the 64 of a private key pasted in the wrong place.
const maxQuotedHex = 8

// Quoted is s as an error may repeat it: every run of hex digits longer
// than maxQuotedHex is cut after its eighth digit, the cut marked with "…",
// but one of a key's half's length, said by its length alone ("[32 hex
// digits]"), and so is a key's shape in pieces (KeySpans) after its eighth digit;
// a wallet secret in another shape (a recovery phrase, an extended private
// key: shownSecretSpans) is put as "…" whole.
// Text a user typed or pasted may hold a key, or most of one; an error
// quoting it whole would put it on screen and in any report of the error.
// s is cleaned first (Text, line breaks and tabs as spaces): a run broken
// only by escape sequences or invisible characters is one run, as it reads
// on screen.
func Quoted(s string) string { return hexCutAsRead(secretsOut(flat(s))) }

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// IsToken reports whether s holds only letters, digits, '.', '_', ':' and
// '-' (ASCII): the character set of every identifier svcwallet accepts.
func IsToken(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '_', c == ':', c == '-':
		default:
			return false
		}
	}
	return true
}

// IsChainName reports whether s can name a chain (SPEC.md §2.7: ARBITRUM,
// BASE_SEPOLIA): 1 to MaxNameLen ASCII letters, digits and underscores.
// The service's answers and the config's explorer_tx are held to it.
func IsChainName(s string) bool {
	if s == "" || len(s) > MaxNameLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_':
		default:
			return false
		}
	}
	return true
}

// ChainNameWords say what a chain's name holds, wherever one is refused.
const ChainNameWords = "a chain name is letters, digits and _, such as ARBITRUM or BASE_SEPOLIA"

// ASCIIShown is s, a name svcwallet takes in ASCII alone (a flag, a
// command), as a message repeats it: as it is when it is printable ASCII,
// else Go-quoted with everything else escaped (\x1b, \u043e). Cleaned
// instead (Text), --js ESC [31m on would read as --json, a flag that
// exists; a look-alike letter would read as the letter it copies.
func ASCIIShown(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return strconv.QuoteToASCII(s)
		}
	}
	return s
}

// NameQuoted is a name that failed its check as a refusal quotes it
// (refusedQuoted), its first maxNameQuoted characters.
func NameQuoted(s string) string { return refusedQuoted(s, maxNameQuoted) }

// IDQuoted is an id that failed its check (a quote id typed, pasted or
// piped) as a refusal repeats it (refusedQuoted), its first maxIDQuoted
// characters. Cleaned instead (Text), an escape sequence read as "", and
// an id holding a bidi override or a control as one that passes the check
// it failed.
// What follows a ? or # is left out, marked "…", when it names a value
// (=): a link's query or fragment may hold a token (?apikey=, #token=),
// as config.CheckURL leaves a config URL's out; and so is a link's user
// name and password (user:pass@), as a config URL's refusal leaves them.
func IDQuoted(s string) string {
	if scheme, rest, ok := strings.Cut(s, "://"); ok {
		authority := rest
		if end := strings.IndexAny(rest, "/?#"); end >= 0 {
			authority = rest[:end]
		}
		if at := strings.LastIndex(authority, "@"); at >= 0 {
			s = scheme + "://…@" + rest[at+1:]
		}
	}
	if i := strings.IndexAny(s, "?#"); i >= 0 && strings.Contains(s[i+1:], "=") {
		s = s[:i+1] + "…"
	}
	return refusedQuoted(s, maxIDQuoted)
}

// refusedQuoted is text that failed its check as a refusal repeats it: a
// wallet secret it holds put as "…" (secretsOut: a recovery phrase set in
// $SVCWALLET_ENV was said to its 40th character), its long hex runs cut
// as they read (hexCutAsRead), then Go-quoted with all but printable ASCII
// escaped, but the ellipsis a screen shortens an id with; its first max
// characters as shown, a cut marked "…". One rule for names and ids:
// escaped first and cut after, a key split by zero-width characters
// showed more digits than the cut allows.
func refusedQuoted(s string, max int) string {
	parts := strings.Split(hexCutAsRead(secretsOut(s)), "…")
	for i, p := range parts {
		q := strconv.QuoteToASCII(p)
		parts[i] = q[1 : len(q)-1]
	}
	// Escaped, it is ASCII but the ellipses: cut by characters.
	shown := []rune(strings.Join(parts, "…"))
	if len(shown) > max {
		shown = append(shown[:max], '…')
	}
	return `"` + string(shown) + `"`
}

// ShownTyped is a path a person typed (a keystore file, an export's name)
// as a message names it: its hex runs cut as they read (hexCutAsRead), as
// typed text may hold most of a key, then escaped as Shown escapes a path,
// not cleaned: cleaned, a no-break space read as a space and an escape
// sequence as nothing, another file's name.
func ShownTyped(path string) string { return Shown(hexCutAsRead(path)) }

// hexCutAsRead is s with its hex runs cut as Quoted cuts them, a run being
// what reads as one (Text): the escape sequences, controls and invisible
// characters inside it, kept to be shown escaped, break none. Cut after
// escaping, a key split by them kept 8 digits a piece, most of it shown.
// A key's shape in pieces as it reads (KeySpans: groups, halves, wrapped)
// is one run: its pieces are each short of a cut. A run as long as a key's
// half (minHalfHex to maxHalfHex) is said by its length alone, "[32 hex
// digits]": a key's halves given apart (two arguments), each cut after 8
// digits, gave 16 of its 64.
func hexCutAsRead(s string) string {
	lengths := map[int]int{}
	hexRunsAsRead(s, func(_ string, run, digits int, _ bool) {
		lengths[run] = max(lengths[run], digits)
	})
	var b strings.Builder
	hexRunsAsRead(s, func(piece string, run, digits int, inKey bool) {
		digit := len(piece) == 1 && isHexDigit(piece[0])
		switch n := lengths[run]; {
		case run == 0:
		case n >= minHalfHex && n <= maxHalfHex:
			if digits == 1 && digit {
				fmt.Fprintf(&b, "[%d hex digits]", n)
			}
			return
		case inKey && (digits > maxQuotedHex+1 || !digit && digits > maxQuotedHex):
			return // the rest of a key in pieces, its cut said
		case digit && digits > maxQuotedHex+1:
			return
		case digit && digits > maxQuotedHex:
			piece = "…"
		}
		b.WriteString(piece)
	})
	return b.String()
}

// minHalfHex and maxHalfHex bound the runs said by their length alone
// (hexCutAsRead): a half of a key's shape (KeySpans, 62 to 66 digits).
// A longer run, a whole key's or an address's, is cut after 8 digits: 8
// of it is all one refusal can show.
const minHalfHex, maxHalfHex = minKeyDigits / 2, (maxKeyDigits + 1) / 2

// hexRunsAsRead tells each piece of s as it reads (reading), with the
// number of the hex run it is in or ends, from 1 (0 for none), and how
// many of the run's digits came up to it, and whether it is within a key's
// shape in pieces (KeySpans): a run goes on through what reads as nothing
// and through such a key's separators.
func hexRunsAsRead(s string, each func(piece string, run, digits int, inKey bool)) {
	var read strings.Builder // s as it reads, line breaks as spaces
	reading(s, func(piece string, kept bool) {
		if kept || lineBreaks.Replace(piece) != piece {
			read.WriteString(lineBreaks.Replace(piece))
		}
	})
	spans := KeySpans(read.String())
	runs, digits, at := 0, 0, 0 // at: where piece starts in read
	reading(s, func(piece string, kept bool) {
		start := at
		if kept || lineBreaks.Replace(piece) != piece {
			at += len(lineBreaks.Replace(piece))
		}
		for len(spans) > 0 && spans[0][1] <= start {
			spans = spans[1:]
		}
		inKey := len(spans) > 0 && start >= spans[0][0]
		switch {
		case !kept && lineBreaks.Replace(piece) == piece:
		case len(piece) == 1 && isHexDigit(piece[0]):
			if digits == 0 {
				runs++
			}
			digits++
		case inKey && digits > 0:
			// A separator within a key's pieces: its digits count as one run.
		default:
			digits = 0
		}
		if digits == 0 {
			each(piece, 0, 0, inKey)
			return
		}
		each(piece, runs, digits, inKey)
	})
}

// maxIDQuoted and maxNameQuoted are the most characters of an id and of a
// name a refusal repeats, escaped: an id has at most 128, and a line piped
// by mistake may have millions; a name is shorter.
const (
	maxIDQuoted   = 60
	maxNameQuoted = 40
)
