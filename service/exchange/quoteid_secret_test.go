package exchange_test

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// phraseQuoteID is a quote id of 12 BIP-39 words joined into one token,
// BIP-39's first test vector: status refuses it as a recovery phrase
// (internal/cli's TestStatusRefusesTheQuoteRefusedID asks it of the same).
const phraseQuoteID = "legal-winner-thank-year-wave-sausage-worth-useful-legal-winner-thank-yellow"

// TestQuoteIDHeldToStatusRule: a quote answer's id is refused before
// anything is signed exactly when the id, given to status, would be
// refused as a wallet secret (CheckQuoteID): one of 12 BIP-39 words
// joined, or an extended private key, was quoted, signed and journaled,
// then refused by status and resume. The refusal never repeats the id;
// ids of a few words, a UUID, the sandbox's are quoted and taken by status.
func TestQuoteIDHeldToStatusRule(t *testing.T) {
	for id, refused := range map[string]bool{
		phraseQuoteID: true,
		strings.ReplaceAll(phraseQuoteID, "-", "_"): true,
		strings.ReplaceAll(phraseQuoteID, "-", "."): true,
		"xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi": true,
		"legal-winner-thank-year-wave-sausage-worth-useful-legal-winner-thank":                                            false,
		"brave-otter-42":                       false,
		"9b2f6c1e-4d3a-4f8b-a1c2-7e5d9f0b3a64": false,
		"q-7f3a2c":                             false,
	} {
		w, h := newHostileWorld(t, sandbox.Options{})
		c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
		h.set(onPath(exchange.PathWithdrawalQuote, func(v any) any { v.(map[string]any)["quote_id"] = id; return v }))
		_, err := w.Quote(c, sandbox.DestCompleted, "ARBITRUM", "10")
		statusErr := exchange.CheckQuoteID(id)
		switch {
		case refused != (statusErr != nil):
			t.Errorf("%.20s…: status's check %v, want refused %v", id, statusErr, refused)
		case refused && !strings.Contains(shapeSays(err), "quote id has the shape of a wallet's recovery phrase"):
			t.Errorf("%.20s…: quoted with %v, want the id refused as a wallet secret's shape", id, err)
		case refused && strings.Contains(err.Error(), id[5:15]):
			t.Errorf("%.20s…: the refusal repeats the id: %v", id, err)
		case !refused && err != nil:
			t.Errorf("%s: quoting refused: %v", id, err)
		}
	}
}
