package safetext

import (
	"crypto/sha256"
	"encoding/base64"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A wallet's secret is also written in shapes that are no hex: the
// recovery phrase (BIP-39: 12 to 24 words of one of its lists), a SOLANA
// keypair file (the Solana CLI's id.json: a JSON list of its 64 bytes) and
// a key in base64. None is an id, and split at spaces or commas each piece
// of the first two would be one.

// minPhraseWords is the fewest words of a recovery phrase, and
// minSecretBytes the fewest numbers of a byte list taken for a key (a
// seed is 32 bytes, a SOLANA keypair 64).
const (
	minPhraseWords = 12
	minSecretBytes = 32
)

// WalletSecretSpans returns where s, text given where no secret goes (ids,
// arguments, a field), holds the shape of a recovery phrase
// (minPhraseWords or more words in a row, apart only by whitespace,
// commas, semicolons, quotes or a join, numbered or not: of one BIP-39
// list, phraseSpans, or of 3 to maxShortWord letters whatever their list,
// shortWordRuns) or of a key written as bytes
// (minSecretBytes or more numbers up to 255 in a row, apart by commas and
// whitespace, as in [12, 200, ...]) or of a key in base64 (base64Spans)
// or of an extended private key (extendedKeySpans), as byte ranges
// [start, end). Words on no list take the phrase's place here: a phrase
// on no list embedded (a Trezor's SLIP-39 share, one with two typos) was
// sent word by word as ids.
func WalletSecretSpans(s string) [][2]int {
	return append(append(phraseAndByteSpans(s, false), base64Spans(s)...), extendedKeySpans(s)...)
}

// shownSecretSpans are WalletSecretSpans of text shown (an error, a
// child's output), where a phrase is words of a BIP-39 list (phraseSpans),
// so that prose of as many words is said whole.
func shownSecretSpans(s string) [][2]int {
	return append(append(phraseAndByteSpans(s, true), base64Spans(s)...), extendedKeySpans(s)...)
}

// phraseAndByteSpans are WalletSecretSpans's recovery phrases and keys
// written as bytes; a phrase's words on a list only when listed.
func phraseAndByteSpans(s string, listed bool) [][2]int {
	var spans [][2]int
	addPhrase := func(run [][2]int) {
		var short [][2]int
		if !listed {
			short = shortWordRuns(s, run)
			spans = append(spans, short...)
		}
		for _, p := range phraseSpans(s, run) {
			if !slices.ContainsFunc(short, func(k [2]int) bool { return k[0] <= p[0] && p[1] <= k[1] }) {
				spans = append(spans, p) // said once
			}
		}
	}
	addList := func(run [][2]int) {
		if len(run) >= minSecretBytes {
			spans = append(spans, bracketed(s, run[0][0], run[len(run)-1][1]))
		}
	}
	var words, bytes [][2]int // the current runs of each shape's pieces
	comma := false            // a comma since the last number
	ordinal := false          // the last piece numbered a word (isOrdinal)
	// The numbers read in the run of words: a numbered phrase has one
	// before each word and none else, so a word without its number, or a
	// number where none goes, ends the run (prose with numbers in it).
	numbers := 0
	for i := 0; i < len(s); {
		j := i + pieceLen(s[i:])
		if r, size := utf8.DecodeRuneInString(s[i:]); j == i && size > 1 && unicode.IsSpace(r) {
			i += size // a no-break or ideographic space, as a space
			continue
		}
		if j == i {
			joins := len(words) > 0 && words[len(words)-1][1] == i && i+1 < len(s) && pieceLen(s[i+1:]) > 0
			switch c := s[i]; {
			case c == ',':
				comma = true
			case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';' || c == '[' || c == ']':
			case strings.IndexByte(phraseQuotes, c) >= 0, ordinal && strings.IndexByte(ordinalEnds, c) >= 0,
				joins && strings.IndexByte(wordJoins, c) >= 0:
				addList(bytes) // a word's quotes or number's mark part no bytes
				bytes = nil
			default:
				addPhrase(words)
				addList(bytes)
				words, bytes, numbers = nil, nil, 0
			}
			if s[i] == ';' || s[i] == '[' || s[i] == ']' {
				addList(bytes) // a byte list is one list
				bytes = nil
			}
			i++
			continue
		}
		piece := s[i:j]
		ordinal = isOrdinal(piece)
		switch {
		case isWord(piece) && (numbers == 0 || numbers == len(words)+1):
			words = append(words, [2]int{i, j})
		case isWord(piece): // a second word after a number: one of prose
			addPhrase(words)
			words, numbers = [][2]int{words[len(words)-1], {i, j}}, 0
		case ordinal && numbers == len(words):
			numbers++
		case ordinal: // perhaps the first of a numbered phrase
			addPhrase(words)
			words, numbers = nil, 1
		default:
			addPhrase(words)
			words, numbers = nil, 0
		}
		if isByte(piece) && (len(bytes) == 0 || comma) {
			bytes = append(bytes, [2]int{i, j})
		} else {
			addList(bytes)
			bytes = nil
			if isByte(piece) {
				bytes = [][2]int{{i, j}}
			}
		}
		comma = false
		i = j
	}
	addPhrase(words)
	addList(bytes)
	return spans
}

// extendedKeySpans are the runs of s that are a BIP-32 extended private
// key, which gives every key of a wallet: base58 of 78 bytes and their
// checksum (the first 4 bytes of their double SHA-256), beginning with
// xprv or tprv, or SLIP-132's yprv, zprv and the others. 111 letters and
// digits, it is a token, and was sent as a quote id. The checksum tells it
// from an id that begins so; an extended public key (xpub) is no secret.
func extendedKeySpans(s string) [][2]int {
	var spans [][2]int
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && isPieceByte(s[j]) {
			j++
		}
		if extendedKeyChecked(s[i:j]) {
			spans = append(spans, [2]int{i, j})
		}
		i = j + 1
	}
	return spans
}

// extendedKeyVersions are how an extended private key begins: BIP-32's
// mainnet and testnet, and SLIP-132's for other scripts.
const extendedKeyVersions = " xprv tprv yprv zprv Yprv Zprv uprv vprv Uprv Vprv "

// extendedKeyChecked: run begins as an extended private key does and is
// base58 of 82 bytes whose last 4 are the checksum of the others. A run
// far from 111 characters is not decoded.
func extendedKeyChecked(run string) bool {
	if len(run) < 110 || len(run) > 112 || !strings.Contains(extendedKeyVersions, " "+run[:4]+" ") {
		return false
	}
	var b []byte // big-endian, as the digits are read
	for i := 0; i < len(run); i++ {
		d := strings.IndexByte(base58Digits, run[i])
		if d < 0 {
			return false
		}
		for k := len(b) - 1; k >= 0; k-- {
			d += int(b[k]) * 58
			b[k], d = byte(d), d>>8
		}
		for ; d > 0; d >>= 8 {
			b = append([]byte{byte(d)}, b...)
		}
	}
	if len(b) != 82 {
		return false
	}
	first := sha256.Sum256(b[:78])
	check := sha256.Sum256(first[:])
	return string(check[:4]) == string(b[78:])
}

// base58Digits are Bitcoin's base58 alphabet: no 0, O, I or l.
const base58Digits = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// base64Spans are the runs of s that are a key written in standard base64
// (32 or 64 bytes: a seed, a SOLANA keypair): with its padding (44 or 88
// characters ending in '='), or without it (43 or 86) holding a '+' or a
// '/', which no id has: an error would repeat its start. An unpadded run
// starting with '/' is taken for an absolute path, and one of letters and
// digits alone may be an id.
func base64Spans(s string) [][2]int {
	var spans [][2]int
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && (isPieceByte(s[j]) || s[j] == '+' || s[j] == '/' || s[j] == '=') {
			j++
		}
		run, enc := s[i:j], base64.StdEncoding
		if !strings.HasSuffix(run, "=") {
			enc = base64.RawStdEncoding
		}
		if enc == base64.StdEncoding || strings.ContainsAny(run, "+/") && run[0] != '/' {
			if b, err := enc.DecodeString(run); err == nil && (len(b) == 32 || len(b) == 64) {
				spans = append(spans, [2]int{i, j})
			}
		}
		i = j + 1
	}
	return spans
}

// HoldsWalletSecretShape reports whether s holds a wallet secret's shape
// other than hex anywhere (WalletSecretSpans).
func HoldsWalletSecretShape(s string) bool { return len(WalletSecretSpans(s)) > 0 }

// bracketed is [start, end) widened to the brackets around it, across
// whitespace, when there are: a list on lines of its own is all the key.
func bracketed(s string, start, end int) [2]int {
	i := strings.LastIndexFunc(s[:start], func(r rune) bool { return !unicode.IsSpace(r) })
	if i >= 0 && s[i] == '[' {
		start = i
	}
	if j := strings.IndexFunc(s[end:], func(r rune) bool { return !unicode.IsSpace(r) }); j >= 0 && s[end+j] == ']' {
		end += j + 1
	}
	return [2]int{start, end}
}

// pieceLen is how long the piece s starts with is: ASCII letters and
// digits, and letters of the Latin script (Spain's and France's word lists
// hold ábaco and académie: parted at their accents, a Spanish phrase's
// other words were sent as ids).
func pieceLen(s string) int {
	n := 0
	for n < len(s) {
		if isPieceByte(s[n]) {
			n++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[n:])
		if s[n] < utf8.RuneSelf || !unicode.Is(unicode.Latin, r) && !(n > 0 && isCombiningMark(r)) {
			break
		}
		n += size
	}
	return n
}

func isPieceByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// isWord: 3 to maxListWord letters (a piece: ASCII or Latin, its accents
// apart), the shape of a recovery phrase's word (BIP-39's lists in the
// Latin script have no shorter nor longer one).
func isWord(p string) bool {
	if strings.ContainsAny(p, "0123456789") {
		return false
	}
	n := letters(p)
	return n >= 3 && n <= maxListWord
}

// letters is how many letters the piece p has, its accents apart.
func letters(p string) int {
	n := 0
	for _, r := range p {
		if !isCombiningMark(r) {
			n++
		}
	}
	return n
}

// maxShortWord is the most letters of a word of a phrase on no list
// (shortWordRuns): BIP-39's English list and SLIP-39's have no longer one,
// and prose's longer words (overnight) part its runs, so a builder's key
// label of twenty words can be typed.
const maxShortWord = 8

// shortWordRuns are the runs of minPhraseWords or more words of run, in a
// row, of at most maxShortWord letters.
func shortWordRuns(s string, run [][2]int) [][2]int {
	var spans [][2]int
	first := 0 // the first word of the run of short ones
	for i := 0; i <= len(run); i++ {
		if i < len(run) && letters(s[run[i][0]:run[i][1]]) <= maxShortWord {
			continue
		}
		if i-first >= minPhraseWords {
			spans = append(spans, [2]int{run[first][0], run[i-1][1]})
		}
		first = i + 1
	}
	return spans
}

// maxOffList is how many of minPhraseWords words in a row may be on no
// list: a phrase written with a typo still gives the wallet (the other
// words and the checksum find it), while prose has more off the lists
// (the, and, your, from: none is on one).
const maxOffList = 1

// phraseSpans are where the run of words (pieces of a word's shape, in a
// row) is a recovery phrase: minPhraseWords of them in a row all on one
// language's list but at most maxOffList, windows that overlap as one
// span. Every run of twelve such words was taken for one, so a signing
// program's "Please unlock your Ledger device and open the Ethereum app
// then retry from your laptop" was cut to "…".
func phraseSpans(s string, run [][2]int) [][2]int {
	if len(run) < minPhraseWords {
		return nil
	}
	var longest [24]uint8 // the lists of a phrase's words, on the stack
	lists := longest[:0]
	for _, w := range run {
		lists = append(lists, listsOf(s[w[0]:w[1]]))
	}
	var spans [][2]int
	var on [8]int // of the window's words, how many are on each list
	for i := range run {
		for l := range on {
			on[l] += int(lists[i] >> l & 1)
			if i >= minPhraseWords {
				on[l] -= int(lists[i-minPhraseWords] >> l & 1)
			}
		}
		if i < minPhraseWords-1 || !aPhrase(s, run[i+1-minPhraseWords:i+1], lists[i+1-minPhraseWords:i+1], &on) {
			continue
		}
		first := run[i+1-minPhraseWords][0]
		if n := len(spans); n > 0 && first <= spans[n-1][1] {
			spans[n-1][1] = run[i][1] // overlapping the one before: the same phrase
			continue
		}
		spans = append(spans, [2]int{first, run[i][1]})
	}
	return spans
}

// A recovery sheet and a wallet's backup screen number the words (1. legal
// 2. winner, 01) legal, (1) legal, #1 legal), and a phrase kept in code
// quotes them (["legal", "winner"]): a number up to 24 before each word,
// the mark after it (ordinalEnds) and the quotes and marks before one
// (phraseQuotes) part the words of one phrase, as a space does. Without
// them each line of a numbered phrase was an id ("01.legal") or two. Any
// order of numbers, which two columns read across give; but a number
// before each word and none else, or prose with a few numbers ("sent 5
// USDT from 3 wallets") and ids (test-quote-1) were a phrase.
const (
	maxOrdinal   = 24 // the words of the longest phrase
	ordinalEnds  = ".):-"
	phraseQuotes = "\"'(#"
	// wordJoins join a phrase's words into one (legal-winner-…), a token
	// that was sent whole as an id: one of them between two words.
	wordJoins = "-_."
)

// isOrdinal: a number from 1 to maxOrdinal, of at most two digits (01).
func isOrdinal(p string) bool {
	if len(p) > 2 || p[0] < '0' || p[0] > '9' || len(p) == 2 && (p[1] < '0' || p[1] > '9') {
		return false
	}
	n := int(p[0] - '0')
	if len(p) == 2 {
		n = n*10 + int(p[1]-'0')
	}
	return n >= 1 && n <= maxOrdinal
}

// isByte: a number from 0 to 255, written without leading zeros.
func isByte(p string) bool {
	if len(p) > 3 || len(p) > 1 && p[0] == '0' {
		return false
	}
	n := 0
	for i := 0; i < len(p); i++ {
		if p[i] < '0' || p[i] > '9' {
			return false
		}
		n = n*10 + int(p[i]-'0')
	}
	return n <= 255
}

// Secret is the kind of wallet secret whose shape text holds.
type Secret int

const (
	NoSecret  Secret = iota
	KeySecret        // a private key's 64 hex digits (KeySpans)
	// PhraseSecret is a recovery phrase, a key written as bytes or in
	// base64, or an extended private key (WalletSecretSpans).
	PhraseSecret
)

// SecretIn is the one check of "holds a key or a recovery phrase": the
// kind of secret whose shape s holds anywhere, a key's first. Each caller
// decides what it does with one; a caller that expects a payout hash (0x
// and 64 hex digits) masks it before asking.
func SecretIn(s string) Secret {
	switch {
	case HoldsKeyShape(s):
		return KeySecret
	case HoldsWalletSecretShape(s):
		return PhraseSecret
	}
	return NoSecret
}

// TypedSecret is SecretIn of text typed or given where no secret goes, an
// API key's place too, but a key in base64: the spec gives an API key no
// shape, and one may well be 32 random bytes in base64, where none is a
// recovery phrase, a key's byte list or an extended private key, which
// were sent to log in.
func TypedSecret(s string) Secret {
	switch {
	case HoldsKeyShape(s):
		return KeySecret
	case len(phraseAndByteSpans(s, false)) > 0 || len(extendedKeySpans(s)) > 0:
		return PhraseSecret
	}
	return NoSecret
}

// secretsOut is s with each wallet secret it holds (shownSecretSpans) put
// as "…", the rest as it is: Quoted's, for text typed or given and for a
// child's output an error repeats, which may echo what it was given (a
// wrapper's `set -x` trace of `--mnemonic "…"`).
func secretsOut(s string) string {
	spans := shownSecretSpans(s)
	if len(spans) == 0 {
		return s
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	var out strings.Builder
	at := 0 // where the text after the last cut begins
	for _, k := range spans {
		if k[0] < at { // within the cut before: one "…" for both
			at = max(at, k[1])
			continue
		}
		out.WriteString(s[at:k[0]] + "…")
		at = k[1]
	}
	out.WriteString(s[at:])
	return out.String()
}
