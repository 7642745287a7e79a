package exchange

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// The deposit answers' cleaning: a listing's chain, or the address it
// gives, that a deposit could be lost on is refused here, once, so every
// face says "REFUSED, do not deposit" and why (ChainInfo.Listed).

// namedChainIDs are the native chain ids of the chains SPEC.md §2.7 names
// (its examples, Polygon's 137 and the testnets' own): a named chain listed
// with another id is another network than its name says. TRON_TEST and
// SOLANA_TEST, whose ids the spec does not give, are held to their type only.
var namedChainIDs = map[string][]string{
	"ARBITRUM": {"42161"}, "BASE": {"8453"}, "BSC": {"56"}, "KAIA": {"8217"}, "POLYGON": {"137"},
	"TRON": {"tron"}, "SOLANA": {"solana"},
	"BASE_SEPOLIA": {"84532"}, "BSC_TEST": {"97"}, "KAIA_TEST": {"1001"}, "POLYGON_TEST": {"80002", "80001"},
}

// depositChainType is the address type of a deposit chain, which its chain
// id and, when the name settles one, its name must agree on: a SOLANA chain
// with chain id 1 takes no EVM address, and BSC with chain id 97 is BSC's
// testnet. Otherwise it says why none is.
func depositChainType(chain, chainID string) (string, string) {
	byID := chainTypeOfChainID(chainID)
	ids, named := namedChainIDs[strings.ToUpper(chain)]
	switch byName := namedChainType(chain); {
	case byID == "":
		return "", "svcwallet cannot check addresses of chain id " + chainID
	case byName != "" && byName != byID:
		return "", fmt.Sprintf("its name %s makes it %s chain but its chain id %s is %s chain's: svcwallet cannot tell which addresses it takes",
			chain, Articled(ChainTypeLabel(byName)), chainID, Articled(ChainTypeLabel(byID)))
	case named && !slices.ContainsFunc(ids, func(id string) bool { return strings.EqualFold(id, chainID) }):
		return "", fmt.Sprintf("%s is chain id %s, not %s, which is another network's: svcwallet cannot tell which network its address is on",
			chain, ids[0], chainID)
	}
	return byID, ""
}

// cleanAnswer checks a chain's fields; an address that fails its chain's
// check is not refused with the whole list but moved aside (see
// ChainInfo.AddressProblem), so the other chains stay usable.
func (c *ChainInfo) cleanAnswer(time.Time) error {
	if err := checkNameGiven("chain name", c.Chain); err != nil {
		return err
	}
	if err := checkNameGiven("chain id", c.ChainID); err != nil {
		return err
	}
	for _, t := range c.SupportedTokens {
		if err := checkNameGiven("token name", t.Name); err != nil {
			return err
		}
	}
	// A chain in doubt (its type, its network, which token it credits) is
	// refused with or without an address: one generated for it would be in
	// the same doubt.
	chainType, problem := depositChainType(c.Chain, c.ChainID)
	if problem == "" {
		problem = c.twoContracts(chainType)
	}
	if c.AddressProblem = problem; problem == "" && c.DepositAddress != "" {
		c.AddressProblem = c.addressProblem(chainType)
	}
	if c.AddressProblem != "" {
		c.RefusedAddress, c.DepositAddress = safetext.Line(c.DepositAddress, maxTextLen), ""
	}
	for i := range c.SupportedTokens {
		// A contract that fails its chain's check is shown as unknown.
		if t := &c.SupportedTokens[i]; t.ContractAddress != "" && (chainType == "" || ValidateAddress(chainType, t.ContractAddress) != nil) {
			t.ContractAddress = ""
		}
	}
	return nil
}

// addressProblem says why c's deposit address, of chainType, is no place
// to deposit, or "": not an address of its chain, one no one holds the key
// of, or the contract of a token the chain lists (a token sent to its own
// contract is lost).
func (c *ChainInfo) addressProblem(chainType string) string {
	if err := ValidateAddress(chainType, c.DepositAddress); err != nil {
		return "not a valid " + ChainTypeLabel(chainType) + " address: " + err.Error()
	}
	if why := Keyless(chainType, c.DepositAddress); why != "" {
		return "it " + why
	}
	return c.tokenContract(chainType, c.SupportedTokens)
}

// tokenContract says so when c's deposit address is the contract of one
// of tokens, those c lists or, for a generated address, the listing's.
func (c *ChainInfo) tokenContract(chainType string, tokens []TokenInfo) string {
	for _, t := range tokens {
		if t.ContractAddress != "" && sameOn(chainType, t.ContractAddress) == sameOn(chainType, c.DepositAddress) {
			return "it is the contract of " + t.Name + " on " + c.Chain + ": tokens sent there are lost"
		}
	}
	return ""
}

// twoContracts says so when c lists one token (in any case) with two
// contracts: the answer says two things of which token is credited, and a
// person adding the wrong one to a wallet sends one that may not be.
func (c *ChainInfo) twoContracts(chainType string) string {
	first := map[string]string{}
	for _, t := range c.SupportedTokens {
		if t.ContractAddress == "" {
			continue
		}
		name, contract := strings.ToUpper(t.Name), sameOn(chainType, t.ContractAddress)
		if f, ok := first[name]; ok && f != contract {
			return "the listing names " + t.Name + " twice with two contracts: svcwallet cannot tell which one is credited"
		} else if !ok {
			first[name] = contract
		}
	}
	return ""
}

// sameOn is addr as compared with another of chainType: an EVM address's
// case is only its checksum.
func sameOn(chainType, addr string) string {
	if chainType == ChainTypeEVM {
		return strings.ToLower(addr)
	}
	return addr
}

func (d *DepositAddresses) cleanAnswer(now time.Time) error {
	for i := range d.Chains {
		if err := d.Chains[i].cleanAnswer(now); err != nil {
			return err
		}
	}
	d.refuseTwoAddresses()
	return nil
}

// refuseTwoAddresses refuses the addresses of a chain the listing offers
// two different ones for, by its name (in any case) or by its chain id
// (two names for one chain): the answer says two things, and whichever one
// a person deposited to could be the wrong one. An EVM address in another
// case is the same address. An entry already refused, or without an
// address, offers none.
func (d *DepositAddresses) refuseTwoAddresses() {
	byName, byID := twoAddresses{}, twoAddresses{}
	for _, c := range d.Chains {
		if c.DepositAddress != "" {
			a := sameAddress(c)
			byName.note(strings.ToUpper(c.Chain), a)
			byID.note(strings.ToUpper(c.ChainID), a)
		}
	}
	for i := range d.Chains {
		c := &d.Chains[i]
		switch {
		case c.DepositAddress == "":
			continue
		case byName[strings.ToUpper(c.Chain)].twice:
			c.AddressProblem = "the listing names " + c.Chain + " twice with two addresses"
		case byID[strings.ToUpper(c.ChainID)].twice:
			c.AddressProblem = "the listing gives chain id " + c.ChainID + " to two chains with two addresses"
		default:
			continue
		}
		c.RefusedAddress, c.DepositAddress = c.DepositAddress, ""
	}
}

// twoAddresses is, by a chain's name or id, what the listing gave for it.
type twoAddresses map[string]listed

// listed is the first address listed for a chain, and whether another was.
type listed struct {
	first string
	twice bool
}

func (t twoAddresses) note(key, address string) {
	if l, ok := t[key]; !ok {
		t[key] = listed{first: address}
	} else if l.first != address {
		t[key] = listed{first: l.first, twice: true}
	}
}

// sameAddress is c's deposit address as compared with another.
func sameAddress(c ChainInfo) string {
	t, _ := depositChainType(c.Chain, c.ChainID)
	return sameOn(t, c.DepositAddress)
}

// GenerateFor provisions the deposit address of listed, a chain of the
// listing just read, held to that listing, for every face: a chain the
// listing refused is not asked for (listed comes back, its refusal to
// say), and an answer giving it another chain id, or another address than
// the one listed, is refused as two addresses within a listing are; so is
// an address that is the contract of a token the listing gives the chain,
// which the answer may leave out.
func (c *Client) GenerateFor(ctx context.Context, listed ChainInfo) (ChainInfo, error) {
	if listed.Verdict() == DepositRefused {
		return listed, nil
	}
	info, err := c.GenerateAddress(ctx, listed.Chain)
	if err != nil || info.Verdict() == DepositRefused {
		return info, err
	}
	switch {
	case !strings.EqualFold(info.ChainID, listed.ChainID):
		info.AddressProblem = "the listing gives " + listed.Chain + " chain id " + listed.ChainID + ", and generating its address gave " + info.ChainID
	case listed.DepositAddress != "" && sameAddress(info) != sameAddress(listed):
		info.AddressProblem = "the listing gives " + listed.Chain + " the address " + listed.DepositAddress + ", and generating gave another"
	default:
		chainType, _ := depositChainType(info.Chain, info.ChainID)
		if info.AddressProblem = info.tokenContract(chainType, listed.SupportedTokens); info.AddressProblem == "" {
			return info, nil
		}
	}
	info.RefusedAddress, info.DepositAddress = info.DepositAddress, ""
	return info, nil
}
