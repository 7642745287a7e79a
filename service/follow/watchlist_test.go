package follow_test

import (
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
)

// TestParseQuoteIDsSplitKey (issue 25 item 4): a key wrapped over two
// lines is refused as the whole key is: every line it touches is malformed
// with exchange.ErrKeyShape, and none of its halves is an id; the lines
// around it are read. So is a key on one line, a single token to a quote
// id's shape (letters, digits, ':' and '-'): in groups joined by colons or
// hyphens, or printed as a number without its leading zeros (0x and 62 or
// 63 digits), or in halves each in double quotes, which are read without
// them (a CSV export's fields). Ids of 32 hex digits apart are ids.
func TestParseQuoteIDsSplitKey(t *testing.T) {
	key := strings.Repeat("5e", 16) + strings.Repeat("a7", 16)
	for _, split := range []bool{false, true} {
		ids, _, bad := follow.ParseQuoteIDs("q-1\n0x"+key[:32]+"\r\n"+key[32:]+"  # mine\nq-2", split)
		if !slices.Equal(ids, []string{"q-1", "q-2"}) || len(bad) != 2 || bad[0].Line != 2 || bad[1].Line != 3 {
			t.Fatalf("split %v: ids %q, %d malformed", split, ids, len(bad))
		}
		for _, m := range bad {
			if !errors.Is(m.Err, exchange.ErrKeyShape) {
				t.Errorf("split %v: line %d refused for %v, not the key's shape", split, m.Line, m.Err)
			}
		}
	}
	var groups []string
	for i := 0; i < len(key); i += 8 {
		groups = append(groups, key[i:i+8])
	}
	for _, line := range []string{key[:32] + " " + key[32:], key[:32] + "," + key[32:], key[:32] + "-" + key[32:], key[:32] + "." + key[32:],
		key[:32] + ":" + key[32:], strings.Join(groups, ":"), strings.Join(groups, "-"), "0x" + key[2:], "0x" + key[1:],
		`"` + key[:32] + `","` + key[32:] + `"`, `"` + key[:32] + `" "` + key[32:] + `"`} {
		ids, _, bad := follow.ParseQuoteIDs(line, true)
		if len(ids) != 0 || len(bad) != 1 || !errors.Is(bad[0].Err, exchange.ErrKeyShape) {
			t.Errorf("a key on one line, %d characters: ids %q, %d malformed", len(line), ids, len(bad))
		}
	}
	ids, _, bad := follow.ParseQuoteIDs(key[:32]+"\nq-1\n"+key[32:], false)
	if len(ids) != 3 || len(bad) != 0 {
		t.Errorf("ids of 32 hex digits apart: ids %q, %d malformed", ids, len(bad))
	}
}

// TestCheckTypedID (issue 28 item 2): the board's field takes pieces of a
// generated id's shape, never the words of a line or a passphrase.
func TestCheckTypedID(t *testing.T) {
	for _, id := range []string{"q-7mzq4d2kxw5v3c6hbf2ytjnr1e", "q-mqekavustnsyqkfkgvnwfmhrrf", "5f0c9e1b-7a3d-4c2e-8f6a-1b0c9d8e7f6a",
		"1234567890123456789", "tx-00000001", "q-gone-404"} {
		if err := follow.CheckTypedID(id); err != nil {
			t.Errorf("%s refused: %v", id, err)
		}
	}
	for _, w := range []string{"correct", "horse", "battery", "staple", "correct-horse-battery-staple", "--rate-limit", "apt-get", "q-sending",
		"hunter2", "sandbox", "q1"} {
		if err := follow.CheckTypedID(w); !errors.Is(err, follow.ErrTypedWord) {
			t.Errorf("%s taken for a quote id", w)
		}
	}
}

// TestParseQuoteIDsWalletSecret: a recovery phrase or a SOLANA keypair
// file (its bytes as a JSON list) given where quote ids are read (plain
// mode's look-up and `status -` read them so) is refused whole, never
// repeated (it is an ErrKeyShape to the faces): split at spaces or commas,
// each word or number would be sent as a quote id, and a line refused
// was said with its first 40 characters.
func TestParseQuoteIDsWalletSecret(t *testing.T) {
	// BIP-32's first test vector's master key: an extended private key is
	// letters and digits, and was sent as a quote id.
	const bip32Vector1 = "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi"
	phrase := "legal winner thank year wave sausage worth useful legal winner thank yellow"
	var keypair []string
	for i := range 64 {
		keypair = append(keypair, strconv.Itoa((i*37+11)%256))
	}
	idJSON := "[" + strings.Join(keypair, ",") + "]"
	var numbered []string // as a recovery sheet writes it, one a line
	for i, w := range strings.Fields(phrase) {
		numbered = append(numbered, fmt.Sprintf("%02d.%s", i+1, w))
	}
	for _, text := range []string{phrase, strings.ReplaceAll(phrase, " ", "\n"), idJSON, "[" + strings.Join(keypair, ",\n  ") + "]",
		strings.Join(numbered, "\n"), strings.ReplaceAll(strings.Join(numbered, " "), ".", ". "), bip32Vector1,
		strings.ReplaceAll(phrase, " ", "-"), "abdomen abeja abierto abogado abono aborto abrazo abrir abuelo abuso acabar ábaco"} {
		for _, split := range []bool{false, true} {
			ids, lookups, bad := follow.ParseQuoteIDs("q-1\n"+text+"\nq-2", split)
			if !slices.Equal(ids, []string{"q-1", "q-2"}) || len(lookups) != 0 || len(bad) != strings.Count(text, "\n")+1 {
				t.Fatalf("split %v, %.30q: ids %q, lookups %v, %d malformed", split, text, ids, lookups, len(bad))
			}
			for _, m := range bad {
				if !errors.Is(m.Err, exchange.ErrSecretShape) || !errors.Is(m.Err, exchange.ErrKeyShape) {
					t.Errorf("split %v, %.30q: line %d refused for %v, not a secret's shape", split, text, m.Line, m.Err)
				}
			}
		}
	}
	if err := exchange.CheckQuoteID(idJSON); !errors.Is(err, exchange.ErrSecretShape) {
		t.Errorf("a keypair file's line as one quote id: %v, want it refused as a secret's shape", err)
	}
	// Ids of words and a number are no numbered phrase: a number before
	// each word and none else is one. Each number read as a word's, eight
	// such ids were refused together as a recovery phrase.
	var named []string
	for i := 1; i <= 8; i++ {
		named = append(named, fmt.Sprintf("test-quote-%d", i))
	}
	if ids, _, bad := follow.ParseQuoteIDs(strings.Join(named, "\n"), true); !slices.Equal(ids, named) || len(bad) != 0 {
		t.Errorf("ids of words and a number: %d read, %d refused (%v)", len(ids), len(bad), bad)
	}
}

// TestCheckGivenQuoteID: a quote id given as an argument is held to
// exchange.CheckQuoteID, its refusal repeating it escaped (NotQuoteID),
// the check's error kept; one that passes is no error.
func TestCheckGivenQuoteID(t *testing.T) {
	if err := follow.CheckGivenQuoteID("q-123"); err != nil {
		t.Fatalf("a quote id refused: %v", err)
	}
	if err := follow.CheckGivenQuoteID("ab\u202ecd"); err == nil || !strings.HasPrefix(err.Error(), `"ab\u202ecd" is not a quote id: `) {
		t.Errorf("a refused id said %v, want it escaped", err)
	}
	if err := follow.CheckGivenQuoteID("q-12…ab"); !errors.Is(err, exchange.ErrShortened) {
		t.Errorf("the check's error is not kept: %v", err)
	}
}

// TestParseQuoteIDsShortHexIDsOneALine: a file of 10,000 ids of 8 hex
// digits, one a line, is read as ids: 8 of them make a key's 64 digits in
// pieces alike, but a key wrapped over lines has 16 or more to a line. The
// same key's groups of 8 four to a line are refused.
func TestParseQuoteIDsShortHexIDsOneALine(t *testing.T) {
	var file strings.Builder
	for n := range 10000 {
		fmt.Fprintf(&file, "%08x\n", 0xa0000000+n*7919)
	}
	if ids, _, bad := follow.ParseQuoteIDs(file.String(), false); len(ids) != 10000 || len(bad) != 0 {
		t.Errorf("a file of 10,000 ids of 8 hex digits: %d read, %d refused", len(ids), len(bad))
	}
	key := strings.Repeat("5e", 16) + strings.Repeat("a7", 16)
	var groups []string
	for i := 0; i < len(key); i += 8 {
		groups = append(groups, key[i:i+8])
	}
	wrapped := strings.Join(groups[:4], " ") + "\n" + strings.Join(groups[4:], " ")
	if ids, _, bad := follow.ParseQuoteIDs(wrapped, true); len(ids) != 0 || len(bad) != 2 || !errors.Is(bad[0].Err, exchange.ErrKeyShape) {
		t.Errorf("a key in groups of 8, four to a line: ids %q, %d refused", ids, len(bad))
	}
}

// TestSecretsOnLinesNextToEachOther: each wallet secret refused is known
// by its own lines (follow.Secrets), so two on lines next to each other
// are said as two: a phrase one word a line then a key in base64, or two
// keys in base64, were one secret on all their lines. A phrase over two
// lines is one. Several are said each ("each has the shape"), not "it".
func TestSecretsOnLinesNextToEachOther(t *testing.T) {
	words := strings.Fields("legal winner thank year wave sausage worth useful legal winner thank yellow")
	raw := make([]byte, 32)
	for i := range raw {
		raw[i] = byte(i*37 + 251)
	}
	b64 := base64.StdEncoding.EncodeToString(raw)
	raw[0]++
	other := base64.StdEncoding.EncodeToString(raw)
	for _, c := range []struct {
		text string
		want []follow.SecretLinesError
		said string // how SecretsSaid's words begin, "" for none
	}{
		{strings.Join(words, "\n") + "\n" + b64 + "\nq-7mzq4d2kxw\n", []follow.SecretLinesError{{First: 1, Last: 12}, {First: 13, Last: 13}},
			"lines 1 to 12 and line 13 are 2 wallet secrets, not quote ids: each has the shape of a wallet's recovery phrase"},
		{b64 + "\n" + other + "\n", []follow.SecretLinesError{{First: 1, Last: 1}, {First: 2, Last: 2}},
			"line 1 and line 2 are 2 wallet secrets, not quote ids: each has the shape of a wallet's recovery phrase"},
		{"q-7mzq4d2kxw\n" + strings.Join(words[:6], " ") + "\n" + strings.Join(words[6:], " ") + "\n", []follow.SecretLinesError{{First: 2, Last: 3}},
			"lines 2 to 3 are one wallet secret, not quote ids: it has the shape of a wallet's recovery phrase"},
		{"q-1\"\n" + b64 + "\n", nil, ""},
	} {
		_, _, bad := follow.ParseQuoteIDs(c.text, false)
		if got := follow.Secrets(bad); !slices.Equal(got, c.want) {
			t.Errorf("%.30q: secrets %+v, want %+v (malformed %+v)", c.text, got, c.want, bad)
		}
		if said, _ := follow.SecretsSaid(bad); !strings.HasPrefix(said, c.said) || (said == "") != (c.said == "") {
			t.Errorf("%.30q: said %q, want %q", c.text, said, c.said)
		}
		for _, m := range bad {
			if m.Line > 1 && !errors.Is(m.Err, exchange.ErrSecretShape) {
				t.Errorf("%.30q: line %d refused for %v, want a secret's shape", c.text, m.Line, m.Err)
			}
		}
	}
}
