package exchange_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/config"
	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/follow"
	"github.com/svcwallet/svcwallet/internal/sandbox"
	"github.com/svcwallet/svcwallet/internal/withdrawal"
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
		{"900,000-digit receive amount", exchange.PathWithdrawalQuote, set("receive_amount", digits(900_000)), "receive amount has more than 18 digits before the decimal point"},
		{"70,000-digit receive amount", exchange.PathWithdrawalQuote, set("receive_amount", "1."+digits(70_000)), "receive amount has more than 18 decimal places"},
		{"19-digit pay amount", exchange.PathWithdrawalQuote, set("pay_amount", digits(19)), "pay amount has more than 18 digits"},
		{"7-decimal fee", exchange.PathWithdrawalQuote, set("fee", "1.0000001"), "fee has more than 6 decimal places"},
		{"7-decimal USDT receive amount", exchange.PathWithdrawalQuote, set("receive_amount", "8.5000001"), "receive amount has more than 6 decimal places for USDT"},
		{"exponent", exchange.PathWithdrawalQuote, set("fee", "1e3"), "fee is not a plain decimal number"},
		{"amount as a JSON number with an exponent", exchange.PathWithdrawalQuote, set("fee", 1e300), "fee is not a plain decimal number"},
		{"negative pay amount", exchange.PathWithdrawalQuote, set("pay_amount", "-10"), "pay amount is negative"},
		{"no pay amount", exchange.PathWithdrawalQuote, func(v any) any { delete(v.(map[string]any), "pay_amount"); return v }, "pay amount is missing"},
		{"receive above pay", exchange.PathWithdrawalQuote, set("receive_amount", "10.000001"), "receive amount 10.000001 is above the pay amount 10"},
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

// TestFeeCapOnWhatTheUserLoses: a quote that declares no fee but pays out
// almost nothing is over a 2 USDT cap; within the cap it can be signed.
func TestFeeCapOnWhatTheUserLoses(t *testing.T) {
	c := withdrawal.Choice{TokenIn: exchange.TokenUSDT, Amount: decimal.RequireFromString("100"), FeeCap: decimal.NewNullDecimal(decimal.RequireFromString("2"))}
	q := exchange.Quote{PayAmount: decimal.RequireFromString("100"), ReceiveAmount: decimal.RequireFromString("0.000001"), Fee: decimal.Zero}
	if got := c.QuoteRefusal(q); !strings.Contains(got, "you would lose 99.999999 USDT (pay 100, receive 0.000001), above your fee cap of 2 USDT") {
		t.Fatalf("refusal = %q", got)
	}
	q.ReceiveAmount = decimal.RequireFromString("98")
	if got := c.QuoteRefusal(q); got != "" {
		t.Fatalf("a 2 USDT loss within a 2 USDT cap refused: %q", got)
	}
	q.ReceiveAmount = decimal.RequireFromString("97.999999")
	if got := c.QuoteRefusal(q); got == "" {
		t.Fatal("a 2.000001 USDT loss passed a 2 USDT cap")
	}
	if got := q.Cost().String(); got != "2.000001" {
		t.Fatalf("Cost = %s", got)
	}
}

// TestCreatedAfterAcceptanceIsNoExpiry: a CREATED record of a withdrawal the
// journal saw accepted is never read as "nothing was debited", and following
// does not end on it.
func TestCreatedAfterAcceptanceIsNoExpiry(t *testing.T) {
	accepted := t0.Add(-time.Hour)
	f := follow.Follow{QuoteID: "q-1", AcceptedAt: accepted}
	f.Answer(exchange.Withdrawal{QuoteID: "q-1", State: exchange.StateCreated, UpdatedAt: t0.Add(-2 * time.Hour), ServiceTime: t0}, nil, time.Second, func(int64) int64 { return 0 })
	if f.Final || f.ExpiredUnexecuted() {
		t.Fatal("a CREATED record of an accepted withdrawal ended the follow as expired")
	}
	got := f.Outcome().Words
	if f.Outcome().Name != follow.LabelContradicts || strings.Contains(got, "nothing was debited") || !strings.Contains(got, "The service reports CREATED for a withdrawal it accepted on "+accepted.UTC().Format("2006-01-02 15:04 UTC")) ||
		!strings.Contains(got, "ontact support") {
		t.Fatalf("meaning = %q", got)
	}
	f = follow.Follow{QuoteID: "q-2"}
	f.Answer(exchange.Withdrawal{QuoteID: "q-2", State: exchange.StateCreated, UpdatedAt: t0.Add(-2 * time.Hour), ServiceTime: t0}, nil, time.Second, func(int64) int64 { return 0 })
	if o := f.Outcome(); !f.Final || o.Name != follow.LabelExpired || o.Words != exchange.ExpiredWords {
		t.Fatalf("an unaccepted stale CREATED: final %v, %+v", f.Final, o)
	}
}

// TestStateFilesReadBackChecked: the bridge-pin and watch-board files are
// read back as answers are: a pin that is not an address refuses the file,
// an id that is not a token is dropped, and keys named twice refuse it.
func TestStateFilesReadBackChecked(t *testing.T) {
	dir := t.TempDir()
	pins := filepath.Join(dir, "bridge.json")
	must(t, os.WriteFile(pins, []byte(`{"sandbox":{"address":"0x6e3a\u001b[2J","first_seen":"2026-03-01T10:00:00Z"}}`), 0o600))
	env := config.Environment{Name: "sandbox"} // no pin in config: the recorded one decides
	if err := withdrawal.RecordBridge(env, pins, sandbox.BridgeFundingAddress, t0); err == nil || !strings.Contains(err.Error(), "the address for sandbox is not an EVM address") || strings.Contains(err.Error(), "\x1b") {
		t.Fatalf("a planted pin: %v", err)
	}
	board := filepath.Join(dir, "board.json")
	must(t, os.WriteFile(board, []byte(`{"envs":{"sandbox":["q-1$(touch${IFS}/tmp/x)","q-ok","q-\u001b]0;t\u0007"]}}`), 0o600))
	if kept, err := follow.LoadWatchlist(board, "sandbox"); err != nil || len(kept) != 1 || kept[0].QuoteID != "q-ok" {
		t.Fatalf("board ids %q, %v; want only q-ok", ids(kept), err)
	}
	must(t, os.WriteFile(board, []byte(`{"envs":{"sandbox":["q-a"],"SANDBOX":["q-b"]}}`), 0o600))
	if _, err := follow.LoadWatchlist(board, "sandbox"); err == nil {
		t.Fatal("a board file naming an environment twice was read")
	}
}

// TestConfigNamesTheJournalRecords: an environment name or domain_name the
// journal and the bridge pins could not read back is refused at load, so
// it never stops a withdrawal at its journal; a pin for such a name is
// never written.
func TestConfigNamesTheJournalRecords(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"a space in the name":             `[env."my env"]`,
		"a non-ASCII name":                `[env."prodé"]`,
		"an invisible in the domain name": "[env.prod]\ndomain_name = \"Service\u200bExchange\"",
		"a 67-character domain name":      "[env.prod]\ndomain_name = \"" + strings.Repeat("x", 67) + "\"",
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, "config.toml")
			body += "\nauth_url = \"http://127.0.0.1:1\"\nbase_url = \"http://127.0.0.1:1\"\nmarket_data_url = \"http://127.0.0.1:1\"\nchain_id = 327\n"
			must(t, os.WriteFile(path, []byte(body), 0o600))
			if _, err := config.LoadConfig(path, true); err == nil {
				t.Fatal("loaded")
			}
		})
	}
	pins := filepath.Join(dir, "bridge.json")
	if err := withdrawal.RecordBridge(config.Environment{Name: "my env"}, pins, sandbox.BridgeFundingAddress, t0); err == nil {
		t.Fatal("a pin for an environment name the reader refuses was written")
	}
	if err := withdrawal.RecordBridge(config.Environment{Name: "prod"}, pins, sandbox.BridgeFundingAddress, t0); err != nil {
		t.Fatalf("the other environments are locked out: %v", err)
	}
}
