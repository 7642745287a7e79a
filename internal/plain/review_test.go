package plain

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/service/intent"
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
