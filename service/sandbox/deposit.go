package sandbox

import (
	"net/http"
	"slices"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// handleDepositAddresses is SPEC.md §4.5: every chain of the account, with
// an empty deposit_address for on-demand chains not provisioned yet.
func (e *Exchange) handleDepositAddresses(w http.ResponseWriter, r *http.Request) *apiError {
	return e.respond(w, func(now time.Time) (reply, *apiError) {
		a, err := e.depositAccount(r, now)
		if err != nil {
			return reply{}, err
		}
		out := exchange.DepositAddresses{Chains: make([]exchange.ChainInfo, len(a.chains))}
		for i, c := range a.chains {
			out.Chains[i] = e.chainInfo(a, c)
		}
		return reply{body: out}, nil
	})
}

// handleGenerateAddress is SPEC.md §4.6: provisions the address of an
// on-demand chain; for any chain that has one, returns it unchanged.
func (e *Exchange) handleGenerateAddress(w http.ResponseWriter, r *http.Request) *apiError {
	body := readBody(r)
	return e.respond(w, func(now time.Time) (reply, *apiError) {
		a, err := e.depositAccount(r, now)
		if err != nil {
			return reply{}, err
		}
		var req struct {
			Chain *string `json:"chain"`
		}
		if err := body.decode(&req); err != nil {
			return reply{}, err
		}
		name, err := need(req.Chain, "chain")
		if err != nil {
			return reply{}, err
		}
		c := a.chain(name)
		if c == nil {
			if slices.ContainsFunc(otherEnvChains, func(n string) bool { return sameName(n, name) }) {
				return reply{}, failf(exchange.CodeUnsupportedChain, "chain %.32q is not enabled for this account", name)
			}
			return reply{}, failf(exchange.CodeUnsupportedChain, "chain %.32q is not supported", name)
		}
		if _, ok := a.deposit[c.name]; !ok {
			// Only SOLANA is on demand; its address is derived from the account,
			// so a repeat (or a restart) yields the same one.
			a.deposit[c.name] = solanaAddress(a.id)
		}
		return reply{body: e.chainInfo(a, c)}, nil
	})
}

// chainInfo renders a chain for an account. Contract addresses come from the
// bridge provider; while it is unreachable they are empty (SPEC.md §2.6).
func (e *Exchange) chainInfo(a *account, c *chainDef) exchange.ChainInfo {
	toks := slices.Clone(c.tokens)
	if e.providerDown {
		for i := range toks {
			toks[i].ContractAddress = ""
		}
	}
	return exchange.ChainInfo{Chain: c.name, ChainID: c.chainID, DepositAddress: a.deposit[c.name], SupportedTokens: toks}
}
