package sandbox

import (
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto/keccak"
	"github.com/mr-tron/base58"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// Demo credentials and fixtures (DESIGN.md §4). The keys are the public
// Hardhat/Anvil development keys: they guard nothing but this sandbox.
const (
	DemoAPIKey    = "sandbox-demo-key"    // main account
	TradingAPIKey = "sandbox-trading-key" // trading sub-account of the main account
	NoChainAPIKey = "sandbox-nochain-key" // account without a chain account address

	// The account ids (X-Service-Account-Id) are 0x-shaped, as the real
	// service's are, yet not the funding address: a client must read its
	// id from the login's header, and may assume no other shape.
	DemoAccountID       = "0x5f1c2e9a3b7d4c1308a6e2f9b0c4d7e1a2b3c4d5" // main account
	NoChainAccountID    = "0x0b7d4c1377e2a9f05c3d8b1e6a4f2c9d0e7b5a31" // no-chain account
	TradingSubAccountID = "sub-1"                                      // sub_account_id of the trading key's login

	DemoPrivateKey = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
	DemoAddress    = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" // funding address and Admin signer

	BuilderPrivateKey = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"
	BuilderAddress    = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"

	// The trading sub-account's signer: Trade only, not a main-account signer.
	TradingSignerPrivateKey = "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e"
	TradingSignerAddress    = "0x976EA74026E726554dB657fA54763abd0C3a0aa9"

	// The no-chain account's funding address and Admin signer; 100 USDT.
	NoChainPrivateKey = "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356"
	NoChainAddress    = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955"

	// Address book of the main account; each destination has a fixed fate.
	DestCompleted = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"   // pays out
	DestFlagged   = "0x90F79bf6EB2c4f870365E785982E1f101E93b906"   // refused by screening at execute
	DestFailed    = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65"   // ends FAILED, funds kept
	DestRefunded  = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc"   // ends REFUNDED, funds returned
	DestSolana    = "F5iknb9bHxyzUBZ63JrHM3qEDMfFeRD8gDHH6hKku3sU" // pays out on SOLANA
	DestTron      = "TVE7Xtn4v5LbHnbwkuVePzMybhMH9tpfpZ"           // pays out on TRON

	BridgeFundingAddress = "0x6e3a360d75Dd3E83948f7977b92b21827a89E012" // toAccount of the Transfer
	Provider             = "sandbox-bridge"

	DemoBalance    = "10000" // USDT of the main account
	NoChainBalance = "100"   // USDT of the no-chain account
	DailyLimit     = "5000"  // USDT per account per UTC day
	BridgeFee      = "1.5"   // USDT per withdrawal; fee_usd is the same
	// USDCPerUSDT is the bridge's rate for a USDC payout: USDC trades a
	// hair under USDT, so a converted payout is above pay − fee.
	USDCPerUSDT = "1.0002"
)

var (
	bridgeFee   = decimal.RequireFromString(BridgeFee)
	usdcPerUSDT = decimal.RequireFromString(USDCPerUSDT)
	dailyLimit  = decimal.RequireFromString(DailyLimit)
)

// chainDef is one chain the exchange knows: deposit tokens and, when it has
// a withdrawal route, the payout tokens, speed and the bridge's liquidity there.
type chainDef struct {
	name, chainID, chainType string
	onDemand                 bool // no deposit address until generated
	tokens                   []exchange.TokenInfo
	tokensOut                []string // nil: no withdrawal route
	speed                    string
	liquidity                decimal.Decimal // the pool: what its payouts in flight may hold at once
}

func tokens(usdt, usdc string) []exchange.TokenInfo {
	return []exchange.TokenInfo{{Name: exchange.TokenUSDT, ContractAddress: usdt}, {Name: exchange.TokenUSDC, ContractAddress: usdc}}
}

var (
	evmOut   = []string{exchange.TokenUSDT, exchange.TokenUSDC}
	usdtOnly = []string{exchange.TokenUSDT}
	ample    = decimal.NewFromInt(50_000)
)

// productionChains is SPEC.md §2.7's production list with the real USDT and
// USDC contracts. BSC is congested (slow quotes) and KAIA's bridge pool is
// shallow, so every quote rule has a chain that shows it.
var productionChains = []*chainDef{
	{"ARBITRUM", "42161", exchange.ChainTypeEVM, false, tokens("0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9", "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"), evmOut, exchange.SpeedFast, ample},
	{"BASE", "8453", exchange.ChainTypeEVM, false, tokens("0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"), evmOut, exchange.SpeedFast, ample},
	{"BSC", "56", exchange.ChainTypeEVM, false, tokens("0x55d398326f99059fF775485246999027B3197955", "0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d"), evmOut, exchange.SpeedSlow, ample},
	{"KAIA", "8217", exchange.ChainTypeEVM, false, tokens("0xd077A400968890Eacc75cdc901F0356c943e4fDb", "0x608792Deb376CCE1c9FA4D0E6B7b44f507CfFa6A"), evmOut, exchange.SpeedFast, decimal.NewFromInt(1_000)},
	{"POLYGON", "137", exchange.ChainTypeEVM, false, tokens("0xc2132D05D31c914a87C6611C10748AEb04B58e8F", "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359"), evmOut, exchange.SpeedFast, ample},
	{"TRON", "tron", exchange.ChainTypeTron, false, tokens("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8"), usdtOnly, exchange.SpeedFast, ample},
	{"SOLANA", "solana", exchange.ChainTypeSolana, true, tokens("Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB", "EPjFWJd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"), usdtOnly, exchange.SpeedFast, ample},
}

// otherEnvChains are names the service knows from other environments: a
// generate-address for one is "not enabled for this account", not "unknown".
var otherEnvChains = []string{"BASE_SEPOLIA", "BSC_TEST", "KAIA_TEST", "POLYGON_TEST", "TRON_TEST", "SOLANA_TEST"}

// syntheticChains builds n ready EVM chains for UI benchmarks. They take
// deposits only (no withdrawal route).
func syntheticChains(n int) []*chainDef {
	out := make([]*chainDef, max(n, 0))
	for i := range out {
		name := fmt.Sprintf("SYNTH_%04d", i+1)
		contract := func(tok string) string {
			return common.BytesToAddress(keccak256([]byte(name + "/" + tok))[12:]).Hex()
		}
		out[i] = &chainDef{name: name, chainID: strconv.Itoa(1_000_000 + i), chainType: exchange.ChainTypeEVM,
			tokens: tokens(contract(exchange.TokenUSDT), contract(exchange.TokenUSDC))}
	}
	return out
}

// account is a main (funding) account with its signers, money and chains.
type account struct {
	id          string
	funding     common.Address
	owner       common.Address            // main signer that may log in by wallet
	signers     map[common.Address]perms  // main-account signers
	subSigners  map[common.Address]string // trading signers → sub-account id
	balance     decimal.Decimal
	addressBook map[string]bool // bookKey(address)
	bridgeOff   bool
	chains      []*chainDef // nil: no chain account address
	deposit     map[string]string
	usedByDay   map[int64]decimal.Decimal // daily-limit use by utcDay
	sessions    timeline[string]          // its session tokens by expiry
	quotes      timeline[*quote]          // its quotes by the time they are dropped
	openQuotes  int                       // unexecuted quotes held
}

// bookKey normalises an address for address-book lookups: EVM addresses are
// case-insensitive, base58 ones are not.
func bookKey(addr string) string {
	if strings.HasPrefix(addr, "0x") || strings.HasPrefix(addr, "0X") {
		return strings.ToLower(addr)
	}
	return addr
}

// keyGrant is what an API key opens: an account, maybe a sub-account, or a
// builder's access to the account.
type keyGrant struct {
	accountID    string
	subAccountID string
	builder      common.Address // zero unless created by builder authorization
}

// DemoPayee is a destination of the demo account's address book: its
// chain type and what the sandbox does with a withdrawal to it, also in
// the 14 columns a 60-column terminal leaves beside an EVM address (Short).
type DemoPayee struct{ Address, ChainType, Fate, Short string }

// DemoAddressBook is the demo account's withdrawal address book.
var DemoAddressBook = []DemoPayee{
	{DestCompleted, exchange.ChainTypeEVM, "pays out: COMPLETED", "COMPLETED"},
	{DestFlagged, exchange.ChainTypeEVM, "refused by screening when executed", "screened out"},
	{DestFailed, exchange.ChainTypeEVM, "ends FAILED, the funds kept", "ends FAILED"},
	{DestRefunded, exchange.ChainTypeEVM, "ends REFUNDED, the funds returned", "ends REFUNDED"},
	{DestSolana, exchange.ChainTypeSolana, "pays out: COMPLETED", "COMPLETED"},
	{DestTron, exchange.ChainTypeTron, "pays out: COMPLETED", "COMPLETED"},
}

func (e *Exchange) seed(extraChains int) {
	book := make([]string, len(DemoAddressBook))
	for i, p := range DemoAddressBook {
		book[i] = p.Address
	}
	demo := e.addAccount(DemoAccountID, DemoAddress, DemoBalance,
		append(append([]*chainDef{}, productionChains...), syntheticChains(extraChains)...), book...)
	demo.subSigners[common.HexToAddress(TradingSignerAddress)] = TradingSubAccountID
	e.addAccount(NoChainAccountID, NoChainAddress, NoChainBalance, nil, DestCompleted)

	e.keys[DemoAPIKey] = keyGrant{accountID: DemoAccountID}
	e.keys[TradingAPIKey] = keyGrant{accountID: DemoAccountID, subAccountID: TradingSubAccountID}
	e.keys[NoChainAPIKey] = keyGrant{accountID: NoChainAccountID}
}

// addAccount registers an account whose funding address is also its Admin
// signer and owner. Chain accounts get their ready deposit addresses now.
func (e *Exchange) addAccount(id, funding, balance string, chains []*chainDef, book ...string) *account {
	addr := common.HexToAddress(funding)
	a := &account{
		id: id, funding: addr, owner: addr,
		signers:     map[common.Address]perms{addr: perms(0).with(permAdmin)},
		subSigners:  map[common.Address]string{},
		balance:     decimal.RequireFromString(balance),
		addressBook: map[string]bool{},
		chains:      chains,
		deposit:     map[string]string{},
		usedByDay:   map[int64]decimal.Decimal{},
	}
	for _, b := range book {
		a.addressBook[bookKey(b)] = true
	}
	evm := common.BytesToAddress(keccak256([]byte("sandbox deposit/" + id))[12:])
	for _, c := range chains {
		switch {
		case c.onDemand:
		case c.chainType == exchange.ChainTypeTron:
			a.deposit[c.name] = tronAddress(evm.Bytes())
		default:
			a.deposit[c.name] = evm.Hex()
		}
	}
	e.accounts[id] = a
	e.accountList = append(e.accountList, a)
	e.byFunding[addr] = a
	e.byOwner[addr] = a
	return a
}

// tronAddress is base58check(0x41 ‖ 20 bytes).
func tronAddress(b20 []byte) string {
	payload := append([]byte{0x41}, b20...)
	first := sha256.Sum256(payload)
	second := sha256.Sum256(first[:])
	return base58.Encode(append(payload, second[:4]...))
}

// solanaAddress derives the account's on-demand Solana deposit address: 32
// bytes, so stable across restarts and calls.
func solanaAddress(accountID string) string {
	return base58.Encode(keccak256([]byte("sandbox solana deposit/" + accountID)))
}

func (a *account) chain(name string) *chainDef {
	for _, c := range a.chains {
		if sameName(c.name, name) {
			return c
		}
	}
	return nil
}

// routeChain finds a chain with a withdrawal route by name, case-insensitively.
func routeChain(name string) *chainDef {
	for _, c := range productionChains {
		if sameName(c.name, name) {
			return c
		}
	}
	return nil
}

// sameName compares chain or token names ignoring ASCII case only;
// strings.EqualFold would also take look-alikes such as "ſ" for "s".
func sameName(canonical, s string) bool {
	if len(canonical) != len(s) {
		return false
	}
	for i := range len(s) {
		c := s[i]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c != canonical[i] {
			return false
		}
	}
	return true
}

// keccak256 is Ethereum's Keccak-256, from which the sandbox derives its
// made-up addresses as an exchange derives real ones.
func keccak256(b []byte) []byte {
	h := keccak.NewLegacyKeccak256()
	h.Write(b)
	return h.Sum(nil)
}
