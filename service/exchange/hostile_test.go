package exchange_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/loopback"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// hostile is a server in front of the sandbox that rewrites its answers, as
// a compromised proxy or a wrong base_url would: rewrite gets the path and
// the sandbox's body and returns the body to send.
type hostile struct {
	next    http.Handler
	mu      sync.Mutex
	rewrite func(path string, body []byte) []byte
}

func (h *hostile) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := httptest.NewRecorder()
	h.next.ServeHTTP(rec, r)
	body := rec.Body.Bytes()
	h.mu.Lock()
	if h.rewrite != nil {
		body = h.rewrite(r.URL.Path, body)
	}
	h.mu.Unlock()
	for k, v := range rec.Header() {
		if k != "Content-Length" {
			w.Header()[k] = v
		}
	}
	w.WriteHeader(rec.Code)
	w.Write(body)
}

// set installs a rewrite; nil passes answers through.
func (h *hostile) set(f func(path string, body []byte) []byte) {
	h.mu.Lock()
	h.rewrite = f
	h.mu.Unlock()
}

// newHostileWorld is a world whose client reaches the sandbox through h.
func newHostileWorld(t *testing.T, opts sandbox.Options) (*world, *hostile) {
	t.Helper()
	h := &hostile{}
	w := loopback.NewWorldBehind(t, opts, func(next http.Handler) http.Handler { h.next = next; return h })
	return &world{w}, h
}

// onPath rewrites the JSON answers of one path with f.
func onPath(path string, f func(v any) any) func(string, []byte) []byte {
	return func(p string, body []byte) []byte {
		if p != path {
			return body
		}
		var v any
		if json.Unmarshal(body, &v) != nil {
			return body
		}
		out, _ := json.Marshal(f(v))
		return out
	}
}

// shapeSays is a shape error's field and reason, "" for any other error.
func shapeSays(err error) string {
	var se *exchange.ShapeError
	if !errors.As(err, &se) {
		return ""
	}
	return se.Field + " " + se.Reason
}

// TestHostileAnswersRefused: answers whose fields do not have their shape
// are refused with a *ShapeError (the withdraw 202 stays an acceptance of
// the quote that was sent: the funds may have moved).
func TestHostileAnswersRefused(t *testing.T) {
	set := func(key string, val any) func(v any) any {
		return func(v any) any { v.(map[string]any)[key] = val; return v }
	}
	big := strings.Repeat("q", 600<<10)
	for _, tc := range []struct {
		name, path string
		f          func(v any) any
		says       string
	}{
		{"600 KB quote id", exchange.PathWithdrawalQuote, set("quote_id", big), "quote id is 614400 characters long"},
		{"empty quote id", exchange.PathWithdrawalQuote, set("quote_id", ""), "quote id is empty"},
		// Printed in every command that names it (status ID --watch,
		// withdraw resume ID), it would be read there as a flag.
		{"quote id read as a flag", exchange.PathWithdrawalQuote, set("quote_id", "--help"), "quote id begins with '-'"},
		{"far-future expiry", exchange.PathWithdrawalQuote, set("expires_at", t0.Add(365*24*time.Hour).Format(time.RFC3339)), "quote expiry is more than 10m0s ahead"},
		{"negative pay amount", exchange.PathWithdrawalQuote, set("pay_amount", "-10"), "pay amount is negative"},
		{"unknown speed", exchange.PathWithdrawalQuote, set("speed", "warp"), "speed is not fast or slow"},
		{"swapped funding address not an address", exchange.PathWithdrawalInfo, set("funding_address", "0xabc\n"), "bridge funding address is not an EVM address"},
		{"unknown chain type", exchange.PathWithdrawalInfo, func(v any) any {
			r := v.(map[string]any)["route"].(map[string]any)["USDT"].([]any)[0].(map[string]any)
			r["chain_type"] = "aptos"
			return v
		}, "route chain type is not evm, solana or tron"},
		// A route listing draws every name it holds, and a quote names its
		// chain and payout token: an empty one, or a chain or payout token
		// named twice (in any case), leaves a screen no route it can say.
		{"chain named twice", exchange.PathWithdrawalInfo, onRoute(func(r map[string]any) map[string]any {
			twin := maps.Clone(r)
			twin["chain"], twin["tokens_out"] = strings.ToLower(r["chain"].(string)), []any{"USDT"}
			return twin
		}), "route listing names the chain arbitrum twice for USDT"},
		{"payout token named twice", exchange.PathWithdrawalInfo, onRoute(func(r map[string]any) map[string]any {
			r["tokens_out"] = []any{"USDT", "USDC", "USDT"}
			return nil
		}), "route to ARBITRUM names the payout token USDT twice"},
		// The review names whose funding address the Transfer pays.
		{"empty provider", exchange.PathWithdrawalInfo, set("provider", ""), "bridge provider is empty"},
		{"provider of control characters", exchange.PathWithdrawalInfo, set("provider", "\x1b[2J\u200b"), "bridge provider is not one word"},
		// Named before the trust note, free text read as the note or
		// pushed it off the row.
		{"provider of words", exchange.PathWithdrawalInfo, set("provider", "Across · pinned ·"), "bridge provider is not one word"},
		{"provider holding the note's word", exchange.PathWithdrawalInfo, set("provider", "Pinned-Bridge"), `bridge provider holds "pinned", a word of the bridge address's trust note`},
		{"provider of a colon", exchange.PathWithdrawalInfo, set("provider", "bridge:"), "bridge provider is not one word"},
		{"provider past the row", exchange.PathWithdrawalInfo, set("provider", strings.Repeat("a", 33)), "bridge provider is 33 characters long (at most 32)"},
		{"empty route chain", exchange.PathWithdrawalInfo, onRoute(func(r map[string]any) map[string]any { r["chain"] = ""; return nil }), "route chain is empty"},
		{"empty payout token", exchange.PathWithdrawalInfo, onRoute(func(r map[string]any) map[string]any { r["tokens_out"] = []any{""}; return nil }), "payout token is empty"},
		{"empty route chain id", exchange.PathWithdrawalInfo, onRoute(func(r map[string]any) map[string]any { r["chain_id"] = ""; return nil }), "route chain id is empty"},
		{"source token listed twice, in another case", exchange.PathWithdrawalInfo, func(v any) any {
			route := v.(map[string]any)["route"].(map[string]any)
			route["usdt"] = route["USDT"]
			return v
		}, `names the field "usdt" twice`},
		{"empty source token", exchange.PathWithdrawalInfo, func(v any) any {
			route := v.(map[string]any)["route"].(map[string]any)
			route[""] = route["USDC"]
			return v
		}, "source token is empty"},
		{"login with a bad funding address", exchange.PathAPIKeyLogin, set("funding_account_address", "nope"), "funding account address is not an EVM address"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, h := newHostileWorld(t, sandbox.Options{})
			c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
			h.set(onPath(tc.path, tc.f))
			var err error
			switch tc.path {
			case exchange.PathWithdrawalQuote:
				_, err = w.Quote(c, sandbox.DestCompleted, "ARBITRUM", "10")
			case exchange.PathWithdrawalInfo:
				_, err = c.WithdrawalInfo(ctx)
			case exchange.PathAPIKeyLogin:
				_, err = w.Client(exchange.Options{}).Login(ctx, exchange.APIKey(sandbox.DemoAPIKey))
			}
			if got := shapeSays(err); !strings.Contains(got, tc.says) {
				t.Fatalf("err = %v, want a shape error saying %q", err, tc.says)
			}
			if len(err.Error()) > 400 {
				t.Fatalf("the error repeats the input: %d bytes", len(err.Error()))
			}
		})
	}
}

// TestTokensKeptInCapitals: a route listing's tokens in any case are kept
// as exchange.TokenName spells them, so every face finds the source token
// usdt as USDT and a payout token usdc as USDC (its decimals, its words).
func TestTokensKeptInCapitals(t *testing.T) {
	w, h := newHostileWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	h.set(onPath(exchange.PathWithdrawalInfo, func(v any) any {
		route := v.(map[string]any)["route"].(map[string]any)
		route["USDT"].([]any)[0].(map[string]any)["tokens_out"] = []any{"usdt", "uSdC"}
		route["usdt"], route["Usdc"] = route["USDT"], route["USDC"]
		delete(route, "USDT")
		delete(route, "USDC")
		return v
	}))
	info, err := c.WithdrawalInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(maps.Keys(info.Route)); !slices.Equal(got, []string{"USDC", "USDT"}) {
		t.Fatalf("source tokens %q, want USDC and USDT", got)
	}
	if got := info.Route[exchange.TokenUSDT][0].TokensOut; !slices.Equal(got, []string{"USDT", "USDC"}) {
		t.Errorf("payout tokens %q, want USDT and USDC", got)
	}
}

// TestRefusedRouteWords: a route listing refused is said as a sentence a
// person reads whole ("a route that to ARBITRUM names…" before), with what
// to do.
func TestRefusedRouteWords(t *testing.T) {
	w, h := newHostileWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	h.set(onPath(exchange.PathWithdrawalInfo, onRoute(func(r map[string]any) map[string]any {
		r["tokens_out"] = []any{"USDT", "USDT"}
		return nil
	})))
	_, err := c.WithdrawalInfo(ctx)
	if want := "the service sent a route to ARBITRUM that names the payout token USDT twice; nothing was used from that answer: try again, and tell support if it persists"; exchange.Explain(err).Error() != want {
		t.Errorf("said %q, want %q", exchange.Explain(err), want)
	}
}

// onRoute changes the first USDT route of a withdrawal info, and adds
// the route it returns, if any, after it.
func onRoute(change func(r map[string]any) map[string]any) func(v any) any {
	return func(v any) any {
		route := v.(map[string]any)["route"].(map[string]any)
		routes := route["USDT"].([]any)
		if added := change(routes[0].(map[string]any)); added != nil {
			route["USDT"] = append(routes, added)
		}
		return v
	}
}

// TestHostileStatus: a status record with an unknown state, a hash of the
// wrong shape, another quote's id, a field named twice (in any case, as
// encoding/json folds it), a COMPLETED without its payout hash, or a FAILED
// or REFUNDED with one is refused, never shown as this one.
func TestHostileStatus(t *testing.T) {
	w, h := newHostileWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	q, err := w.Quote(c, sandbox.DestCompleted, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Withdraw(ctx, w.signWithdraw(c, q, mustKey(t, sandbox.DemoPrivateKey), nil)); err != nil {
		t.Fatal(err)
	}
	w.Clock.Advance(time.Hour)
	set := func(key string, val any) func([]byte) []byte {
		return func(b []byte) []byte {
			return onPath(exchange.PathWithdrawalStatus, func(v any) any { v.(map[string]any)[key] = val; return v })(exchange.PathWithdrawalStatus, b)
		}
	}
	for _, tc := range []struct {
		name string
		f    func([]byte) []byte
		says string
	}{
		{"unknown state", set("state", "PAID_OUT"), "withdrawal state is not one of"},
		{"another quote's record", set("quote_id", "q-someone-else"), "another quote id than the one asked"},
		{"hash with a newline", set("withdraw_tx_hash", "0xabc\necho owned"), "payout hash is not 0x and 64 hex digits"},
		{"Solana hash on an EVM chain", set("withdraw_tx_hash", strings.Repeat("5", 88)), "payout hash"},
		{"state twice, other case", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"state":"COMPLETED"`), []byte(`"state":"COMPLETED","STATE":"FAILED"`), 1)
		}, `names the field "STATE" twice`},
		{"state twice, long s (U+017F), as encoding/json folds it", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"state":"COMPLETED"`), []byte(`"state":"COMPLETED","ſtate":"FAILED"`), 1)
		}, `names the field "ſtate" twice`},
		{"same key twice", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"state":"COMPLETED"`), []byte(`"state":"COMPLETED","state":"FAILED"`), 1)
		}, `names the field "state" twice`},
		{"COMPLETED without a payout hash", func(b []byte) []byte {
			return onPath(exchange.PathWithdrawalStatus, func(v any) any { delete(v.(map[string]any), "withdraw_tx_hash"); return v })(exchange.PathWithdrawalStatus, b)
		}, "COMPLETED record carries no payout hash"},
		{"FAILED with a payout hash", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"state":"COMPLETED"`), []byte(`"state":"FAILED"`), 1)
		}, "FAILED record carries a payout hash"},
		{"REFUNDED with a payout hash", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"state":"COMPLETED"`), []byte(`"state":"REFUNDED"`), 1)
		}, "REFUNDED record carries a payout hash"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.set(rawOnPath(exchange.PathWithdrawalStatus, tc.f))
			_, err := c.WithdrawalStatus(ctx, q.QuoteID)
			if got := shapeSays(err); !strings.Contains(got, tc.says) {
				t.Fatalf("err = %v, want a shape error saying %q", err, tc.says)
			}
		})
	}
	h.set(nil)
	if st, err := c.WithdrawalStatus(ctx, q.QuoteID); err != nil || st.State != exchange.StateCompleted {
		t.Fatalf("untouched: %+v, %v", st, err)
	}
}

// TestHostileWithdrawAnswer: a 202 whose body is {} or names another quote
// is still the acceptance of the quote that was sent (the funds moved).
func TestHostileWithdrawAnswer(t *testing.T) {
	for name, f := range map[string]func(path string, body []byte) []byte{
		"{}": func(p string, body []byte) []byte {
			if p == exchange.PathWithdraw {
				return []byte("{}")
			}
			return body
		},
		"another quote id": onPath(exchange.PathWithdraw, func(v any) any { v.(map[string]any)["quote_id"] = "q-attacker"; return v }),
		// Always SUBMITTED on acceptance (SPEC.md §4.9): one naming a final
		// state was followed as it: REFUNDED, never asked again, said
		// "nothing was paid out; you can withdraw again" of funds that left.
		"REFUNDED":  onPath(exchange.PathWithdraw, func(v any) any { v.(map[string]any)["state"] = exchange.StateRefunded; return v }),
		"COMPLETED": onPath(exchange.PathWithdraw, func(v any) any { v.(map[string]any)["state"] = exchange.StateCompleted; return v }),
	} {
		t.Run(name, func(t *testing.T) {
			w, h := newHostileWorld(t, sandbox.Options{})
			c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
			q, err := w.Quote(c, sandbox.DestCompleted, "ARBITRUM", "10")
			if err != nil {
				t.Fatal(err)
			}
			h.set(f)
			acc, err := c.Withdraw(ctx, w.signWithdraw(c, q, mustKey(t, sandbox.DemoPrivateKey), nil))
			if err != nil || acc.QuoteID != q.QuoteID || acc.State != exchange.StateSubmitted {
				t.Fatalf("accepted %+v, %v; want the sent quote %s, SUBMITTED", acc, err, q.QuoteID)
			}
			w.wantBalance(sandbox.DemoAccountID, "9990")
		})
	}
}

// TestHostileDepositAddress: an address that fails its chain's check is
// moved aside with the reason; the rest of the list stays usable.
func TestHostileDepositAddress(t *testing.T) {
	w, h := newHostileWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	h.set(onPath(exchange.PathDepositAddresses, func(v any) any {
		chains := v.(map[string]any)["chains"].([]any)
		chains[0].(map[string]any)["deposit_address"] = sandbox.DemoAddress + "\necho owned\n"
		chains[5].(map[string]any)["deposit_address"] = "0x" + strings.Repeat("ab", 20) // an EVM address on TRON
		return v
	}))
	chains, err := c.DepositAddresses(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 5} {
		ch := chains[i]
		if ch.DepositAddress != "" || ch.AddressProblem == "" || ch.RefusedAddress == "" || strings.Contains(ch.RefusedAddress, "\n") {
			t.Errorf("%s: %+v, want the address refused with its reason", ch.Chain, ch)
		}
	}
	if !strings.Contains(chains[5].AddressProblem, "Tron") || !common.IsHexAddress(chains[1].DepositAddress) {
		t.Errorf("chains %+v", chains)
	}
}

// TestHostileAccountIDHeader: the account id travels in a header, past the
// body's checks; one that is not id-shaped fails the login.
func TestHostileAccountIDHeader(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: config.SessionCookie, Value: "tok", Path: "/"})
		w.Header().Set(config.HeaderAccountID, "acct 1 \u202eevil")
		json.NewEncoder(w).Encode(exchange.LoginResult{Status: "success", FundingAccountAddress: sandbox.DemoAddress})
	}))
	t.Cleanup(srv.Close)
	c := exchange.New(config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID), exchange.Options{})
	_, err := c.Login(ctx, exchange.APIKey("k"))
	if got := shapeSays(err); !strings.Contains(got, "account id holds a character other than letters, digits") {
		t.Fatalf("login with a hostile account id: %v", err)
	}
}

// TestHostileBuilderKeyUnasked: an authorization without an API key
// (AuthorizeBuilder: no key signer signed) answered with one names a key
// nobody asked for: an attacker's account's, which every face would show
// "this once" and the console offer to log in with. It is dropped; the
// authorization stands. One asked for is kept.
func TestHostileBuilderKeyUnasked(t *testing.T) {
	w, h := newHostileWorld(t, sandbox.Options{})
	c := w.Client(exchange.Options{})
	demo := mustKey(t, sandbox.DemoPrivateKey)
	h.set(func(p string, body []byte) []byte {
		if p == exchange.PathBuilderAuthorize {
			return []byte(`{"api_key":"attacker-key-1"}`)
		}
		return body
	})
	res, err := c.AuthorizeBuilder(ctx, w.builderRequest(demo, common.Address{}, "", 1, t0.Add(7*24*time.Hour)))
	if err != nil || res.APIKey != "" {
		t.Fatalf("an authorization without a key answered with one: %+v, %v; want it accepted, no key", res, err)
	}
	bot := mustKey(t, sandbox.NoChainPrivateKey)
	res, err = c.AuthorizeBuilder(ctx, w.builderRequest(demo, bot.Address(), "Trade", 2, t0.Add(7*24*time.Hour)))
	if err != nil || res.APIKey != "attacker-key-1" {
		t.Fatalf("an authorization with a key: %+v, %v; want the answer's key", res, err)
	}
}
