package plain

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestReviewShowsBlindHashesForAWaitingKey: a key that waits for a person
// (a device that may sign blind) has the domain and message hashes
// (intent.Review.BlindFacts) under the digest, in every review plain mode
// shows, as the command line's; a key that signs at once has none.
func TestReviewShowsBlindHashesForAWaitingKey(t *testing.T) {
	r := intent.Review{Intent: intent.Intent{Domain: signer.Domain{Name: "Service Exchange", ChainID: 327},
		Message: signer.AuthorizeBuilder{MainAccountID: common.HexToAddress("0x01"), Nonce: 1}}}
	for _, waits := range []bool{true, false} {
		var out bytes.Buffer
		s := &session{p: NewPrompter(context.Background(), strings.NewReader(""), &out, nil)}
		s.printTypedData(r, reviewKey{who: "clef", waits: waits})
		hashes := "  Domain hash: " + r.Domain.Separator().Hex() + " (a device that signs blind shows these two)\n  Message hash: " + signer.StructHash(r.Message).Hex() + "\n"
		if strings.Contains(out.String(), hashes) != waits {
			t.Errorf("waits %v: the hashes shown %v:\n%s", waits, !waits, out.String())
		}
	}
}

// TestReviewNestsNoParentheses: each line of a withdrawal's review says
// its note in one level of parentheses: the typed data's meanings held
// their own, "(= 25 USDT (the quote's pay amount))".
func TestReviewNestsNoParentheses(t *testing.T) {
	r := newRig(t)
	out, err := r.run(steps(logIn, typed("withdraw", "ARBITRUM", "USDT", sandbox.DestCompleted, "25", "", "n", "Back home", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	review := out[strings.Index(out, "Review: the withdrawal"):]
	review = review[:strings.Index(review, "Sign and withdraw")]
	for _, l := range strings.Split(review, "\n") {
		depth := 0
		for _, c := range l {
			switch c {
			case '(':
				if depth++; depth > 1 {
					t.Errorf("parentheses nest in %q", l)
				}
			case ')':
				depth--
			}
		}
	}
	wants(t, review, "(= 25 USDT, the quote's pay amount)", "(bridge funding address of sandbox-bridge · ")
}
