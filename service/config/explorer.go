package config

import (
	"net/url"
	"strings"
)

// ProductionChainID is the production environment's L2 chain id (D3).
const ProductionChainID = 325

// Production reports whether e is the production environment: chain id
// ProductionChainID, and not the embedded sandbox.
func (e Environment) Production() bool { return e.ChainID == ProductionChainID && e.Name != SandboxEnv }

// Elsewhere names e, as a question that moves money ends, when it is not
// production (", in environment sandbox"); "" in production.
func (e Environment) Elsewhere() string {
	if e.Production() {
		return ""
	}
	return ", in environment " + e.Name
}

// DefaultExplorerTx are the explorer links of the production chains (SPEC.md
// §2.7), used for the production environment (chain id ProductionChainID)
// when its explorer_tx table has no entry for the chain. No other environment
// gets them: a testnet's or the sandbox's payout hashes are not on mainnet.
var DefaultExplorerTx = map[string]string{
	"ARBITRUM": "https://arbiscan.io/tx/{hash}",
	"BASE":     "https://basescan.org/tx/{hash}",
	"BSC":      "https://bscscan.com/tx/{hash}",
	"KAIA":     "https://kaiascan.io/tx/{hash}",
	"POLYGON":  "https://polygonscan.com/tx/{hash}",
	"TRON":     "https://tronscan.org/#/transaction/{hash}",
	"SOLANA":   "https://solscan.io/tx/{hash}",
}

// ExplorerTxURL is the block-explorer page of a payout hash on chain: the
// environment's explorer_tx template for the chain (matched ignoring case;
// an empty one turns the link off), else, in production only,
// DefaultExplorerTx. It is "" when there is no template, the template has
// no {hash}, the result is not an https (or loopback) URL or holds more
// than printable ASCII, or the hash is not a plain hex or base58 string:
// the hash comes from the service and must not be able to shape the link.
func (e Environment) ExplorerTxURL(chain, hash string) string {
	if !plainHash(hash) {
		return ""
	}
	tmpl, found := "", false
	for name, t := range e.ExplorerTx {
		if strings.EqualFold(name, chain) {
			tmpl, found = t, true
			break
		}
	}
	if !found && e.Production() {
		tmpl = DefaultExplorerTx[strings.ToUpper(chain)]
	}
	if !strings.Contains(tmpl, "{hash}") {
		return ""
	}
	link := strings.ReplaceAll(tmpl, "{hash}", hash)
	if u, err := url.Parse(link); err != nil || CheckURL(u.Scheme+"://"+u.Host) != nil || urlCharacter(link) != nil {
		return ""
	}
	return link
}

// plainHash accepts what payout hashes look like on the supported chains:
// 0x + hex (EVM), hex (Tron), base58 (Solana); letters and digits only.
func plainHash(h string) bool {
	if h == "" || len(h) > 128 {
		return false
	}
	for _, r := range h {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}
