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
	w.Provider = safetext.Line(w.Provider, safetext.MaxNameLen)
	// The review names whose funding address the Transfer pays: "the
	// bridge funding address of  · …" named nobody.
	if strings.TrimSpace(w.Provider) == "" {
		return NewShapeError("bridge provider", "is empty")
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
