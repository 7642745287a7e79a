package safetext

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// publishedLists are the SHA-256 of each list as BIP-39's reference
// implementation publishes it (English's is the one BIP-39's wallets
// check): a list changed here is no longer the one phrases are made of.
var publishedLists = map[string]string{
	"english":    "2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda",
	"spanish":    "46846a5a0139d1e3cb77293e521c2865f7bcdb82c44e8d0a06a2cd0ecba48c0b",
	"french":     "ebc3959ab7801a1df6bac4fa7d970652f1df76b683cd2f4003c941c63d517e59",
	"italian":    "d392c49fdb700a24cd1fceb237c1f65dcc128f6b34a8aacb58b59384b5c648c2",
	"portuguese": "2685e9c194c82ae67e10ba59d9ea5345a23dc093e92276fc5361f6667d79cd3f",
	"czech":      "7e80e161c3e93d9554c2efb78d4e3cebf8fc727e9c52e03b83b94406bdcc95fc",
}

// TestWordListsAsPublished: each list embedded is the one published, 2048
// words, each read as one piece of a word's shape (an Italian word of 9
// letters, a French one with its accent after the letter) and on its list
// once folded, no two alike without their accents.
func TestWordListsAsPublished(t *testing.T) {
	if len(bip39Lists) != len(publishedLists) {
		t.Fatalf("lists embedded %v, published hashes of %d", bip39Lists, len(publishedLists))
	}
	for i, name := range bip39Lists {
		b, err := wordListFiles.ReadFile(bip39Files()[i])
		if err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != publishedLists[name] {
			t.Errorf("%s.txt is not the list published", name)
		}
		words, folded := strings.Fields(string(b)), map[string]bool{}
		if len(words) != 2048 {
			t.Errorf("%s has %d words", name, len(words))
		}
		for _, w := range words {
			if pieceLen(w) != len(w) || !isWord(w) || listsOf(w)&(1<<i) == 0 {
				t.Errorf("%s's %q is not read as a word of it", name, w)
			}
			k, _ := foldWord(nil, w)
			folded[string(k)] = true
		}
		if len(folded) != len(words) {
			t.Errorf("%s has words alike without their accents", name)
		}
	}
}

// TestPhraseIsWordsOfAList: a recovery phrase shown (an error, a child's
// output) is words of one BIP-39 list, a typo among twelve allowed, typed
// with or without its accents, and cut; prose of as many words of its shape
// is not, so a signing program's error is said whole. Given where no secret
// goes, twelve words of 3 to 8 letters are refused all the same
// (WalletSecretSpans: whatever their list).
func TestPhraseIsWordsOfAList(t *testing.T) {
	const (
		phrase = "legal winner thank year wave sausage worth useful legal winner thank yellow"
		ledger = "Please unlock your Ledger device and open the Ethereum app then retry from your laptop"
	)
	typo := strings.Replace(phrase, "useful", "usefull", 1)
	for _, s := range []string{
		phrase,
		typo,
		strings.Replace(phrase, "wave", "wav", 1),
		"ábaco abdomen abeja abierto abogado abono aborto abrazo abrir abuelo abuso acción",
		"abaco abdomen abeja abierto abogado abono aborto abrazo abrir abuelo abuso accion",             // no accents
		"a\u0301baco abdomen abeja abierto abogado abono aborto abrazo abrir abuelo abuso accio\u0301n", // NFKD
		"acade\u0301mie acajou acarien accabler accepter acclamer abaisser abandon abdiquer abeille abolir aborder",
		"abaco abbaglio abbinato abete abisso abolire abrasivo avvolgere cellulare accenno accusato acetone",
		"abacate abaixo abalar abater abduzir abelha aberto abismo abotoar abranger abreviar abrigar",
		"abdikace abeceda adresa agrese akce aktovka alej alkohol amputace ananas andulka anekdota",
		phrase + "\n" + strings.ToUpper(phrase),
		// Written as a steel plate keeps it: each word's first 4 letters,
		// which BIP-39 makes enough to tell it, a typo among them.
		"lega winn than year wave saus wort usef lega winn than yell",
		"aban abil able abou abov abse abso abst absu abus acce acie",
		"abac abdo abej abie abog abon abor abra abri abue abus acci",
		"lega winn than year wave sausage worth useful lega winn than yell", // some words whole
	} {
		if len(shownSecretSpans(s)) == 0 || !HoldsWalletSecretShape(s) {
			t.Errorf("%.60q is not a secret's shape", s)
		}
	}
	for _, s := range []string{
		ledger,
		"Please connect your hardware wallet then confirm the action shown on its screen and retry",
		"Error: could not find Trezor device; please check that the cable works then reconnect and retry",
		"try again ask again later better not tell you now cannot predict now",
		// Two off the list where one is no typo (of three letters, or
		// of other letters than a list's word).
		strings.Replace(phrase, "thank year", "the yaer", 1),
		strings.Replace(phrase, "thank year", "the and", 1),
		strings.Replace(phrase, "thank year", "thnak qwzx", 1),
		"legal winner thank year wave sausage ábaco abdomen abeja abierto abogado abono", // two lists
		"zorbic quandle flimber snorkit plovers grimbly tassock wendle mirbek falstow crundle vasket",
		"try this then send the rest from your main card when done",
	} {
		if len(shownSecretSpans(s)) > 0 {
			t.Errorf("%.60q is cut as a secret's shape", s)
		}
	}
	if !HoldsWalletSecretShape(ledger) {
		t.Errorf("the Ledger's error given as ids is not refused as twelve short words are")
	}
	if got := Quoted("Error: " + ledger); got != "Error: "+ledger {
		t.Errorf("the Ledger's error is said as %q", got)
	}
	// A phrase of 24 words, one a typo, is one span from its first word to
	// its last, and the prose around it is kept; a word off the lists
	// touching it goes with it (it may be the phrase's typo).
	long := typo + " " + phrase
	for in, want := range map[string]string{
		"sign: " + long + ". Try again": "sign: …. Try again",
		"sign: " + long + " rejected":   "sign: …",
	} {
		if got := Quoted(in); got != want {
			t.Errorf("Quoted said %q, want %q", got, want)
		}
	}
}

// BenchmarkShownSecretSpans is the check every outside string passes:
// an error line (the common case), a page of prose whose runs of words
// are looked up on the lists, and a recovery phrase.
func BenchmarkShownSecretSpans(b *testing.B) {
	listedWords() // built at the first check, measured apart (BenchmarkWordListsLoad)
	for name, s := range map[string]string{
		"error":  "withdrawal q-7f3a2c91 was refused: the quote expired at 14:03:22; ask for a new quote and review it",
		"prose":  strings.Repeat("Please unlock your Ledger device and open the Ethereum app then retry from your laptop. ", 40),
		"phrase": "legal winner thank year wave sausage worth useful legal winner thank yellow",
	} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				shownSecretSpans(s)
			}
		})
	}
}

// BenchmarkWordListsLoad is what the first check pays once: the lists
// read into a map.
func BenchmarkWordListsLoad(b *testing.B) {
	for b.Loop() {
		loadWordLists()
	}
}

// TestGivenPhraseOnNoList: a phrase on no list embedded, given where no
// secret goes (ids, arguments, a field), is refused as twelve words of 3
// to 8 letters are: a Trezor's SLIP-39 share (its own list of 1024 words, of which
// about half are on BIP-39's) and a BIP-39 phrase with two typos were sent
// word by word as quote ids, each said back. Shown, both are cut now too
// (TestShownShareTyposAndHaceks).
func TestGivenPhraseOnNoList(t *testing.T) {
	for _, s := range []string{
		"duckling enlarge academic academic agency result length solution fridge kidney coal piece deal husband erode duke ajar critical decision keyboard",
		"legal winner thnak yaer wave sausage worth useful legal winner thank yellow",
	} {
		if !HoldsWalletSecretShape(s) || TypedSecret(s) != PhraseSecret || SecretIn(s) != PhraseSecret {
			t.Errorf("%.40q given is not refused", s)
		}
	}
}

// slip39Published is the SHA-256 of SLIP-39's word list as its reference
// implementation publishes it (LICENSES/SLIP39-WORDLIST.txt).
const slip39Published = "bcc4555340332d169718aed8bf31dd9d5248cb7da6e5d355140ef4f1e601eec3"

// TestSLIP39ListAsPublished: the SLIP-39 list embedded is the one
// published, 1024 words, each read as a word of it; its first letters are
// no word of it (prose's longer words would match them).
func TestSLIP39ListAsPublished(t *testing.T) {
	b, err := wordListFiles.ReadFile(slip39List)
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != slip39Published {
		t.Errorf("%s is not the list published", slip39List)
	}
	slip39 := uint8(1) << len(bip39Lists)
	words := strings.Fields(string(b))
	if len(words) != 1024 {
		t.Errorf("SLIP-39's list has %d words", len(words))
	}
	for _, w := range words {
		if pieceLen(w) != len(w) || !isWord(w) || listsOf(w)&slip39 == 0 {
			t.Errorf("SLIP-39's %q is not read as a word of it", w)
		}
	}
	if listsOf("acad")&slip39 != 0 || listsOf("kidn")&slip39 != 0 {
		t.Error("SLIP-39's words' first letters are taken for them")
	}
}

// TestShownShareTyposAndHaceks: shown (an error, a child's output), a
// Trezor's SLIP-39 share (its own list), a BIP-39 phrase or a share with
// two typos (a letter wrong, missing, extra or two swapped, in words of 4
// letters or more) and a Czech phrase written with its háčeks (č, ř, š,
// ž, ě, ů: the list has none) are cut; each was said whole. Prose of as
// many words keeps saying itself whole.
func TestShownShareTyposAndHaceks(t *testing.T) {
	const (
		share  = "duckling enlarge academic academic agency result length solution fridge kidney coal piece deal husband erode duke ajar critical decision keyboard"
		phrase = "legal winner thank year wave sausage worth useful legal winner thank yellow"
		czech  = "romaneto zajistit zkratka cibule cval celer zobrazit rekord rokle zavinit stopa zprvu"
	)
	haceks := strings.NewReplacer("r", "ř", "z", "ž", "c", "č", "s", "š", "e", "ě", "u", "ů").Replace(czech)
	for _, s := range []string{
		share,
		typos(share, "length", "lenght", "kidney", "kidny"),
		typos(phrase, "winner", "wnner", "worth", "wroth"),
		typos(phrase, "thank", "thnak", "year", "yaer"),
		typos(phrase, "legal", "legl", "wave", "wavve"),
		haceks,
		strings.ToUpper(haceks),
	} {
		if got := Quoted("signer: " + s + ". Rejected"); got != "signer: …. Rejected" {
			t.Errorf("%.50q is said as %q", s, got)
		}
	}
	for _, s := range []string{
		"Please unlock your Ledger device and open the Ethereum app then retry from your laptop",
		"the device was locked when the request came; unlock it, open the app and try again",
		"could not open the keystore file: check its path and permissions, then run the command again",
	} {
		if got := Quoted("signer: " + s); got != "signer: "+s {
			t.Errorf("prose is said as %q", got)
		}
	}
}

// typos is s with each of words' first (even) replaced once by the next.
func typos(s string, words ...string) string {
	for i := 0; i+1 < len(words); i += 2 {
		s = strings.Replace(s, words[i], words[i+1], 1)
	}
	return s
}
