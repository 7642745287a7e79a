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

// slip39List is SLIP-39's word list (a Trezor's Shamir backup: shares of
// 20 or 33 words), as its reference implementation
// (trezor/python-shamir-mnemonic, MIT: LICENSES/SLIP39-WORDLIST.txt)
// publishes it: the list after bip39Lists (bit len(bip39Lists)). Its
// words' first letters are not taken for them: 1024 common English words,
// their first four would match prose's longer ones.
const slip39List = "slip39/wordlist.txt"

//go:embed bip39/*.txt slip39/wordlist.txt
var wordListFiles embed.FS

// bip39Files are the embedded files of bip39Lists, in their order.
func bip39Files() []string {
	files := make([]string, len(bip39Lists))
	for i, name := range bip39Lists {
		files[i] = "bip39/" + name + ".txt"
	}
	return files
}

// maxListWord is the most letters of a word on the lists (Italian's
// avvolgere): a longer piece is on none.
const maxListWord = 9

// listedWords is loadWordLists, read at the first check, not at start.
var listedWords = sync.OnceValues(loadWordLists)

// shortWord is how many first letters of a word tell it on its list
// (BIP-39 makes every list so): a steel plate keeps a phrase so, and a
// wallet takes it typed so.
const shortWord = 4

// loadWordLists maps each word of the lists, folded (foldWord), and its
// first shortWord letters, to the lists it is on (bit i: bip39Lists[i]),
// and the words alone (whole), which a typo is told from (typoLists).
func loadWordLists() (words, whole map[string]uint8) {
	// The words folded, one after the other in one string that the keys
	// share: one allocation, not one a word.
	var folded []byte
	var ends []int
	var on []uint8
	for i, file := range append(bip39Files(), slip39List) {
		b, err := wordListFiles.ReadFile(file)
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
	whole = make(map[string]uint8, len(ends))
	for k, end := range ends {
		word := all[start:end]
		m[word] |= on[k]
		whole[word] |= on[k]
		if short := firstLetters(word, shortWord); short != word && on[k] != 1<<len(bip39Lists) {
			m[short] |= on[k]
		}
		start = end
	}
	return m, whole
}

// listsOf is the lists word (a piece: letters) is on, as a bit set; 0
// for none.
func listsOf(word string) uint8 {
	var buf [4 * maxListWord]byte
	k, ok := foldWord(buf[:0], word)
	if !ok {
		return 0
	}
	words, _ := listedWords()
	return words[string(k)]
}

// minTypoLetters is the fewest letters of a word taken for a typo of a
// listed one (typoLists): one letter from a word of three is most prose.
const minTypoLetters = 4

// typoLists is the lists holding a word one typo from word (a piece): a
// letter wrong, missing or extra, or two swapped; 0 for none, and for a
// word shorter than minTypoLetters or of letters other than a to z once
// folded. A typo after a word's first shortWord letters is its first
// letters' already (listsOf).
func typoLists(word string) uint8 {
	var buf, c [4*maxListWord + 1]byte
	k, ok := foldWord(buf[:0], word)
	if !ok || len(k) < minTypoLetters || strings.ContainsFunc(string(k), func(r rune) bool { return r < 'a' || r > 'z' }) {
		return 0
	}
	_, whole := listedWords()
	var on uint8
	for i := range k {
		on |= whole[string(append(append(c[:0], k[:i]...), k[i+1:]...))] // missing
		if i+1 < len(k) {
			t := append(c[:0], k...)
			t[i], t[i+1] = t[i+1], t[i]
			on |= whole[string(t)] // swapped
		}
		for x := byte('a'); x <= 'z'; x++ {
			t := append(c[:0], k...)
			t[i] = x
			on |= whole[string(t)] // a letter wrong, then one extra
			on |= whole[string(append(append(append(c[:0], k[:i]...), x), k[i:]...))]
		}
	}
	return on
}

// aPhrase reports whether a window of minPhraseWords words (s's runs, and
// the lists each is on) is of one list: all its words but maxOffList, or
// but two that are both a typo of one of its words (typoLists). A phrase
// written with two typos gives the wallet as one with one does.
func aPhrase(s string, window [][2]int, lists []uint8, on *[8]int) bool {
	for l, n := range on {
		if n >= minPhraseWords-maxOffList {
			return true
		}
		if n != minPhraseWords-maxOffList-1 {
			continue
		}
		typos := 0
		for k, w := range window {
			if lists[k]>>l&1 == 0 && typoLists(s[w[0]:w[1]])>>l&1 != 0 {
				typos++
			}
		}
		if typos == 2 {
			return true
		}
	}
	return false
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
		case r >= 0x100 && r <= 0x17f:
			r = latinExtAFolded[r-0x100]
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

// latinExtAFolded is each letter from U+0100 to U+017F (Latin
// Extended-A: Czech's č, ř, š, ž, ě, ů) in lower case without its accent:
// a Czech phrase written with its háčeks is the list's, which has none.
var latinExtAFolded = []rune("aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiiiĳĳjjkkkllllllllllnnnnnnnnnooooooœœrrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs")

// isCombiningMark: a combining diacritical mark (U+0300–U+036F), an
// accent written after its letter (NFKD).
func isCombiningMark(r rune) bool { return r >= 0x300 && r <= 0x36f }
