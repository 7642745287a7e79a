package safetext

import (
	"embed"
	"strings"
	"sync"
	"unicode/utf8"
)

// bip39Lists are BIP-39's word lists in the Latin script, as its reference
// implementation (trezor/python-mnemonic, MIT: LICENSES/BIP39-WORDLISTS.txt)
// publishes them, in NFKD: a recovery phrase is words of one of them. The
// lists in other scripts are left out: a piece of text is Latin letters.
var bip39Lists = []string{"english", "spanish", "french", "italian", "portuguese", "czech"}

//go:embed bip39/*.txt
var bip39Files embed.FS

// maxListWord is the most letters of a word on the lists (Italian's
// avvolgere): a longer piece is on none.
const maxListWord = 9

// listedWords is loadWordLists, read at the first check, not at start.
var listedWords = sync.OnceValue(loadWordLists)

// shortWord is how many first letters of a word tell it on its list
// (BIP-39 makes every list so): a steel plate keeps a phrase so, and a
// wallet takes it typed so.
const shortWord = 4

// loadWordLists maps each word of the lists, folded (foldWord), and its
// first shortWord letters, to the lists it is on (bit i: bip39Lists[i]).
func loadWordLists() map[string]uint8 {
	// The words folded, one after the other in one string that the keys
	// share: one allocation, not one a word.
	var folded []byte
	var ends []int
	var on []uint8
	for i, name := range bip39Lists {
		b, err := bip39Files.ReadFile("bip39/" + name + ".txt")
		if err != nil {
			panic(err) // embedded: only a broken build misses one
		}
		for w := range strings.FieldsSeq(string(b)) {
			if k, ok := foldWord(folded, w); ok { // every word is (TestWordListsAsPublished)
				folded, ends, on = k, append(ends, len(k)), append(on, 1<<i)
			}
		}
	}
	all, start := string(folded), 0
	m := make(map[string]uint8, 2*len(ends)) // words and their first letters
	for k, end := range ends {
		word := all[start:end]
		m[word] |= on[k]
		if short := firstLetters(word, shortWord); short != word {
			m[short] |= on[k]
		}
		start = end
	}
	return m
}

// listsOf is the lists word (a piece: letters) is on, as a bit set; 0
// for none.
func listsOf(word string) uint8 {
	var buf [4 * maxListWord]byte
	k, ok := foldWord(buf[:0], word)
	if !ok {
		return 0
	}
	return listedWords()[string(k)]
}

// firstLetters is word's first n letters, or word when it has no more.
func firstLetters(word string, n int) string {
	for i := range word {
		if n == 0 {
			return word[:i]
		}
		n--
	}
	return word
}

// foldWord appends word to dst in lower case without its accents (ábaco,
// and its NFKD spelling, as abaco): Spain's and France's lists hold no two
// words apart only by accents, so a phrase typed without them is the same
// phrase, and both spellings are met. Not ok when it has more than
// maxListWord letters.
func foldWord(dst []byte, word string) ([]byte, bool) {
	letters := 0
	for _, r := range word {
		switch {
		case isCombiningMark(r):
			continue
		case r >= 'A' && r <= 'Z':
			r += 'a' - 'A'
		case r >= 0xc0 && r <= 0xff:
			r = latin1Folded[r-0xc0]
		}
		if letters++; letters > maxListWord {
			return dst, false
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst, true
}

// latin1Folded is each letter from U+00C0 to U+00FF in lower case without
// its accent (× and ÷, which are no letters, kept as they are).
var latin1Folded = []rune("aaaaaaaceeeeiiiidnooooo×ouuuuyþsaaaaaaaceeeeiiiidnooooo÷ouuuuyþy")

// isCombiningMark: a combining diacritical mark (U+0300–U+036F), an
// accent written after its letter (NFKD).
func isCombiningMark(r rune) bool { return r >= 0x300 && r <= 0x36f }
