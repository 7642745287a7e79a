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
)

// TestParseFindsExplorerLinks: a customer pastes the explorer's link to
// the payout, not its hash. A link whose path (or fragment) ends with a
// payout hash is looked up as that hash, in the board's field and status -
// alike; it was refused as a private key's shape, with advice to put 0x in
// front of a hash that had it. A link with a user or password, one whose
// hash stands elsewhere in it, one that ends with 64 bare hex digits (a
// TRON explorer's) or a SOLANA key, and a key anywhere else in a link stay
// refused, never looked up.
func TestParseFindsExplorerLinks(t *testing.T) {
	hash := "0x" + strings.Repeat("5f0c9e1b", 8)
	key := strings.Repeat("ab", 32)
	sig := base58.Encode(bytes.Repeat([]byte{0xfe}, 64))
	solanaKey := base58.Encode(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32)))
	for _, split := range []bool{true, false} {
		text := strings.Join([]string{
			"https://arbiscan.io/tx/" + hash,
			"HTTPS://etherscan.io/tx/" + strings.ToUpper(hash) + "/",
			"https://solscan.io/tx/" + sig + "?cluster=devnet",
			"q-1",
		}, "\n")
		ids, lookups, bad := follow.ParseQuoteIDs(text, split)
		if len(bad) != 0 || !slices.Equal(ids, []string{"q-1"}) || len(lookups) != 3 ||
			lookups[0].Text != hash || lookups[1].Text != strings.ToUpper(hash) || lookups[2].Text != sig ||
			slices.ContainsFunc(lookups, func(l follow.Lookup) bool { return l.Kind != follow.PayoutHash }) {
			t.Errorf("split %v: ids %q, lookups %+v, malformed %+v", split, ids, lookups, bad)
		}
		for _, refused := range []string{
			"https://user:pw@arbiscan.io/tx/" + hash,
			"https://arbiscan.io/tx/" + hash + "/logs",
			"https://tronscan.org/#/transaction/" + key,
			"https://arbiscan.io/address/0x" + key + "/tx/" + hash,
			"https://solscan.io/tx/" + solanaKey,
			"ftp://arbiscan.io/tx/" + hash,
		} {
			ids, lookups, bad := follow.ParseQuoteIDs(refused, split)
			if len(ids) != 0 || len(lookups) != 0 || len(bad) != 1 {
				t.Errorf("split %v: %.50q: ids %q, lookups %+v, malformed %+v", split, refused, ids, lookups, bad)
			}
		}
		if _, _, bad := follow.ParseQuoteIDs("https://arbiscan.io/address/0x"+key+"/tx/"+hash, split); len(bad) != 1 || !errors.Is(bad[0].Err, exchange.ErrKeyShape) {
			t.Errorf("split %v: a key in a link's path was not refused for its shape: %+v", split, bad)
		}
	}
	if got, _, linked := follow.TokenHash("q-1"); got != "" || linked {
		t.Errorf("TokenHash of a quote id: %q, %v", got, linked)
	}
}

// TestFindNeverAsksALinkedSolanaSignature: a SOLANA signature read from an
// explorer's link, in the board's field and status - alike, is a
// transaction's: not seen here, it is said as not seen (Known.Find), never
// asked as the quote id a bare one may be, which sent part of the link.
func TestFindNeverAsksALinkedSolanaSignature(t *testing.T) {
	linked, bare := base58.Encode(bytes.Repeat([]byte{0xfe}, 64)), base58.Encode(bytes.Repeat([]byte{0xfd}, 64))
	for _, split := range []bool{true, false} {
		_, lookups, bad := follow.ParseQuoteIDs("https://solscan.io/tx/"+linked+"?cluster=devnet\n"+bare, split)
		if len(bad) != 0 || len(lookups) != 2 || !lookups[0].Linked || lookups[1].Linked {
			t.Fatalf("split %v: lookups %+v, malformed %+v", split, lookups, bad)
		}
		var nf *follow.NotSeenError
		if got, _, err := foundBy(follow.Known{}, lookups[0], noSecret); got != "" || !errors.As(err, &nf) {
			t.Errorf("split %v: a linked signature not seen: %q, %v", split, got, err)
		}
		if got, found, err := foundBy(follow.Known{}, lookups[1], noSecret); got != bare || found || err != nil {
			t.Errorf("split %v: a bare signature not seen: %q, %v, %v", split, got, found, err)
		}
	}
}

// TestRefusedLinkAdvisesTheHashAlone: a link refused for a private key's
// shape (a user or password in it, its hash not at its path's end) is
// advised to be given as its hash alone, in status - and plain mode's
// look-up; 64 bare hex digits are still advised to take 0x, also as a TRON
// explorer's link ends with them (its hash alone was advised, itself
// refused). The advice was to put 0x in front of a hash that had it.
func TestRefusedLinkAdvisesTheHashAlone(t *testing.T) {
	hash := "0x" + strings.Repeat("5f0c9e1b", 8)
	for text, advice := range map[string]string{
		"https://user:pw@arbiscan.io/tx/" + hash:   follow.LinkAdvice,
		"https://arbiscan.io/tx/" + hash + "/logs": follow.LinkAdvice,
		strings.Repeat("5f0c9e1b", 8):              follow.TronHashAdvice,
		// A TRON explorer's link ends with the hash bare: the hash alone
		// is refused too, so the advice is the 0x that finds it.
		"https://tronscan.org/#/transaction/" + hash[2:]:         follow.TronLinkAdvice,
		"https://tronscan.org/#/transaction/" + hash[2:] + "/":   follow.TronLinkAdvice,
		"https://user:pw@tronscan.org/#/transaction/" + hash[2:]: follow.LinkAdvice,
	} {
		_, _, bad := follow.ParseQuoteIDs(text, true)
		if len(bad) != 1 {
			t.Fatalf("%.40q: malformed %+v", text, bad)
		}
		if why := follow.CredentialRefusal(bad[0]); why == nil || !strings.HasSuffix(why.Error(), advice) {
			t.Errorf("%.40q: %v, want %q", text, why, advice)
		}
	}
}
