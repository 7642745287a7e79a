package plain

import (
	"strings"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// Deposit addresses: the list, and an address for an on-demand chain, as
// the console's deposit screen gives them.

// deposit lists the chains and offers to generate an address for one
// without.
func (s *session) deposit() error {
	chains, err := s.listChains()
	if err != nil {
		return err
	}
	for {
		var open []exchange.ChainInfo
		for _, ch := range chains {
			if ch.Verdict() == exchange.DepositGenerate {
				open = append(open, ch)
			}
		}
		if len(open) == 0 {
			return nil
		}
		s.p.Blank()
		i, err := s.p.Choose("Generate an address?", Options("Generate an address for a chain without one", "Back home"))
		if err != nil || i == 1 {
			return err
		}
		names := make([]string, len(open))
		for j, ch := range open {
			names[j] = ch.Chain
		}
		j, err := s.p.Choose("Which chain?", Options(names...))
		if err != nil {
			return err
		}
		info, err := s.generate(open[j])
		if err != nil {
			return err
		}
		for k := range chains {
			if strings.EqualFold(chains[k].Chain, info.Chain) {
				chains[k] = info
			}
		}
	}
}

// listChains asks for the deposit addresses and says each chain's.
func (s *session) listChains() ([]exchange.ChainInfo, error) {
	s.p.Say("Asking for the deposit addresses…")
	cx, cancel := s.call()
	chains, err := s.client().DepositAddresses(cx)
	cancel()
	if err != nil {
		return nil, s.interrupted(exchange.Explain(err))
	}
	if s.target.Demo != nil {
		s.p.Say("These are the embedded sandbox's: they receive nothing real.")
	}
	if len(chains) == 0 {
		s.p.Say("No chains are open for deposit on this account.")
	}
	for _, ch := range chains {
		s.p.Say("%s", chainLine(ch))
	}
	return chains, nil
}

// chainLine is one chain: its id, its address (or why there is none) and
// its tokens, with their contracts.
func chainLine(ch exchange.ChainInfo) string {
	addr := ch.Listed()
	if ch.Verdict() == exchange.DepositGenerate {
		addr += " (on demand: generate one)"
	}
	var tokens []string
	for _, t := range ch.SupportedTokens {
		tokens = append(tokens, t.Name+" ("+t.ContractText()+")")
	}
	line := ch.Chain + ", chain id " + ch.ChainID + ": " + addr
	if len(tokens) > 0 {
		line += "; tokens " + strings.Join(tokens, ", ")
	}
	return line
}

// generate provisions the address of a listed chain and says it, or why it
// is refused.
func (s *session) generate(listed exchange.ChainInfo) (exchange.ChainInfo, error) {
	s.p.Say("Generating the %s deposit address…", listed.Chain)
	cx, cancel := s.call()
	info, err := s.client().GenerateFor(cx, listed)
	cancel()
	if err != nil {
		return info, s.interrupted(exchange.Explain(err))
	}
	if info.Verdict() == exchange.DepositRefused {
		s.p.Say("%s.", info.Refusal())
		return info, nil
	}
	s.p.Say("%s deposit address ready: %s", info.Chain, info.DepositAddress)
	return info, nil
}
