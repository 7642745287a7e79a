package exchange_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// A deposit is lost where no one can take it out again: the listing's
// cleaning refuses such an address, or such a chain, as it refuses an
// address that fails its chain's check (DepositRefused, with why).

const (
	bscUSDT  = "0x55d398326f99059fF775485246999027B3197955"
	tronUSDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
)

// listing answers the deposit listing with chains, each {chain, chain id,
// address} and its tokens as name, contract pairs.
func listing(t *testing.T, chains ...[]any) []exchange.ChainInfo {
	t.Helper()
	w, h := newHostileWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	h.set(onPath(exchange.PathDepositAddresses, func(v any) any {
		var out []any
		for _, ch := range chains {
			tokens := []any{}
			for i := 3; i+1 < len(ch); i += 2 {
				tokens = append(tokens, map[string]any{"name": ch[i], "contract_address": ch[i+1]})
			}
			out = append(out, map[string]any{"chain": ch[0], "chain_id": ch[1], "deposit_address": ch[2], "supported_tokens": tokens})
		}
		v.(map[string]any)["chains"] = out
		return v
	}))
	got, err := c.DepositAddresses(ctx)
	if err != nil || len(got) != len(chains) {
		t.Fatalf("%d chains, %v", len(got), err)
	}
	return got
}

// refused checks that ch is refused, saying why, and offers no address.
func refused(t *testing.T, ch exchange.ChainInfo, why string) {
	t.Helper()
	if ch.Verdict() != exchange.DepositRefused || ch.DepositAddress != "" || !strings.Contains(ch.AddressProblem, why) ||
		!strings.HasPrefix(ch.Listed(), exchange.RefusedDeposit+": ") {
		t.Errorf("%s %s: %+v (listed %q), want it refused: %q", ch.Chain, ch.ChainID, ch, ch.Listed(), why)
	}
}

// usable checks that ch offers addr to deposit on.
func usable(t *testing.T, ch exchange.ChainInfo, addr string) {
	t.Helper()
	if ch.Verdict() != exchange.DepositOnIt || ch.DepositAddress != addr {
		t.Errorf("%s %s: %+v, want %s offered", ch.Chain, ch.ChainID, ch, addr)
	}
}

// TestDepositAddressNoOneHoldsTheKeyOfIsRefused: the zero address and burn
// addresses of each chain type (EVM's 0x…dEaD, Tron's zero T9yD14…,
// Solana's 111…1 and incinerator) are refused; funds sent there are lost.
func TestDepositAddressNoOneHoldsTheKeyOfIsRefused(t *testing.T) {
	chains := listing(t,
		[]any{"BASE", "8453", "0x0000000000000000000000000000000000000000", "USDT", ""},
		[]any{"BSC", "56", "0x000000000000000000000000000000000000dEaD", "USDT", ""},
		[]any{"TRON", "tron", "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb", "USDT", ""},
		[]any{"SOLANA", "solana", "11111111111111111111111111111111", "USDT", ""},
		[]any{"SOLANA_TEST", "solana_devnet", "1nc1nerator11111111111111111111111111111111", "USDT", ""},
		[]any{"ARBITRUM", "42161", sandbox.DemoAddress, "USDT", ""},
	)
	for i, why := range []string{"zero address", "burn address", "zero address", "zero address", "whose key no one holds"} {
		refused(t, chains[i], why)
	}
	usable(t, chains[5], sandbox.DemoAddress)
}

// TestDepositAddressThatIsItsTokensContractIsRefused: an address that is
// the contract of a token the chain lists (USDT's own, on BSC in another
// case and on TRON) is refused: a token sent to its own contract is lost.
func TestDepositAddressThatIsItsTokensContractIsRefused(t *testing.T) {
	chains := listing(t,
		[]any{"BSC", "56", strings.ToLower(bscUSDT), "USDT", bscUSDT},
		[]any{"TRON", "tron", tronUSDT, "USDC", "TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8", "USDT", tronUSDT},
		[]any{"POLYGON", "137", sandbox.DemoAddress, "USDT", bscUSDT},
	)
	refused(t, chains[0], "the contract of USDT on BSC")
	refused(t, chains[1], "the contract of USDT on TRON")
	usable(t, chains[2], sandbox.DemoAddress)
}

// TestDepositNamedChainWithAnotherNetworksChainIDIsRefused: SPEC.md §2.7's
// chains are held to their networks' chain ids: BSC with BSC testnet's 97
// or Ethereum's 1, BASE with Base Sepolia's, a testnet name with its
// mainnet's id, TRON with another Tron id, are refused with or without an
// address; their own ids, in any case, are kept.
func TestDepositNamedChainWithAnotherNetworksChainIDIsRefused(t *testing.T) {
	bad := [][]any{
		{"BSC", "97", sandbox.DemoAddress}, {"BSC", "1", sandbox.DemoAddress}, {"BASE", "84532", sandbox.DemoAddress},
		{"ARBITRUM", "56", sandbox.DemoAddress}, {"KAIA", "1001", sandbox.DemoAddress}, {"POLYGON", "80002", ""},
		{"BSC_TEST", "56", sandbox.DemoAddress}, {"TRON", "tron_nile", sandbox.DestTron}, {"SOLANA", "solana_devnet", ""},
	}
	good := [][]any{
		{"BSC", "56", sandbox.DemoAddress}, {"BASE_SEPOLIA", "84532", sandbox.DemoAddress}, {"KAIA_TEST", "1001", sandbox.DemoAddress},
		{"POLYGON_TEST", "80002", sandbox.DemoAddress}, {"TRON", "TRON", sandbox.DestTron}, {"TRON_TEST", "tron_nile", sandbox.DestTron},
	}
	chains := listing(t, append(bad, good...)...)
	for i, b := range bad {
		refused(t, chains[i], "which is another network's")
		if chains[i].RefusedAddress != b[2] {
			t.Errorf("%s %s: the address the service sent is not kept to show: %q", b[0], b[1], chains[i].RefusedAddress)
		}
	}
	for i, g := range good {
		usable(t, chains[len(bad)+i], g[2].(string))
	}
}

// TestDepositTokenListedWithTwoContractsIsRefused: one token listed twice
// (in any case) with two contracts says two things of which token is
// credited: the chain is refused, with or without an address. The same
// contract twice, or one of them unknown, says one.
func TestDepositTokenListedWithTwoContractsIsRefused(t *testing.T) {
	const other = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
	chains := listing(t,
		[]any{"BSC", "56", sandbox.DemoAddress, "USDT", bscUSDT, "usdt", other},
		[]any{"SOLANA", "solana", "", "USDT", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB", "USDT", "EPjFWJd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"},
		[]any{"POLYGON", "137", sandbox.DemoAddress, "USDT", bscUSDT, "USDT", strings.ToLower(bscUSDT), "USDT", ""},
	)
	refused(t, chains[0], "names usdt twice with two contracts")
	refused(t, chains[1], "names USDT twice with two contracts")
	usable(t, chains[2], sandbox.DemoAddress)
}

// TestSandboxDepositPassesEveryCheck: the sandbox's own listing, its
// benchmark chains and a generated SOLANA address included, is refused
// nowhere: the checks above are not to turn the demo into refusals.
func TestSandboxDepositPassesEveryCheck(t *testing.T) {
	for _, opts := range []sandbox.Options{{}, {ExtraChains: 3}} {
		w, _ := newHostileWorld(t, opts)
		c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
		chains, err := c.DepositAddresses(ctx)
		if err != nil || len(chains) != 7+opts.ExtraChains {
			t.Fatalf("%d chains, %v", len(chains), err)
		}
		for _, ch := range chains {
			if ch.Verdict() == exchange.DepositRefused {
				t.Errorf("the sandbox's %s is refused: %s", ch.Chain, ch.AddressProblem)
			}
			if info, err := c.GenerateFor(ctx, ch); err != nil || info.Verdict() != exchange.DepositOnIt {
				t.Errorf("generating the sandbox's %s: %+v, %v", ch.Chain, info, err)
			}
		}
	}
}

// TestGenerateForHeldToTheListing: generating is held to the listing it
// follows, for every face: a chain the listing refused is not asked for
// (nothing is provisioned, its refusal comes back), and an answer giving
// another address than the one listed, or another chain id, is refused.
func TestGenerateForHeldToTheListing(t *testing.T) {
	const other = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
	w, h := newHostileWorld(t, sandbox.Options{ExtraChains: 1})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	var asked atomic.Int32
	answer := func(f func(m map[string]any)) {
		h.set(func(p string, b []byte) []byte {
			if p != exchange.PathGenerateAddress {
				return b
			}
			asked.Add(1)
			return onPath(p, func(v any) any { f(v.(map[string]any)); return v })(p, b)
		})
	}

	solana := exchange.ChainInfo{Chain: "SOLANA", ChainID: "1", AddressProblem: "its name SOLANA makes it a Solana chain but…"}
	answer(func(map[string]any) {})
	if info, err := c.GenerateFor(ctx, solana); err != nil || info.Verdict() != exchange.DepositRefused || asked.Load() != 0 {
		t.Errorf("a refused chain: %+v, %v, asked %d times; want its refusal, nothing asked", info, err, asked.Load())
	}

	bsc := exchange.ChainInfo{Chain: "BSC", ChainID: "56", DepositAddress: sandbox.DemoAddress}
	answer(func(m map[string]any) { m["deposit_address"] = other })
	info, err := c.GenerateFor(ctx, bsc)
	if err != nil || info.DepositAddress != "" || info.RefusedAddress != other || !strings.Contains(info.AddressProblem, "gives BSC the address "+sandbox.DemoAddress) {
		t.Errorf("another address than the listing's: %+v, %v; want it refused", info, err)
	}
	answer(func(m map[string]any) { m["deposit_address"] = strings.ToLower(sandbox.DemoAddress) })
	if info, err := c.GenerateFor(ctx, bsc); err != nil || info.Verdict() != exchange.DepositOnIt {
		t.Errorf("the listing's address in another case: %+v, %v; want it kept", info, err)
	}

	// An on-demand chain's generated address that is the contract of a
	// token the listing gives it, the answer leaving the tokens out.
	const usdtMint = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"
	sol := exchange.ChainInfo{Chain: "SOLANA", ChainID: "solana", SupportedTokens: []exchange.TokenInfo{{Name: "USDT", ContractAddress: usdtMint}}}
	answer(func(m map[string]any) { m["deposit_address"], m["supported_tokens"] = usdtMint, []any{} })
	info, err = c.GenerateFor(ctx, sol)
	if err != nil || info.DepositAddress != "" || !strings.Contains(info.AddressProblem, "the contract of USDT on SOLANA") {
		t.Errorf("a generated address that is a listed token's contract: %+v, %v; want it refused", info, err)
	}

	// A staging chain's: SPEC.md §2.7 gives no id the cleaning holds it to.
	listed := exchange.ChainInfo{Chain: "SYNTH_0001", ChainID: "1000000"}
	answer(func(m map[string]any) { m["chain_id"] = "31337" })
	info, err = c.GenerateFor(ctx, listed)
	if err != nil || info.DepositAddress != "" || info.RefusedAddress == "" || !strings.Contains(info.AddressProblem, "chain id 1000000, and generating its address gave 31337") {
		t.Errorf("another chain id than the listing's: %+v, %v; want it refused", info, err)
	}
}

// TestKeylessSolanaNativePrograms: Solana's native programs, sysvars and
// wrapped SOL's mint have no key (their 32 bytes are not zero enough for
// the burn rule) and are refused by name; a real address is not.
func TestKeylessSolanaNativePrograms(t *testing.T) {
	for _, a := range []string{"Vote111111111111111111111111111111111111111", "Stake11111111111111111111111111111111111111",
		"ComputeBudget111111111111111111111111111111", "BPFLoaderUpgradeab1e11111111111111111111111", "SysvarRent111111111111111111111111111111111",
		"SysvarC1ock11111111111111111111111111111111", "So11111111111111111111111111111111111111112", "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr"} {
		if exchange.Keyless(exchange.ChainTypeSolana, a) == "" {
			t.Errorf("%s is not refused", a)
		}
	}
	if why := exchange.Keyless(exchange.ChainTypeSolana, "Dhqhbyk8oBwHGrTuxvTuS886ESXDiCG47vghaMJm3ZRZ"); why != "" {
		t.Errorf("the sandbox's SOLANA address is refused: %s", why)
	}
}
