package exchange

import (
	"slices"
	"strings"
	"time"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// The withdrawal info's routes (SPEC.md §4.7, §2.8) are drawn as choices
// and sent back in a quote: their names are checked here, with the types
// the chain's name and id settle.

func (w *WithdrawalInfo) cleanAnswer(time.Time) error {
	if err := CheckProvider(w.Provider); err != nil {
		return err
	}
	if err := ValidateAddress(ChainTypeEVM, w.FundingAddress); err != nil {
		return NewShapeError("bridge funding address", "is not an EVM address (%v)", err)
	}
	// A source token listed twice in another case (USDT, usdt) never
	// reaches here: the answer names a field twice (decode, RepeatedKey).
	named := make(map[string][]WithdrawalRoute, len(w.Route))
	for token, routes := range w.Route {
		if err := checkNameGiven("source token", token); err != nil {
			return err
		}
		token = TokenName(token)
		named[token] = routes
		chains := map[string]bool{}
		for i := range routes {
			r := &routes[i]
			if err := checkNameGiven("route chain", r.Chain); err != nil {
				return err
			}
			// A quote names its route by chain, in any case: a chain
			// listed twice leaves which route it takes untold.
			if c := strings.ToUpper(r.Chain); chains[c] {
				return NewShapeError("route listing", "names the chain %s twice for %s, so which of them a withdrawal takes cannot be told", r.Chain, token)
			}
			chains[strings.ToUpper(r.Chain)] = true
			// Given, as a deposit chain's is (ChainInfo): SPEC.md says
			// where a field may be empty, and it names neither.
			if err := checkNameGiven("route chain id", r.ChainID); err != nil {
				return err
			}
			switch r.ChainType {
			case ChainTypeEVM, ChainTypeSolana, ChainTypeTron:
			default:
				return NewShapeError("route chain type", "is not evm, solana or tron")
			}
			// The destination is checked by the route's type and journaled
			// under its chain's name: the two, and the chain id, agree.
			for _, t := range []string{namedChainType(r.Chain), chainTypeOfChainID(r.ChainID)} {
				if t != "" && t != r.ChainType {
					return NewShapeError("route chain type", "is %s, but the chain %s with chain id %s is %s chain", r.ChainType, r.Chain, r.ChainID, Articled(ChainTypeLabel(t)))
				}
			}
			for j, t := range r.TokensOut {
				if err := checkNameGiven("payout token", t); err != nil {
					return err
				}
				if slices.Contains(r.TokensOut[:j], TokenName(t)) {
					return NewShapeError("route to "+r.Chain, "names the payout token %s twice", t)
				}
				r.TokensOut[j] = TokenName(t)
			}
		}
	}
	w.Route = named
	return nil
}

// TokenName is a token's name as it is kept and compared: in capitals, as
// SPEC.md spells tokens (USDT, USDC). A listing's case says nothing (its
// keys in two cases are one field, RepeatedKey), so every face finds a
// route listed as usdt by exchange.TokenUSDT, and a quote sends it so.
func TokenName(name string) string { return strings.ToUpper(name) }

// checkNameGiven is CheckName of a name that must be there: one drawn as
// a choice and sent back in a request.
func checkNameGiven(field, name string) error {
	if name == "" {
		return NewShapeError(field, "is empty")
	}
	return CheckName(field, name)
}

// maxProviderLen bounds the bridge provider's name: the short review
// (60x20) shows it and the trust note after it on one line.
const maxProviderLen = 32

// noteWords are the words of the bridge address's trust note
// (withdrawal.BridgeTrust.Note), which no provider's name holds.
var noteWords = []string{"pinned", "first", "seen", "since", "replaces", "accepted", "announced"}

// CheckProvider holds the bridge provider (SPEC.md §4.7: its identifier),
// which the review names before the trust note ("bridge funding address
// of sandbox-bridge · pinned"), to one word of 1 to maxProviderLen
// letters, digits, '.', '_' and '-', holding none of the note's words:
// free text ("X · pinned ·", a line long enough to push the note off the
// row) read as the note, or stood in for it. The review names whose
// funding address the Transfer pays: an empty one named nobody.
func CheckProvider(p string) error {
	if p == "" {
		return NewShapeError("bridge provider", "is empty")
	}
	if len(p) > maxProviderLen {
		return NewShapeError("bridge provider", "is %d characters long (at most %d)", len(p), maxProviderLen)
	}
	if !safetext.IsToken(p) || strings.Contains(p, ":") {
		return NewShapeError("bridge provider", "is not one word of letters, digits, '.', '_' and '-'")
	}
	for _, w := range noteWords {
		if strings.Contains(strings.ToLower(p), w) {
			return NewShapeError("bridge provider", "holds %q, a word of the bridge address's trust note", w)
		}
	}
	return nil
}
