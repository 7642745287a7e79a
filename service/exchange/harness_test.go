package exchange_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/loopback"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// The rig the tests of other packages share, under the names these tests
// have long used.
var (
	t0      = loopback.T0
	mustKey = loopback.MustKey
	noSleep = loopback.NoSleep
)

type (
	recorder      = loopback.Recorder
	roundTripFunc = loopback.RoundTripFunc
)

// world is the sandbox on loopback, with what the wire client's tests alone
// ask of it.
type world struct{ *loopback.World }

func newWorld(t *testing.T, opts sandbox.Options) *world {
	return &world{loopback.NewWorld(t, opts)}
}

// signWithdraw signs the Transfer for a quote with key, as the review screen does.
func (w *world) signWithdraw(c *exchange.Client, q exchange.Quote, key signer.Key, mutate func(*signer.Transfer)) exchange.WithdrawRequest {
	w.T.Helper()
	info, err := c.WithdrawalInfo(context.Background())
	if err != nil {
		w.T.Fatalf("withdrawal info: %v", err)
	}
	s, _ := c.Session()
	raw, err := exchange.RawUnits(q.PayAmount)
	if err != nil {
		w.T.Fatal(err)
	}
	tr := signer.Transfer{
		FromAccount: common.HexToAddress(s.FundingAccountAddress), ToAccount: common.HexToAddress(info.FundingAddress),
		TokenCurrency: signer.USDTCurrency, NumTokens: raw, Nonce: signer.NewNonce(),
		Expiration: w.Clock.Now().Add(24 * time.Hour).UnixNano(),
	}
	if mutate != nil {
		mutate(&tr)
	}
	sig, err := signer.Sign(context.Background(), key, w.Env.Domain(), tr)
	if err != nil {
		w.T.Fatal(err)
	}
	return exchange.WithdrawRequest{QuoteID: q.QuoteID, Signature: exchange.NewWithdrawSignature(sig)}
}

// shortTimeout is an HTTP client whose attempts give up fast, for faults that
// hang until the client leaves.
func shortTimeout(d time.Duration) *http.Client { return &http.Client{Timeout: d} }

var ctx = context.Background()

// wantAPIError requires err to be the service's rejection code with the HTTP
// status status: errors.Is must match the code, and the *APIError must carry
// both (the code from the D7 body, not only inferred from the status).
func wantAPIError(t testing.TB, err error, code exchange.Code, status int) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want code %d (HTTP %d)", code, status)
	}
	if !errors.Is(err, code) {
		t.Fatalf("error %q is not code %d", err, code)
	}
	var ae *exchange.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("error %T %q is not an *APIError", err, err)
	}
	if ae.Status != status || ae.Code != code {
		t.Fatalf("error HTTP %d code %d (%q), want HTTP %d code %d", ae.Status, ae.Code, ae.Message, status, code)
	}
}

// wantBalance checks an account's USDT balance on the sandbox.
func (w *world) wantBalance(account, want string) {
	w.T.Helper()
	if got := w.Ex.Balance(account); !got.Equal(decimal.RequireFromString(want)) {
		w.T.Fatalf("balance of %s: %s, want %s", account, got, want)
	}
}

// raw sends a request built by hand (a body the client would never send)
// over loopback and turns a non-2xx answer into an *APIError from its D7
// body, checking that the body's status is the HTTP one.
func (w *world) raw(method, path string, body any, hdr http.Header) error {
	w.T.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			w.T.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, w.Env.AuthURL+path, rd)
	if err != nil {
		w.T.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range hdr {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.T.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode < 300 {
		return nil
	}
	var eb exchange.ErrorBody
	if err := json.Unmarshal(b, &eb); err != nil || eb.Status != resp.StatusCode {
		w.T.Fatalf("%s %s: HTTP %d with body %q, not a D7 error", method, path, resp.StatusCode, b)
	}
	return &exchange.APIError{Status: resp.StatusCode, Code: exchange.Code(eb.Code), Message: eb.Message}
}

// signedLogin is a wallet-login body of key, signed for the world's domain.
func (w *world) signedLogin(key signer.Key, nonce uint32, exp time.Time) exchange.WalletLoginRequest {
	w.T.Helper()
	msg := signer.WalletLogin{Signer: key.Address(), Nonce: nonce, Expiration: exp.UnixNano()}
	sig, err := signer.Sign(context.Background(), key, w.Env.Domain(), msg)
	if err != nil {
		w.T.Fatal(err)
	}
	return exchange.WalletLoginRequest{Address: key.Address().Hex(), Signature: exchange.NewSignature(sig)}
}

// builderRequest is a builder authorization of the builder account by the
// demo account, signed by key (the demo key, unless a test wants another).
// perms "" is the mode without an API key; with perms the builder's API key
// signer is keySigner.
func (w *world) builderRequest(key signer.Key, keySigner common.Address, perms string, nonce uint32, exp time.Time) exchange.BuilderAuthorizeRequest {
	w.T.Helper()
	req := exchange.BuilderAuthorizeRequest{
		MainAccountID: sandbox.DemoAddress, BuilderAccountID: sandbox.BuilderAddress,
		MaxFuturesFeeRate: "0.1", MaxSpotFeeRate: "0.05",
	}
	main, builder := common.HexToAddress(sandbox.DemoAddress), common.HexToAddress(sandbox.BuilderAddress)
	var m signer.Message = signer.AuthorizeBuilder{
		MainAccountID: main, BuilderAccountID: builder,
		MaxFutureFeeRate: 1000, MaxSpotFeeRate: 500, Nonce: nonce, Expiration: exp.UnixNano(),
	}
	if perms != "" {
		req.BuilderAPIKeyLabel, req.BuilderAPIKeySigner, req.BuilderAPIKeyPermissions = "my bot", keySigner.Hex(), perms
		m = signer.AddAccountSignerWithBuilder{
			AccountID: main, Signer: keySigner, Permissions: perms, BuilderAccountID: builder,
			MaxFutureFeeRate: 1000, MaxSpotFeeRate: 500, Nonce: nonce, Expiration: exp.UnixNano(),
		}
	}
	sig, err := signer.Sign(context.Background(), key, w.Env.Domain(), m)
	if err != nil {
		w.T.Fatal(err)
	}
	req.Signature = exchange.NewSignature(sig)
	return req
}

// highS turns a valid signature's s and v into its malleable twin's (n - s,
// v flipped): it recovers the same signer, and the service refuses it (2007).
func highS(s *string, v *int) {
	hs := new(big.Int).Sub(secp256k1.Params().N, new(big.Int).SetBytes(common.FromHex(*s)))
	*s, *v = hexutil.Encode(common.LeftPadBytes(hs.Bytes(), 32)), 55-*v
}

// wantLoginReason: a wallet login refused with 401 names which of the four
// reasons first in the service's message.
func wantLoginReason(t testing.TB, err error, reason string) {
	t.Helper()
	var ae *exchange.APIError
	if !errors.As(err, &ae) || !strings.HasPrefix(ae.Message, reason+": ") {
		t.Fatalf("error %v does not name the reason %q first", err, reason)
	}
}
