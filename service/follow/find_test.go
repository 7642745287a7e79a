package follow_test

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mr-tron/base58"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
)

// TestParseFindsHashesAndTransferIDs (issue 35 items 3 and 4): a payout
// hash (0x and 64 hex digits) standing alone and a transfer id (tx-…) are
// read apart, to be found here, never as quote ids; the ids beside them
// are kept; a key's shape that is not a hash standing alone (64 hex
// digits bare, or split) still spoils its line only.
func TestParseFindsHashesAndTransferIDs(t *testing.T) {
	hash := "0x" + strings.Repeat("5f0c9e1b", 8)
	key := strings.Repeat("ab", 32)
	for _, split := range []bool{true, false} {
		text := "q-1\n" + hash + "\ntx-abc123\n" + key + "\nq-2"
		if split {
			text = "q-1, " + hash + " tx-abc123\n" + key + " q-3\nq-2"
		}
		ids, lookups, bad := follow.ParseQuoteIDs(text, split)
		if !slices.Equal(ids, []string{"q-1", "q-2"}) {
			t.Errorf("split %v: ids %q", split, ids)
		}
		if len(lookups) != 2 || lookups[0].Text != hash || lookups[0].Kind != follow.PayoutHash ||
			lookups[1].Text != "tx-abc123" || lookups[1].Kind != follow.TransferID {
			t.Errorf("split %v: lookups %+v", split, lookups)
		}
		if len(bad) != 1 || !errors.Is(bad[0].Err, exchange.ErrKeyShape) {
			t.Errorf("split %v: malformed %+v, want the key's line alone", split, bad)
		}
	}
	if got := follow.MaskHashes("a " + hash + ",b"); got != "a "+strings.Repeat(" ", 66)+",b" {
		t.Errorf("MaskHashes: %q", got)
	}
	if got := follow.MaskHashes("x" + hash); got != "x"+hash {
		t.Errorf("a hash inside a word was masked: %q", got)
	}
}

// TestKnownResolves (issue 35 items 3 and 4): a payout hash or transfer id
// this machine has seen, from the journal or an answer, in any case,
// resolves to its quote id; one it has not is a NotSeenError, never a
// quote id to ask; a quote id is itself.
func TestKnownResolves(t *testing.T) {
	hash := "0x" + strings.Repeat("5f0c9e1b", 8)
	k := follow.Known{}
	k.AddRecord(journal.Record{QuoteID: "q-own", TxHash: hash, TxID: "tx-own"})
	k.AddWithdrawal(exchange.Withdrawal{QuoteID: "q-seen", TxID: "tx-seen"})
	for id, want := range map[string]string{hash: "q-own", "0X" + strings.ToUpper(hash[2:]): "q-own", "tx-own": "q-own", "TX-SEEN": "q-seen", "q-7": "q-7"} {
		if got, _, err := resolved(k, id, noSecret); err != nil || got != want {
			t.Errorf("%s resolved to %q, %v; want %s", id, got, err, want)
		}
	}
	// 0x and 64 characters that are not all hex digits is a quote id, not a hash.
	for _, id := range []string{"0x" + strings.Repeat("ag", 32), "0x" + strings.Repeat("\x15", 64), "0x" + strings.Repeat("ab", 31) + "a"} {
		if k := follow.KindOf(id); k != follow.QuoteID {
			t.Errorf("%q is of kind %v, want a quote id", id, k)
		}
	}
	for _, id := range []string{"0x" + strings.Repeat("ab", 32), "tx-unseen"} {
		var nf *follow.NotSeenError
		if got, _, err := resolved(k, id, noSecret); got != "" || !errors.As(err, &nf) {
			t.Errorf("%s not seen resolved to %q, %v", id, got, err)
		}
	}
}

// TestInPlace: each lookup's withdrawal stands where it was given among
// the quote ids, once; a quote id given too keeps its own place; one left
// out ("") leaves nothing; an error stops.
func TestInPlace(t *testing.T) {
	to := map[string][]string{"tx-b": {"q-b"}, "tx-c": {"q-c"}, "0xc": {"q-c", "q-d"}, "tx-unseen": nil}
	resolve := func(l follow.Lookup) ([]string, error) { return to[l.Text], nil }
	ids := []string{"q-a", "q-b"}
	got, err := follow.InPlace(ids, []follow.Lookup{{Text: "tx-b", At: 0}, {Text: "tx-c", At: 1}, {Text: "0xc", At: 2}, {Text: "tx-unseen", At: 2}}, resolve)
	if want := []string{"q-a", "q-c", "q-b", "q-d"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
	if !slices.Equal(ids, []string{"q-a", "q-b"}) {
		t.Errorf("the ids given were changed: %v", ids)
	}
	stop := errors.New("not seen")
	if got, err := follow.InPlace(ids, []follow.Lookup{{Text: "tx-x", At: 1}}, func(follow.Lookup) ([]string, error) { return nil, stop }); !errors.Is(err, stop) || got != nil {
		t.Errorf("an error: %v, %v", got, err)
	}
}

// TestKnownFindsEveryChainsPayout: a customer quotes the payout hash their
// chain's explorer shows. A TRON one (64 hex digits, no 0x: a private
// key's shape, never taken bare) is found written with 0x; a SOLANA one
// (base58 of a 64-byte signature) is a payout hash found here first, and
// one not seen here is asked of the service as a quote id: SPEC.md gives
// a quote id no shape, so a quote id of that shape is not lost.
func TestKnownFindsEveryChainsPayout(t *testing.T) {
	tron := strings.Repeat("18ddc669", 8)
	sig := make([]byte, 64)
	for i := range sig {
		sig[i] = byte(i*7 + 1)
	}
	solana := base58.Encode(sig)
	k := follow.Known{}
	k.AddRecord(journal.Record{QuoteID: "q-tron", TxHash: tron})
	k.AddWithdrawal(exchange.Withdrawal{QuoteID: "q-sol", WithdrawTxHash: solana})
	for id, want := range map[string]string{"0x" + tron: "q-tron", "0X" + strings.ToUpper(tron): "q-tron", solana: "q-sol"} {
		if got, found, err := resolved(k, id, noSecret); err != nil || !found || got != want {
			t.Errorf("%.12s… resolved to %q, %v, %v; want %s", id, got, found, err, want)
		}
	}
	if _, lookups, bad := follow.ParseQuoteIDs(solana, false); len(lookups) != 1 || lookups[0].Kind != follow.PayoutHash || len(bad) != 0 {
		t.Errorf("a SOLANA payout hash is read as %+v, %+v; want a payout hash to find", lookups, bad)
	}
	sig[0]++
	if got, found, err := resolved(k, base58.Encode(sig), noSecret); got != base58.Encode(sig) || found || err != nil {
		t.Errorf("a SOLANA payout hash's shape not seen resolved to %q, %v, %v; want it asked as a quote id", got, found, err)
	}
}

// TestPayoutHashShapes: a TRON payout's hash the service wrote in capitals
// is found written with 0x in lower case; base58 of 64 bytes is a SOLANA
// payout's hash only as a signature is written (86 to 88 characters), so
// a run of 1s (zero bytes, shorter) or base58 of another length is an id.
func TestPayoutHashShapes(t *testing.T) {
	tron := strings.Repeat("18DDC669", 8)
	k := follow.Known{}
	k.AddRecord(journal.Record{QuoteID: "q-tron", TxHash: tron})
	if got, found, err := resolved(k, "0x"+strings.ToLower(tron), noSecret); !found || got != "q-tron" || err != nil {
		t.Errorf("a TRON hash kept in capitals resolved to %q, %v, %v", got, found, err)
	}
	for name, id := range map[string]string{
		"64 zero bytes, written short":     strings.Repeat("1", 64),
		"base58 of 63 bytes":               base58.Encode(bytes.Repeat([]byte{0xfe}, 63)),
		"base58 of 65 bytes":               base58.Encode(bytes.Repeat([]byte{0xfe}, 65)),
		"a signature's length, not base58": strings.Repeat("0", 88),
	} {
		if kind := follow.KindOf(id); kind == follow.PayoutHash {
			t.Errorf("%s (%d characters) is taken for a payout hash", name, len(id))
		}
	}
}

// TestNotFoundSolanaShapeSaysBothFacts: an id of a SOLANA payout hash's
// shape the service does not know (Resolve asks it as a quote id) is said
// with both facts, in the sentence that names it and in the outcome's
// words: no withdrawal with that quote id, and none seen here with that
// payout hash, and how to get the quote id. A quote id of another shape
// is said as before.
func TestNotFoundSolanaShapeSaysBothFacts(t *testing.T) {
	sig := make([]byte, 64)
	for i := range sig {
		sig[i] = byte(i*7 + 1)
	}
	solana := base58.Encode(sig)
	for _, said := range []string{follow.NotFoundSentence(solana), (&follow.Follow{QuoteID: solana, NotFound: true}).Outcome().Sentence()} {
		for _, want := range []string{"o withdrawal with", "SOLANA payout hash", "no withdrawal this machine has seen", "ask for the quote id"} {
			if !strings.Contains(said, want) {
				t.Errorf("an unknown id of a SOLANA payout hash's shape lacks %q: %s", want, said)
			}
		}
	}
	for _, said := range []string{follow.NotFoundSentence("q-1"), (&follow.Follow{QuoteID: "q-1", NotFound: true}).Outcome().Sentence()} {
		if strings.Contains(said, "SOLANA") {
			t.Errorf("an unknown q- id is said as a payout hash: %s", said)
		}
	}
}

// TestSolanaKeyIsNeverAskedAsQuoteID: a SOLANA private key as wallets
// export it (base58 of a seed and its public key) has a payout hash's
// shape; unlike a payout hash not seen here it is not asked of the
// service as a quote id, but refused as one not seen, never repeated.
func TestSolanaKeyIsNeverAskedAsQuoteID(t *testing.T) {
	key := base58.Encode(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{0x5a}, ed25519.SeedSize)))
	got, found, err := resolved(follow.Known{}, key, noSecret)
	var nf *follow.NotSeenError
	if !errors.As(err, &nf) || got != "" || found {
		t.Fatalf("a SOLANA private key resolved to %q, %v, %v; want it not seen, never asked", got, found, err)
	}
	if strings.Contains(err.Error(), key) {
		t.Error("the key is repeated")
	}
}

// TestRefuseOwnSecret: ids one of which is, or a lookup's text holds, the
// session's credential are refused in the one wording every face places,
// which wraps exchange.ErrOwnSecret; other ids are not.
func TestRefuseOwnSecret(t *testing.T) {
	own := func(s string) bool { return strings.Contains(s, "KEY") }
	for _, c := range []struct {
		ids     []string
		lookups []follow.Lookup
		refused bool
	}{
		{[]string{"q-1", "KEY"}, nil, true},
		{[]string{"q-1"}, []follow.Lookup{{Kind: follow.TransferID, Text: "tx-KEY"}}, true},
		{[]string{"q-1"}, []follow.Lookup{{Kind: follow.TransferID, Text: "tx-1"}}, false},
	} {
		err := follow.RefuseOwnSecret(c.ids, c.lookups, own)
		if got := err != nil; got != c.refused || (err != nil && (err != follow.ErrOwnSecretGiven || !errors.Is(err, exchange.ErrOwnSecret))) {
			t.Errorf("%q %v: %v; want refused %v in the one wording", c.ids, c.lookups, err, c.refused)
		}
	}
}

// noSecret is a session holding no credential any id names.
func noSecret(string) bool { return false }

// resolved is k.Resolve(id, own) with its quote ids in one string, for
// the tests of one withdrawal an id.
func resolved(k follow.Known, id string, own func(string) bool) (string, bool, error) {
	f, err := k.Resolve(id, own)
	return strings.Join(f.QuoteIDs, " "), f.Seen, err
}

// foundBy is resolved of k.Find.
func foundBy(k follow.Known, l follow.Lookup, own func(string) bool) (string, bool, error) {
	f, err := k.Find(l, own)
	return strings.Join(f.QuoteIDs, " "), f.Seen, err
}

// TestResolveNeverGivesOwnSecret: a transfer id or payout hash that what
// this machine has seen (a planted journal or board file) pairs with the
// session's credential is not seen, for every face at once: `status` said
// "transfer id tx-… is withdrawal <the API key>".
func TestResolveNeverGivesOwnSecret(t *testing.T) {
	const key = "AKlive0123456789abcdef"
	hash := "0x" + strings.Repeat("ab", 32)
	k := follow.Known{}
	k.AddWithdrawal(exchange.Withdrawal{QuoteID: key + "1", TxID: "tx-planted1", WithdrawTxHash: hash})
	own := func(s string) bool { return strings.Contains(s, key) }
	for _, id := range []string{"tx-planted1", hash} {
		got, found, err := resolved(k, id, own)
		var nf *follow.NotSeenError
		if !errors.As(err, &nf) || found || got != "" || strings.Contains(err.Error(), key) {
			t.Errorf("%.12s… paired with the credential: %q, found %t, %v; want it not seen", id, strings.ReplaceAll(got, key, "<the key>"), found, err)
		}
	}
	if got, found, err := resolved(k, "tx-planted1", noSecret); got != key+"1" || !found || err != nil {
		t.Fatalf("without the credential: %q, %t, %v; want the quote id found", got, found, err)
	}
}
