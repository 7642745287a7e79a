package exchange_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// rawOnPath rewrites the raw bytes of one path's answers with f.
func rawOnPath(path string, f func([]byte) []byte) func(string, []byte) []byte {
	return func(p string, body []byte) []byte {
		if p != path {
			return body
		}
		return f(body)
	}
}

// TestHostileIdsAndAmounts: ids that are not tokens and amounts out of their
// bounds are refused with a shape error naming the field, in every answer
// that carries them, and the error never repeats the input.
func TestHostileIdsAndAmounts(t *testing.T) {
	set := func(key string, val any) func(v any) any {
		return func(v any) any { v.(map[string]any)[key] = val; return v }
	}
	digits := func(n int) string { return strings.Repeat("9", n) }
	for _, tc := range []struct {
		name, path string
		f          func(v any) any
		says       string
	}{
		{"quote id running a command", exchange.PathWithdrawalQuote, set("quote_id", "q-1234$(touch${IFS}/tmp/PWNED)"), "quote id holds a character other than letters"},
		{"quote id with a semicolon", exchange.PathWithdrawalQuote, set("quote_id", "q-1;q-2"), "quote id holds a character other than letters"},
		{"quote id with a comma", exchange.PathWithdrawalQuote, set("quote_id", "q-1,q-2"), "quote id holds a character other than letters"},
		{"quote id with a quote", exchange.PathWithdrawalQuote, set("quote_id", `q-1"`), "quote id holds a character other than letters"},
		{"quote id of a key's shape", exchange.PathWithdrawalQuote, set("quote_id", strings.Repeat("ab12", 8)+"-"+strings.Repeat("cd34", 8)), "quote id has the shape of a private key"},
		{"900,000-digit receive amount", exchange.PathWithdrawalQuote, set("receive_amount", digits(900_000)), "receive amount has more than 18 digits before the decimal point"},
		{"70,000-digit receive amount", exchange.PathWithdrawalQuote, set("receive_amount", "1."+digits(70_000)), "receive amount has more than 18 decimal places"},
		{"19-digit pay amount", exchange.PathWithdrawalQuote, set("pay_amount", digits(19)), "pay amount has more than 18 digits"},
		{"7-decimal fee", exchange.PathWithdrawalQuote, set("fee", "1.0000001"), "fee has more than 6 decimal places"},
		{"7-decimal USDT receive amount", exchange.PathWithdrawalQuote, set("receive_amount", "8.4999999"), "receive amount has more than 6 decimal places for USDT"},
		{"exponent", exchange.PathWithdrawalQuote, set("fee", "1e3"), "fee is not a plain decimal number"},
		{"amount as a JSON number with an exponent", exchange.PathWithdrawalQuote, set("fee", 1e300), "fee is not a plain decimal number"},
		{"negative pay amount", exchange.PathWithdrawalQuote, set("pay_amount", "-10"), "pay amount is negative"},
		{"no pay amount", exchange.PathWithdrawalQuote, func(v any) any { delete(v.(map[string]any), "pay_amount"); return v }, "pay amount is missing"},
		{"receive above pay", exchange.PathWithdrawalQuote, set("receive_amount", "10.000001"), "receive amount 10.000001 is above the pay amount 10"},
		{"fee above the loss", exchange.PathWithdrawalQuote, set("fee", "1.500001"), "quote does not add up: its fee 1.500001 is more than pay − receive (10 − 8.5 = 1.5)"},
		{"fee above the loss, with the receive amount", exchange.PathWithdrawalQuote, func(v any) any { return set("fee", "0.5")(set("receive_amount", "9.6")(v)) }, "its fee 0.5 is more than pay − receive (10 − 9.6 = 0.4)"},
		{"19-digit USD fee", exchange.PathWithdrawalQuote, set("fee_usd", "0."+digits(19)), "fee in USD has more than 18 decimal places"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, h := newHostileWorld(t, sandbox.Options{})
			c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
			h.set(onPath(tc.path, tc.f))
			_, err := w.Quote(c, sandbox.DestCompleted, "ARBITRUM", "10")
			if got := shapeSays(err); !strings.Contains(got, tc.says) {
				t.Fatalf("err = %v, want a shape error saying %q", err, tc.says)
			}
			if len(err.Error()) > 300 || strings.Contains(err.Error(), "PWNED") {
				t.Fatalf("the error repeats the input: %.300s", err)
			}
		})
	}
}

// TestHostileBuilderKeyIsAToken: the builder's API key is copied into
// configs and shells, so one with shell syntax is refused.
func TestHostileBuilderKeyIsAToken(t *testing.T) {
	w, h := newHostileWorld(t, sandbox.Options{})
	h.set(rawOnPath(exchange.PathBuilderAuthorize, func([]byte) []byte { return []byte(`{"api_key":"k-$(reboot)"}`) }))
	c := w.Client(exchange.Options{})
	req := w.builderRequest(mustKey(t, sandbox.DemoPrivateKey), mustKey(t, sandbox.BuilderPrivateKey).Address(), "Trade", 7, t0.Add(24*time.Hour))
	_, err := c.AuthorizeBuilder(ctx, req)
	if got := shapeSays(err); !strings.Contains(got, "builder API key holds a character other than letters") {
		t.Fatalf("err = %v, want the key refused", err)
	}
}

// TestHostileErrorBodies: the message of a 4xx or 5xx body reaches the user
// cleaned to one line; a body naming a field twice is not trusted at all.
func TestHostileErrorBodies(t *testing.T) {
	for name, body := range map[string]string{
		"escape sequences": `{"code":1003,"message":"bad \u001b]0;owned\u0007\u001b[2Jthing\u009b31m\u202e\nrm -rf","status":400}`,
		"code twice":       `{"code":1003,"CODE":4000,"message":"x","status":400}`,
	} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusBadRequest)
				w.Write([]byte(body))
			}))
			t.Cleanup(srv.Close)
			c := exchange.New(config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID), exchange.Options{})
			_, err := c.Login(ctx, exchange.APIKey("k"))
			if err == nil {
				t.Fatal("login answered 400 succeeded")
			}
			for _, shown := range []string{err.Error(), exchange.Explain(err).Error()} {
				if s, bad := dirty(reflect.ValueOf(shown)); bad || strings.Contains(shown, "\n") {
					t.Fatalf("the error carries %q", s)
				}
			}
			if name == "code twice" && errors.Is(err, exchange.CodeInsufficientBalance) {
				t.Fatalf("a body naming code twice was read: %v", err)
			}
		})
	}
}

// TestConvertedQuoteFeeTaken: a quote that converts (USDT in, USDC out)
// has its receive amount at the bridge's rate, so pay − receive is no
// loss the fee must fit in: a fee above it is taken, and so is a payout
// above the pay amount, within exchange.ConversionTolerance of 1:1.
func TestConvertedQuoteFeeTaken(t *testing.T) {
	for _, tc := range []struct{ receive, fee string }{{"9.995", "0.01"}, {"10.05", "0.01"}, {"8.585", "1.5"}} {
		w, h := newHostileWorld(t, sandbox.Options{})
		c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
		h.set(onPath(exchange.PathWithdrawalQuote, func(v any) any {
			m := v.(map[string]any)
			m["receive_amount"], m["fee"] = tc.receive, tc.fee
			return m
		}))
		q, err := c.Quote(ctx, convertingQuote)
		if err != nil || !q.Fee.Equal(decimal.RequireFromString(tc.fee)) || !q.ReceiveAmount.Equal(decimal.RequireFromString(tc.receive)) {
			t.Fatalf("a converting quote paying %s USDC for 10 USDT less a fee of %s was not taken: %v", tc.receive, tc.fee, err)
		}
	}
}

// convertingQuote asks for USDC paid out of 10 USDT.
var convertingQuote = exchange.QuoteRequest{ToAddress: sandbox.DestCompleted, Chain: "ARBITRUM",
	TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDC, Amount: "10"}

// TestConvertedQuoteBeyondOneToOne: a converting quote paying out more
// than 1% above what it debits less its fee, valued 1:1, is refused as one
// that does not add up; the bound counts the fee, so a fee the payout
// does not leave room for is refused too.
func TestConvertedQuoteBeyondOneToOne(t *testing.T) {
	for _, tc := range []struct{ receive, fee, says string }{
		{"10.089901", "0.01", "it pays out 10.089901 USDC for 10 USDT less its fee of 0.01, more than 1% above 1:1 (at most 10.0899 USDC)"},
		{"50", "0", "it pays out 50 USDC for 10 USDT less its fee of 0"},
		{"8.585001", "1.5", "it pays out 8.585001 USDC for 10 USDT less its fee of 1.5, more than 1% above 1:1 (at most 8.585 USDC)"},
	} {
		w, h := newHostileWorld(t, sandbox.Options{})
		c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
		h.set(onPath(exchange.PathWithdrawalQuote, func(v any) any {
			m := v.(map[string]any)
			m["receive_amount"], m["fee"] = tc.receive, tc.fee
			return m
		}))
		_, err := c.Quote(ctx, convertingQuote)
		if got := shapeSays(err); !strings.Contains(got, "quote does not add up: "+tc.says) {
			t.Fatalf("receive %s, fee %s: err = %v, want a shape error saying %q", tc.receive, tc.fee, err, tc.says)
		}
	}
}
