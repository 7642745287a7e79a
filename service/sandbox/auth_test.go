package sandbox

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
)

func TestRoutingErrors(t *testing.T) {
	h := newHarness(t, Options{})
	wantError(t, h.do(http.MethodGet, "/api/v1/nope", nil, nil), exchange.CodeNoSuchEndpoint)
	wantError(t, h.do(http.MethodGet, "/", nil, nil), exchange.CodeNoSuchEndpoint)
	r := h.do(http.MethodGet, exchange.PathAPIKeyLogin, nil, nil)
	wantError(t, r, exchange.CodeMethodNotAllowed, "POST")
	if r.header.Get("Allow") != http.MethodPost {
		t.Errorf("Allow = %q", r.header.Get("Allow"))
	}
	wantError(t, h.do(http.MethodPost, exchange.PathDepositAddresses, "{}", nil), exchange.CodeMethodNotAllowed, "GET")
	wantError(t, h.do(http.MethodGet, exchange.PathBuilderAuthorize, nil, nil), exchange.CodeMethodNotAllowed)
}

func TestServerTime(t *testing.T) {
	h := newHarness(t, Options{})
	r := h.do(http.MethodGet, exchange.PathTime, nil, nil)
	wantStatus(t, r, http.StatusOK)
	var st exchange.ServerTime
	decode(t, r.body, &st)
	if st.ServerTime != t0.UnixMilli() {
		t.Fatalf("server_time %d, want %d", st.ServerTime, t0.UnixMilli())
	}
}

func TestAPIKeyLogin(t *testing.T) {
	h := newHarness(t, Options{})
	r := h.do(http.MethodPost, exchange.PathAPIKeyLogin, `{"api_key":"sandbox-demo-key"}`, map[string]string{"Cookie": "rm=true;"})
	s := h.session(r)
	if s.accountID != DemoAccountID {
		t.Errorf("account id %q", s.accountID)
	}
	want := exchange.LoginResult{Status: "success", FundingAccountAddress: DemoAddress}
	if s.result != want {
		t.Errorf("result %+v, want %+v", s.result, want)
	}
	setCookie := r.header.Get("Set-Cookie")
	for _, part := range []string{"Path=/", "HttpOnly", "Expires=" + t0.Add(DefaultSessionTTL).Format(http.TimeFormat)} {
		if !strings.Contains(setCookie, part) {
			t.Errorf("Set-Cookie %q lacks %q", setCookie, part)
		}
	}

	trading := h.login(TradingAPIKey)
	if trading.result.SubAccountID != TradingSubAccountID || trading.accountID != DemoAccountID {
		t.Errorf("trading login %+v account %q", trading.result, trading.accountID)
	}
	if h.login(DemoAPIKey).cookie == s.cookie {
		t.Error("two logins share a session cookie")
	}

	r = h.do(http.MethodPost, exchange.PathAPIKeyLogin, `{"api_key":"sandbox-secret-guess"}`, nil)
	wantError(t, r, exchange.CodeNotAuthenticated)
	if strings.Contains(string(r.body), "secret-guess") || r.header.Get("Set-Cookie") != "" {
		t.Errorf("unknown key answer echoes it or sets a cookie: %s", r.body)
	}
}

func TestSessionExpires(t *testing.T) {
	h := newHarness(t, Options{SessionTTL: time.Hour})
	s := h.login(DemoAPIKey)
	wantStatus(t, s.do(http.MethodGet, exchange.PathDepositAddresses, nil), http.StatusOK)
	h.clock.Advance(time.Hour)
	wantError(t, s.do(http.MethodGet, exchange.PathDepositAddresses, nil), exchange.CodeNotAuthenticated, "expired")
}

func TestMalformedBodies(t *testing.T) {
	h := newHarness(t, Options{})
	login := exchange.PathAPIKeyLogin
	wallet := exchange.PathWalletLogin
	cases := []struct {
		path, body string
		words      []string
	}{
		{login, ``, []string{"empty"}},
		{login, `{"api_key":`, []string{"not valid JSON"}},
		{login, `{"api_key":"x"} trailing`, []string{"not valid JSON"}},
		{login, `[]`, []string{"JSON object"}},
		{login, `"sandbox-demo-key"`, []string{"JSON object"}},
		{login, `{"api_key":5}`, []string{"api_key", "string"}},
		{login, `{}`, []string{"api_key", "required"}},
		{login, `null`, []string{"api_key", "required"}},
		{login, `{"api_key":"` + strings.Repeat("k", maxBody) + `"}`, []string{"larger than 64 KiB"}},
		{wallet, `{"address":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"}`, []string{"signature", "required"}},
		{wallet, `{"address":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266","signature":{"signer":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266","s":"0x","v":27,"nonce":1,"expiration":"1","chain_id":"327"}}`, []string{"signature.r", "required"}},
		{wallet, `{"address":"x","signature":{"v":"27"}}`, []string{"signature.v", "integer"}},
		{wallet, `{"address":"x","signature":{"nonce":4294967296}}`, []string{"signature.nonce", "4294967295"}},
		{wallet, `{"address":"x","signature":{"nonce":-1}}`, []string{"signature.nonce"}},
		{wallet, `{"address":"x","signature":{"expiration":1790000000000000000}}`, []string{"signature.expiration", "string"}},
		{wallet, `{"address":"x","signature":[]}`, []string{"signature", "object"}},
	}
	for _, c := range cases {
		wantError(t, h.do(http.MethodPost, c.path, c.body, nil), exchange.CodeMalformed, c.words...)
	}
	// A body too large for the endpoints that need a session is said after
	// the session is checked, as any other fault of their bodies.
	huge := `{"chain":"` + strings.Repeat("k", maxBody) + `"}`
	s := h.session(h.do(http.MethodPost, login, map[string]string{"api_key": DemoAPIKey}, nil))
	for _, path := range []string{exchange.PathGenerateAddress, exchange.PathWithdrawalQuote, exchange.PathWithdraw} {
		wantError(t, h.do(http.MethodPost, path, huge, nil), exchange.CodeNotAuthenticated)
		wantError(t, s.do(http.MethodPost, path, huge), exchange.CodeMalformed, "larger than 64 KiB")
	}
}

// validLogin is a wallet login of the demo owner expiring in 4 minutes.
func validLogin(h *harness, nonce uint32) map[string]any {
	return toMap(h.t, h.walletLogin(key(h.t, DemoPrivateKey), nonce, t0.Add(4*time.Minute)))
}

func TestWalletLogin(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.session(h.do(http.MethodPost, exchange.PathWalletLogin, validLogin(h, 7), nil))
	if s.accountID != DemoAccountID || s.result.FundingAccountAddress != DemoAddress {
		t.Fatalf("login %+v account %q", s.result, s.accountID)
	}
	wantStatus(t, s.do(http.MethodGet, exchange.PathWithdrawalInfo, nil), http.StatusOK)

	// chain_id "0" means the environment's; as a number it is accepted too.
	body := validLogin(h, 8)
	sigMap(body)["chain_id"] = "0"
	wantStatus(t, h.do(http.MethodPost, exchange.PathWalletLogin, body, nil), http.StatusOK)
	body = validLogin(h, 9)
	sigMap(body)["chain_id"] = 327
	wantStatus(t, h.do(http.MethodPost, exchange.PathWalletLogin, body, nil), http.StatusOK)

	// The no-chain account's owner logs in by wallet too.
	nc := h.walletLogin(key(t, NoChainPrivateKey), 1, t0.Add(time.Minute))
	if s := h.session(h.do(http.MethodPost, exchange.PathWalletLogin, nc, nil)); s.accountID != NoChainAccountID {
		t.Fatalf("no-chain login account %q", s.accountID)
	}
}

// highS turns a valid signature into its malleable twin (n - s, v flipped).
func highS(sig map[string]any) {
	s := new(big.Int).SetBytes(common.FromHex(sig["s"].(string)))
	s.Sub(secp256k1.Params().N, s)
	sig["s"] = hexutil.Encode(common.LeftPadBytes(s.Bytes(), 32))
	sig["v"] = 55 - sig["v"].(float64)
}

func TestWalletLoginRejections(t *testing.T) {
	h := newHarness(t, Options{})
	demo := key(t, DemoPrivateKey)
	stranger := key(t, BuilderPrivateKey)
	cases := []struct {
		name  string
		body  func() map[string]any
		code  exchange.Code
		words []string
	}{
		{"unregistered signer", func() map[string]any {
			return toMap(t, h.walletLogin(stranger, 1, t0.Add(time.Minute)))
		}, exchange.CodeNotAuthenticated, []string{"wallet not registered: ", "main signing wallet"}},
		{"trading signer", func() map[string]any {
			return toMap(t, h.walletLogin(key(t, TradingSignerPrivateKey), 1, t0.Add(time.Minute)))
		}, exchange.CodeNotAuthenticated, []string{"wallet not registered: "}},
		{"signer is not address", func() map[string]any {
			b := validLogin(h, 1)
			b["address"] = BuilderAddress
			return b
		}, exchange.CodeNotAuthenticated, []string{"invalid signature: ", "signature.signer"}},
		{"signed by another key", func() map[string]any {
			m := signer.WalletLogin{Signer: demo.Address(), Nonce: 1, Expiration: t0.Add(time.Minute).UnixNano()}
			s := h.sign(stranger, m)
			s.Signer = demo.Address()
			return toMap(t, exchange.WalletLoginRequest{Address: DemoAddress, Signature: exchange.NewSignature(s)})
		}, exchange.CodeNotAuthenticated, []string{"invalid signature: ", "does not match"}},
		{"expiration differs from signed", func() map[string]any {
			b := validLogin(h, 1)
			sigMap(b)["expiration"] = big.NewInt(t0.Add(3 * time.Minute).UnixNano()).String()
			return b
		}, exchange.CodeNotAuthenticated, []string{"invalid signature: "}},
		{"expiration not a number", func() map[string]any {
			b := validLogin(h, 1)
			sigMap(b)["expiration"] = "soon"
			return b
		}, exchange.CodeMalformed, []string{"signature.expiration"}},
		{"expired", func() map[string]any {
			return toMap(t, h.walletLogin(demo, 1, t0.Add(-time.Second)))
		}, exchange.CodeNotAuthenticated, []string{"signature expired: "}},
		{"expires now", func() map[string]any {
			return toMap(t, h.walletLogin(demo, 1, t0))
		}, exchange.CodeNotAuthenticated, []string{"signature expired: "}},
		{"more than 5 minutes ahead", func() map[string]any {
			return toMap(t, h.walletLogin(demo, 1, t0.Add(5*time.Minute+time.Nanosecond)))
		}, exchange.CodeExpirationTooFar, []string{"5 minutes"}},
		{"v 29", func() map[string]any {
			b := validLogin(h, 1)
			sigMap(b)["v"] = 29
			return b
		}, exchange.CodeMalformed, []string{"signature.v", "27 or 28"}},
		{"v 0", func() map[string]any {
			b := validLogin(h, 1)
			sigMap(b)["v"] = 0
			return b
		}, exchange.CodeMalformed, []string{"signature.v", "27 or 28"}},
		{"short r", func() map[string]any {
			b := validLogin(h, 1)
			sigMap(b)["r"] = "0x1234"
			return b
		}, exchange.CodeMalformed, []string{"signature.r"}},
		{"s not hex", func() map[string]any {
			b := validLogin(h, 1)
			sigMap(b)["s"] = "0x" + strings.Repeat("zz", 32)
			return b
		}, exchange.CodeMalformed, []string{"signature.s"}},
		{"high s", func() map[string]any {
			b := validLogin(h, 1)
			highS(sigMap(b))
			return b
		}, exchange.CodeNotAuthenticated, []string{"invalid signature: ", "lower half"}},
		{"r zero", func() map[string]any {
			b := validLogin(h, 1)
			sigMap(b)["r"] = "0x" + strings.Repeat("00", 32)
			return b
		}, exchange.CodeNotAuthenticated, []string{"invalid signature: "}},
		{"other chain id", func() map[string]any {
			b := validLogin(h, 1)
			sigMap(b)["chain_id"] = "325"
			return b
		}, exchange.CodeBadChainID, []string{"325", "327"}},
		{"chain id not a number", func() map[string]any {
			b := validLogin(h, 1)
			sigMap(b)["chain_id"] = "staging"
			return b
		}, exchange.CodeMalformed, []string{"signature.chain_id"}},
		{"address not hex", func() map[string]any {
			b := validLogin(h, 1)
			b["address"] = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb9226"
			return b
		}, exchange.CodeMalformed, []string{"address"}},
		{"address bad checksum", func() map[string]any {
			b := validLogin(h, 1)
			b["address"] = "0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
			return b
		}, exchange.CodeMalformed, []string{"checksum"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := h.do(http.MethodPost, exchange.PathWalletLogin, c.body(), nil)
			wantError(t, r, c.code, c.words...)
			if r.header.Get("Set-Cookie") != "" {
				t.Error("rejected login set a cookie")
			}
		})
	}
	// None of the rejections used up nonce 1.
	wantStatus(t, h.do(http.MethodPost, exchange.PathWalletLogin, validLogin(h, 1), nil), http.StatusOK)
}

func TestWalletLoginReplay(t *testing.T) {
	h := newHarness(t, Options{})
	body := validLogin(h, 42)
	wantStatus(t, h.do(http.MethodPost, exchange.PathWalletLogin, body, nil), http.StatusOK)
	wantError(t, h.do(http.MethodPost, exchange.PathWalletLogin, body, nil), exchange.CodeNotAuthenticated, "signature already used: ")
	// Same nonce, fresh expiration: still inside the first one's window.
	again := toMap(t, h.walletLogin(key(t, DemoPrivateKey), 42, t0.Add(3*time.Minute)))
	wantError(t, h.do(http.MethodPost, exchange.PathWalletLogin, again, nil), exchange.CodeNotAuthenticated, "signature already used: ")
	// Once the first signature has expired its nonce may be used again.
	h.clock.Advance(4 * time.Minute)
	again = toMap(t, h.walletLogin(key(t, DemoPrivateKey), 42, h.clock.Now().Add(time.Minute)))
	wantStatus(t, h.do(http.MethodPost, exchange.PathWalletLogin, again, nil), http.StatusOK)
}

// An independent EIP-712 implementation (the stock wallet of exchangetest,
// held to go-ethereum's apitypes by the signer's tests) produces a login the
// sandbox accepts.
func TestWalletLoginStockTypedData(t *testing.T) {
	h := newHarness(t, Options{})
	exp := t0.Add(2 * time.Minute).UnixNano()
	td := fmt.Sprintf(`{"types":{
		"EIP712Domain":[{"name":"name","type":"string"},{"name":"version","type":"string"},{"name":"chainId","type":"uint256"}],
		"WalletLogin":[{"name":"signer","type":"address"},{"name":"nonce","type":"uint32"},{"name":"expiration","type":"int64"}]},
		"primaryType":"WalletLogin","domain":{"name":"Service Exchange","version":"0","chainId":"327"},
		"message":{"signer":%q,"nonce":"123456","expiration":"%d"}}`, DemoAddress, exp)
	raw, err := exchangetest.SignTypedDataJSON(DemoPrivateKey, []byte(td))
	if err != nil {
		t.Fatal(err)
	}
	body := map[string]any{"address": DemoAddress, "signature": map[string]any{
		"signer": DemoAddress, "r": hexutil.Encode(raw[:32]), "s": hexutil.Encode(raw[32:64]), "v": int(raw[64]),
		"nonce": 123456, "expiration": big.NewInt(exp).String(), "chain_id": "327",
	}}
	wantStatus(t, h.do(http.MethodPost, exchange.PathWalletLogin, body, nil), http.StatusOK)
}

// The ethers-made vectors recover to their own (unregistered) signer: the
// sandbox gets past signature verification to the registration check, and
// a changed r is caught as a mismatch.
func TestWalletLoginEthersVector(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "eip712_vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vf struct {
		Vectors []struct {
			PrimaryType string `json:"primary_type"`
			Address     string `json:"address"`
			Domain      struct {
				ChainID uint64 `json:"chainId"`
			} `json:"domain"`
			Message struct {
				Nonce      uint32 `json:"nonce"`
				Expiration string `json:"expiration"`
			} `json:"message"`
			R, S string
			V    int
		} `json:"vectors"`
	}
	decode(t, b, &vf)
	tried := 0
	for _, v := range vf.Vectors {
		if v.PrimaryType != "WalletLogin" {
			continue
		}
		tried++
		h := newHarness(t, Options{ChainID: v.Domain.ChainID})
		var ns int64
		if err := json.Unmarshal([]byte(v.Message.Expiration), &ns); err != nil {
			t.Fatal(err)
		}
		h.clock.Set(time.Unix(0, ns).Add(-time.Minute))
		body := map[string]any{"address": v.Address, "signature": map[string]any{
			"signer": v.Address, "r": v.R, "s": v.S, "v": v.V, "nonce": v.Message.Nonce,
			"expiration": v.Message.Expiration, "chain_id": v.Domain.ChainID,
		}}
		wantError(t, h.do(http.MethodPost, exchange.PathWalletLogin, body, nil), exchange.CodeNotAuthenticated, "wallet not registered: ")
		sigMap(body)["r"] = "0x" + strings.Repeat("11", 32)
		wantError(t, h.do(http.MethodPost, exchange.PathWalletLogin, body, nil), exchange.CodeNotAuthenticated, "invalid signature: ")
	}
	if tried == 0 {
		t.Fatal("no WalletLogin vectors")
	}
}

// TestWalletLoginWithoutChainID: as the published service does, a wallet
// login may omit signature.chain_id (or send 0): the environment's applies.
func TestWalletLoginWithoutChainID(t *testing.T) {
	h := newHarness(t, Options{})
	for i, chainID := range []any{nil, "0"} {
		b := validLogin(h, uint32(100+i))
		if chainID == nil {
			delete(sigMap(b), "chain_id")
		} else {
			sigMap(b)["chain_id"] = chainID
		}
		r := h.do(http.MethodPost, exchange.PathWalletLogin, b, nil)
		if r.status != http.StatusOK || r.header.Get("Set-Cookie") == "" {
			t.Fatalf("chain_id %v: status %d %s", chainID, r.status, r.body)
		}
	}
}

// TestAnswersAsThePublishedService: the account-id header is 0x-shaped like
// the real service's, yet not the funding address (a client must read it
// from the login), and a session lives 30 days unless --session-ttl says.
func TestAnswersAsThePublishedService(t *testing.T) {
	h := newHarness(t, Options{})
	for _, key := range []string{DemoAPIKey, NoChainAPIKey} {
		s := h.login(key)
		if !common.IsHexAddress(s.accountID) || !strings.HasPrefix(s.accountID, "0x") {
			t.Errorf("%s: account id %q is not 0x and 40 hex digits", key, s.accountID)
		}
		if strings.EqualFold(s.accountID, s.result.FundingAccountAddress) {
			t.Errorf("%s: account id %q is the funding address", key, s.accountID)
		}
	}
	r := h.do(http.MethodPost, exchange.PathAPIKeyLogin, `{"api_key":"sandbox-demo-key"}`, nil)
	if want := "Expires=" + t0.Add(30*24*time.Hour).Format(http.TimeFormat); !strings.Contains(r.header.Get("Set-Cookie"), want) {
		t.Errorf("Set-Cookie %q: want a 30-day session (%s)", r.header.Get("Set-Cookie"), want)
	}
}
