package sandbox

import (
	"bytes"
	"crypto/sha256"
	"math/bits"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/mr-tron/base58"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
)

// These tests send by hand what a client's checks would stop, so they pin
// the sandbox's own reading of the spec (D4, D5, D8, D12).

// tronText is base58check(version ‖ 20 bytes), its checksum broken on request.
func tronText(version byte, badSum bool) string {
	payload := append([]byte{version}, bytes.Repeat([]byte{7}, 20)...)
	once := sha256.Sum256(payload)
	twice := sha256.Sum256(once[:])
	if badSum {
		twice[0]++
	}
	return base58.Encode(append(payload, twice[:4]...))
}

func TestQuoteAddressRules(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	solana := func(n int) string { return base58.Encode(bytes.Repeat([]byte{9}, n)) }
	cases := []struct {
		name, chain, to string
		code            exchange.Code
		words           []string
	}{
		{"Solana of 31 bytes", "SOLANA", solana(31), exchange.CodeBadAddress, []string{"32 bytes, not 31"}},
		{"Solana of 33 bytes", "SOLANA", strings.Repeat("1", 33), exchange.CodeBadAddress, []string{"32 bytes, not 33"}},
		{"Solana not base58", "SOLANA", "0" + solana(32)[1:], exchange.CodeBadAddress, []string{"base58"}},
		{"Solana too long to decode", "SOLANA", strings.Repeat("1", 45), exchange.CodeBadAddress, []string{"too long"}},
		{"Tron with version 0x00", "TRON", tronText(0x00, false), exchange.CodeBadAddress, []string{"0x41"}},
		{"Tron of 24 bytes", "TRON", base58.Encode(append([]byte{0x41}, bytes.Repeat([]byte{7}, 23)...)), exchange.CodeBadAddress, []string{"25 bytes, not 24"}},
		{"Tron with a wrong checksum", "TRON", tronText(0x41, true), exchange.CodeBadAddress, []string{"checksum"}},
		{"Tron of 32 bytes", "TRON", solana(32), exchange.CodeBadAddress, []string{"Solana address"}},
		{"EVM with a wrong EIP-55 checksum", "BASE", "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293Bc", exchange.CodeBadAddress, []string{"EIP-55"}},
		{"EVM of 39 digits", "BASE", DestCompleted[:41], exchange.CodeBadAddress, []string{"not 39"}},
		{"EVM not hex", "BASE", "0x" + strings.Repeat("g", 40), exchange.CodeBadAddress, []string{"hex digits"}},
		{"EVM with 0X", "BASE", "0X" + DestCompleted[2:], exchange.CodeBadAddress, []string{"starts with 0x"}},
		// Well-formed and not in the address book: past the format check.
		{"Solana of 32 bytes", "SOLANA", solana(32), exchange.CodeNotInAddressBook, nil},
		{"Tron", "TRON", tronText(0x41, false), exchange.CodeNotInAddressBook, nil},
		{"EVM in lower case", "BASE", strings.ToLower(BridgeFundingAddress), exchange.CodeNotInAddressBook, nil},
		{"EVM in upper case", "BASE", "0x" + strings.ToUpper(BridgeFundingAddress[2:]), exchange.CodeNotInAddressBook, nil},
		{"EVM with its checksum", "BASE", BridgeFundingAddress, exchange.CodeNotInAddressBook, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := s.do(http.MethodPost, exchange.PathWithdrawalQuote, exchange.QuoteRequest{ToAddress: c.to, Chain: c.chain, TokenIn: "USDT", TokenOut: "USDT", Amount: "10"})
			wantError(t, r, c.code, c.words...)
		})
	}
}

func TestQuoteAmountRules(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	for amount, words := range map[string][]string{
		"1e3":           {"not 'e'"},
		"1,000":         {"not ','"},
		"+5":            {"not '+'"},
		".5":            {"before the decimal point"},
		"5.":            {"after the decimal point"},
		"0.000000":      {"more than zero"},
		"2.0000001":     {"7 decimal places"},
		"1000000000000": {"too large"},
	} {
		wantError(t, s.do(http.MethodPost, exchange.PathWithdrawalQuote, exchange.QuoteRequest{
			ToAddress: DestCompleted, Chain: "BASE", TokenIn: "USDT", TokenOut: "USDT", Amount: amount,
		}), exchange.CodeMalformed, append(words, "amount")...)
	}
	// 6 places are signed to the last raw unit: numTokens is amount × 10^6.
	q := s.quote(DestCompleted, "BASE", "10.123456")
	exp := h.clock.Now().Add(time.Hour).UnixNano()
	sign := func(raw uint64, nonce uint32) exchange.WithdrawRequest {
		m := signer.Transfer{FromAccount: common.HexToAddress(DemoAddress), ToAccount: common.HexToAddress(BridgeFundingAddress),
			TokenCurrency: signer.USDTCurrency, NumTokens: raw, Nonce: nonce, Expiration: exp}
		return exchange.WithdrawRequest{QuoteID: q.QuoteID, Signature: exchange.NewWithdrawSignature(h.sign(key(t, DemoPrivateKey), m))}
	}
	wantError(t, s.withdraw(sign(10_123_457, 1)), exchange.CodeSignatureMismatch)
	wantStatus(t, s.withdraw(sign(10_123_456, 2)), http.StatusAccepted)
}

// feeAuth is an authorization without API key whose futures fee is sent as
// text and signed as scaled.
func (h *harness) feeAuth(text string, scaled uint32, nonce uint32) exchange.BuilderAuthorizeRequest {
	m := signer.AuthorizeBuilder{
		MainAccountID: common.HexToAddress(DemoAddress), BuilderAccountID: common.HexToAddress(BuilderAddress),
		MaxFutureFeeRate: scaled, MaxSpotFeeRate: 500, Nonce: nonce, Expiration: t0.Add(time.Hour).UnixNano(),
	}
	return exchange.BuilderAuthorizeRequest{
		MainAccountID: DemoAddress, BuilderAccountID: BuilderAddress, MaxFuturesFeeRate: text, MaxSpotFeeRate: "0.05",
		Signature: exchange.NewSignature(h.sign(key(h.t, DemoPrivateKey), m)),
	}
}

func TestBuilderFeeRateRules(t *testing.T) {
	h := newHarness(t, Options{})
	cases := []struct {
		text   string
		scaled uint32
		code   exchange.Code // 0: accepted
		words  []string
	}{
		{"0.00001", 0, exchange.CodeBadFeeRate, []string{"max_futures_fee_rate", "5 decimal places"}},
		{"-0.1", 0, exchange.CodeBuilderFeeNegative, []string{"max_futures_fee_rate", "negative"}},
		{"-5", 0, exchange.CodeBuilderFeeNegative, []string{"max_futures_fee_rate", "negative"}},
		{"429496.7296", 0, exchange.CodeBuilderFeeOverLimit, []string{"max_futures_fee_rate", "over the limit"}},
		{"99999999999", 0, exchange.CodeBuilderFeeOverLimit, []string{"max_futures_fee_rate", "over the limit"}},
		{"1-2", 0, exchange.CodeBadFeeRate, []string{"max_futures_fee_rate", "not '-'"}},
		{"1e-3", 0, exchange.CodeBadFeeRate, []string{"max_futures_fee_rate", "not 'e'"}},
		{"0.1%", 0, exchange.CodeBadFeeRate, []string{"max_futures_fee_rate", "not '%'"}},
		{".1", 0, exchange.CodeBadFeeRate, []string{"max_futures_fee_rate", "both sides"}},
		{"0.1", 100, exchange.CodeSignatureMismatch, nil}, // × 10,000, not × 1,000
		{"0.1", 1000, 0, nil},
		{"0.0005", 5, 0, nil},
		{"007.50", 75000, 0, nil},
		{"429496.7295", 4294967295, 0, nil},
	}
	for i, c := range cases {
		r := h.authorize(h.feeAuth(c.text, c.scaled, uint32(100+i)))
		if c.code == 0 {
			wantStatus(t, r, http.StatusOK)
			continue
		}
		wantError(t, r, c.code, c.words...)
	}
}

func TestBuilderPermissionRules(t *testing.T) {
	h := newHarness(t, Options{})
	bot := key(t, NoChainPrivateKey).Address()
	for i, c := range []struct{ sent, words string }{
		{"trade", `send "Trade"`},
		{"Admin,Trade", `send "Admin&Trade"`},
		{"Admin & Trade", `send "Admin&Trade"`},
		{"Trade&Trade", "twice"},
		{"InternalTranſfer", "unknown permission"},
		{"&", "no permission given"},
	} {
		b := toMap(t, h.builderAuth(bot, "Trade", uint32(200+i), t0.Add(time.Hour)))
		b["builder_api_key_permissions"] = c.sent
		wantError(t, h.authorize(b), exchange.CodeBadPermissions, c.words)
	}
	all := "Admin&InternalTransfer&ExternalTransfer&Withdraw&VaultInvestor&Trade"
	wantStatus(t, h.authorize(h.builderAuth(bot, all, 300, t0.Add(time.Hour))), http.StatusOK)
}

// TestEveryPermissionSetIsCanonicalOnce walks the 63 non-empty sets: each
// has one canonical string, which parses back to it, and no reordering or
// recasing of it is accepted, so string and bitmask map 1-to-1.
func TestEveryPermissionSetIsCanonicalOnce(t *testing.T) {
	seen := map[string]bool{}
	for mask := uint(1); mask < 64; mask++ {
		ps := perms(mask << 1) // bit n is permission n
		s := ps.canonical()
		if back, err := parseCanonicalPerms(s); err != nil || back != ps || seen[s] {
			t.Fatalf("%b → %q → %b, %v (seen before: %v)", ps, s, back, err, seen[s])
		}
		seen[s] = true
		names := strings.Split(s, "&")
		if len(names) != bits.OnesCount(mask) {
			t.Fatalf("%q has %d names for %d bits", s, len(names), bits.OnesCount(mask))
		}
		for i, j := 0, len(names)-1; i < j; i, j = i+1, j-1 {
			names[i], names[j] = names[j], names[i]
		}
		if rev := strings.Join(names, "&"); rev != s {
			if _, err := parseCanonicalPerms(rev); err == nil {
				t.Errorf("accepted %q", rev)
			}
		}
		if _, err := parseCanonicalPerms(strings.ToLower(s)); err == nil {
			t.Errorf("accepted %q", strings.ToLower(s))
		}
	}
}

func TestParseWord(t *testing.T) {
	good := "0x" + strings.Repeat("ab", 32)
	if h, ok := parseWord(good); !ok || h != common.HexToHash(good) {
		t.Fatalf("parseWord(%s) = %x, %v", good, h, ok)
	}
	if _, ok := parseWord("0X" + strings.Repeat("AB", 32)); !ok {
		t.Error("0X and upper-case hex refused")
	}
	for _, in := range []string{
		"",
		"0x",
		strings.Repeat("ab", 33),               // 66 characters, no 0x
		"0x" + strings.Repeat("ab", 31),        // 31 bytes
		"0x" + strings.Repeat("ab", 32) + "0",  // 65 digits
		"0x" + strings.Repeat("zz", 32),        // not hex
		"0x" + strings.Repeat("ab", 31) + "a ", // trailing space
		"1x" + strings.Repeat("ab", 32),
	} {
		if _, ok := parseWord(in); ok {
			t.Errorf("parseWord(%q) accepted", in)
		}
	}
}
