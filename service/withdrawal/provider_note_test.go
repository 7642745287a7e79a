package withdrawal_test

import (
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestNoProviderReadsAsTheTrustNote: the review names the bridge provider
// before the trust note ("sandbox-bridge · pinned"), so no name the
// service may give holds a word any note says: a provider "pinned" read
// as the address's trust on a first use. Each note's words are refused as
// a provider's (exchange.CheckProvider), the note growing a word too.
func TestNoProviderReadsAsTheTrustNote(t *testing.T) {
	for _, trust := range []withdrawal.BridgeTrust{
		{Pinned: true}, {FirstUse: true}, {SeenSince: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)},
		{Replaces: "0x6e3a360d75Dd3E83948f7977b92b21827a89E012"},
	} {
		note := trust.Note()
		for _, word := range strings.FieldsFunc(note, func(r rune) bool { return r == ' ' || r == ',' }) {
			if strings.HasPrefix(word, "0x") || word[0] >= '0' && word[0] <= '9' || len(word) < 4 {
				continue // the address and the date the note quotes; "use", "as"
			}
			if exchange.CheckProvider("x"+word+"-bridge") == nil {
				t.Errorf("a provider holding %q, a word of the note %q, is taken", word, note)
			}
		}
	}
	if err := exchange.CheckProvider("sandbox-bridge"); err != nil {
		t.Errorf("the sandbox's provider is refused: %v", err)
	}
}
